import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  startMonnifySimulator,
  type TMonnifySimulator,
} from '../../src/server/testing/monnify-simulator/monnify-simulator';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../src/server/testing/paystack-simulator/paystack-simulator';
import { startBuiltServer } from './built-server';
import { lookAtScreen, ownerOfNewMerchant } from './dashboard-support';
import { BUILT_SERVER_PAYMENT_LIMIT, E2E } from './e2e-env';

// A merchant's cards move from Paystack to another provider while Paystack holds their money: the
// built server (as `npm start` runs it) takes a card payment at Paystack (its simulator, started
// in this process) with transfers at Monnify (its simulator) and each provider's notices at its
// own route; it is then stopped and started again on the same data directory with
// CARD_PROVIDERS=sandbox. The owner refunds the Paystack payment from the dashboard, and the
// refund reaches Paystack, never the sandbox that now takes new cards. The Developers screen is
// looked at (axe, shots at 390 px and 1280 px into /tmp/provider-switch-shots) under both
// configurations. The same through the server's routes: src/server/providers/provider-switch.test.ts.

const SHOTS = '/tmp/provider-switch-shots';
const PAYSTACK_KEY = 'sk_test_e2eswitch000000000000000000000000';
/** Paystack's test card that is paid at once (the simulator's README). */
const PAYSTACK_CARD = '4084084084084081';

let paystack: TPaystackSimulator | null = null;
let monnify: TMonnifySimulator | null = null;
let server: Awaited<ReturnType<typeof startBuiltServer>> | null = null;
let dataDir = '';
// A port of its own, clear of the other built servers' (see paystack.spec.ts), and one data
// directory for both starts. The test runs at 390 px only (its shots are taken at both widths).
const port = () => E2E.appPort + 56;

/** Both providers' settings; the lists say which takes new work. */
const providers = (lists: Record<string, string>) => ({
  PAYMENT_PROVIDER: 'paystack',
  PAYSTACK_SECRET_KEY: PAYSTACK_KEY,
  PAYSTACK_BASE_URL: paystack?.url ?? '',
  MONNIFY_API_KEY: monnify?.apiKey ?? '',
  MONNIFY_SECRET_KEY: monnify?.secretKey ?? '',
  MONNIFY_CONTRACT_CODE: monnify?.contractCode ?? '',
  MONNIFY_BASE_URL: monnify?.url ?? '',
  MONNIFY_WALLET_ACCOUNT_NUMBER: monnify?.walletAccountNumber ?? '',
  ...lists,
});

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  dataDir = mkdtempSync(path.join(tmpdir(), 'oya-switch-'));
  const notices = (name: string) => `http://127.0.0.1:${port()}/api/providers/${name}/notices`;
  paystack = await startPaystackSimulator({
    secretKey: PAYSTACK_KEY,
    noticeUrl: notices('paystack'),
  });
  monnify = await startMonnifySimulator({ noticeUrl: notices('monnify') });
});

test.afterAll(async () => {
  await server?.stop();
  await paystack?.close();
  await monnify?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The Developers screen's line of a capability: its providers, first the one of new work. */
async function capabilityLine(page: Page, capability: string) {
  const offers = page.getByRole('region', { name: 'What this server offers' });
  const term = page.getByRole('term').filter({ hasText: new RegExp(`^${capability}$`) });
  await expect(offers.locator(term)).toHaveCount(1);
  return offers.locator('div').filter({ has: term }).getByRole('definition');
}

async function openDevelopers(page: Page) {
  await page.getByRole('link', { name: 'Developers' }).click();
  await expect(page.getByRole('heading', { name: 'What this server offers' })).toBeVisible();
}

test('a card payment Paystack took is refunded at Paystack after cards moved to the sandbox', async ({
  page,
  context,
}) => {
  // Two server starts on a data directory of their own and a merchant's first screens: about a
  // minute alone, past 180 s on a loaded 2-core machine.
  test.slow();
  server = await startBuiltServer(
    port(),
    providers({ CARD_PROVIDERS: 'paystack,monnify', TRANSFER_PROVIDERS: 'monnify,paystack' }),
    { dataDir },
  );
  const owner = await ownerOfNewMerchant(page, server, {
    merchant: 'Kemi Fabrics',
    owner: 'Kemi Adebayo',
  });

  // Two providers side by side: each capability names the one of new work, then those standing by.
  await openDevelopers(page);
  await expect(await capabilityLine(page, 'cards')).toHaveText(/^paystack · standing by: monnify/);
  await expect(await capabilityLine(page, 'transfersIn')).toHaveText(
    /^monnify · standing by: paystack/,
  );
  // Every provider reads its own notices and settles its own money: none stands by.
  await expect(await capabilityLine(page, 'notices')).toHaveText('paystack, sandbox, monnify');
  await lookAtScreen(page, SHOTS, 'developers-two-providers');

  // A payer pays ₦2,500.00 by card on the consent page: Paystack charges it.
  const answer = await page.request.post(`${server.origin}/api/v1/consents`, {
    headers: { authorization: owner.authorization },
    data: {
      reference: 'KF-2042',
      payments: [{ type: 'immediate', amount: 250_000, narration: 'Ankara, 6 yards' }],
    },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  const { consentId } = (await answer.json()) as { consentId: string };
  const payer = await context.newPage();
  await payer.goto(`${server.origin}/r/${consentId}?clientId=${owner.clientId}`);
  await payer.getByRole('button', { name: /^Pay with Card/ }).click();
  await payer.getByLabel('Card Number').fill(PAYSTACK_CARD);
  await payer.getByLabel('Expiry date').fill('12/30');
  await payer.getByLabel('CVV').fill('408');
  await payer.getByRole('button', { name: 'Continue to PIN' }).click();
  await expect(payer.getByRole('heading', { name: 'Consent Granted' })).toBeVisible(
    BUILT_SERVER_PAYMENT_LIMIT,
  );
  await payer.close();
  const charges = paystack?.requests.filter((r) => r.method === 'POST' && r.path === '/charge');
  expect(charges).toHaveLength(1);

  // The server starts again on the same data with cards at the sandbox.
  await server.stop();
  server = await startBuiltServer(
    port(),
    providers({ CARD_PROVIDERS: 'sandbox', TRANSFER_PROVIDERS: 'monnify,paystack' }),
    { dataDir },
  );
  expect(server.printed).toContain('Capability cards: sandbox');

  // The owner (still signed in) finds the payment and refunds ₦500.00 of it.
  await page.goto(`${server.origin}/dashboard`);
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible();
  await page.getByLabel(/last digits of the account or card/).fill('4081');
  await page.getByRole('button', { name: 'Search' }).click();
  const row = page.getByRole('link', { name: /₦2,500\.00/ });
  await expect(row).toContainText('KF-2042');
  await row.click();
  await expect(page.getByRole('heading', { name: 'Timeline' })).toBeVisible();
  const refundsBefore = paystack?.requests.filter((r) => r.path === '/refund').length ?? 0;
  await page.getByLabel('Amount to refund in naira').fill('500');
  await page.getByLabel('Reason').fill('Short by one yard');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  const refundPanel = page.getByRole('region', { name: 'Refund', exact: true });
  await expect(refundPanel.getByRole('status')).toHaveText(/^Refund of ₦500\.00: /);

  // It reached Paystack, which took the money: one refund of that charge, for ₦500.00.
  const charge = charges?.[0]?.body as { reference: string };
  await expect
    .poll(() => paystack?.requests.filter((r) => r.method === 'POST' && r.path === '/refund'))
    .toHaveLength(refundsBefore + 1);
  const refund = paystack?.requests.findLast((r) => r.method === 'POST' && r.path === '/refund');
  expect(refund?.body).toMatchObject({ transaction: charge.reference, amount: 50_000 });

  // Paystack's notice that it paid the refund out comes in; the dashboard shows it processed.
  const refunds = page.getByRole('region', { name: 'Refunds' });
  await expect(async () => {
    await page.reload();
    await expect(refunds.getByText('Refund of ₦500.00: processed.')).toBeVisible({
      timeout: 2_000,
    });
  }).toPass();

  // The Developers screen now says new cards go to the sandbox, transfers still to Monnify.
  await openDevelopers(page);
  await expect(await capabilityLine(page, 'cards')).toHaveText(/^sandbox/);
  await expect(await capabilityLine(page, 'transfersIn')).toHaveText(
    /^monnify · standing by: paystack/,
  );
  await lookAtScreen(page, SHOTS, 'developers-after-switch');
});
