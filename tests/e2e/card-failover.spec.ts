import { expect, test, type Page } from '@playwright/test';
import { ZOperatorCreateClientResponse } from '../../src/domain/schemas/merchant-client';
import { TRY_AGAIN_ELSEWHERE_TEXT } from '../../src/domain/card-retry-elsewhere';
import { STEP_TEXT_BANK_ANSWERING as STILL_ANSWERING } from '../../src/domain/constants';
import { readOperatorFile } from '../../src/server/operator-file';
import {
  startMonnifySimulator,
  type TMonnifySimulator,
} from '../../src/server/testing/monnify-simulator/monnify-simulator';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../src/server/testing/paystack-simulator/paystack-simulator';
import { expectNoViolations } from './axe';
import { startBuiltServer } from './built-server';
import { E2E } from './e2e-env';
import { snap } from './merchant';

// Card failover in real Chromium: the built server with CARD_PROVIDERS=paystack,monnify against
// both providers' simulators (started in this process), the payer not signed in. Paystack does
// not answer the payer's charge; the page waits while the server asks Paystack about it, and
// offers 'Try Again' only once Paystack says it took nothing. Try Again sends the card through
// Monnify, whose issuer asks for its own 3-D Secure check after the charge call was answered
// 'charging': the page follows the attempt to the check. Every wait is for a condition, so a
// loaded machine makes it slower, never different. The whole payment through the server's
// routes: src/server/routes/card-failover.test.ts.

const SECRET_KEY = 'sk_test_e2efailover000000000000000000000';
const payment = { type: 'immediate', amount: 250_000, narration: 'Order #1042 groceries' };
/**
 * Monnify's published card checked by 3-D Secure: the page sends a card without its PIN (the
 * issuer asks for one where it needs it), which Monnify takes only for a card that asks none.
 */
const CARD = { number: '4000000000000002', expiry: '12/30', cvv: '123' };

let paystack: TPaystackSimulator | null = null;
let monnify: TMonnifySimulator | null = null;
let server: Awaited<ReturnType<typeof startBuiltServer>> | null = null;
let merchant = { clientId: '', secret: '' };

test.beforeAll(async () => {
  // A port of its own per viewport project, clear of the other built servers'.
  const port = E2E.appPort + (test.info().project.name === 'mobile' ? 70 : 71);
  paystack = await startPaystackSimulator({ secretKey: SECRET_KEY });
  monnify = await startMonnifySimulator();
  server = await startBuiltServer(port, {
    PAYMENT_PROVIDER: 'paystack',
    CARD_PROVIDERS: 'paystack,monnify',
    PAYSTACK_SECRET_KEY: SECRET_KEY,
    PAYSTACK_BASE_URL: paystack.url,
    MONNIFY_API_KEY: monnify.apiKey,
    MONNIFY_SECRET_KEY: monnify.secretKey,
    MONNIFY_CONTRACT_CODE: monnify.contractCode,
    MONNIFY_BASE_URL: monnify.url,
    MONNIFY_WALLET_ACCOUNT_NUMBER: monnify.walletAccountNumber,
    // No wait for the network's answer: every charge is answered 'charging' (with the token that
    // follows the payment's stream), Paystack's unanswered one as Monnify's, whose 3-D Secure
    // step then reaches the page on the stream alone, however fast or slow the machine is.
    CARD_ANSWER_WAIT_MS: '0',
    // The reconciler asks about a charge left alone this long: well past the charge call's own
    // asking (its reads by reference, over about 4 s), so the reconciler's first question is
    // about the charge already unanswered, whose answer opens Try Again.
    RECONCILE_AFTER_MS: '20000',
    RECONCILE_INTERVAL_MS: '500',
  });
  const operator = readOperatorFile(server.dataDir);
  if (!operator) throw new Error('The built server wrote no operator file');
  const created = await fetch(`${operator.url}/api/operator/clients`, {
    method: 'POST',
    headers: { authorization: `Bearer ${operator.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Tola Stores' }),
  });
  expect(created.status).toBe(201);
  merchant = ZOperatorCreateClientResponse.parse(await created.json());
});

test.afterAll(async () => {
  await server?.stop();
  await paystack?.close();
  await monnify?.close();
});

/** Opens a new payment-only consent of the merchant on the built server. */
async function openConsent(page: Page) {
  const basic = Buffer.from(`${merchant.clientId}:${merchant.secret}`).toString('base64');
  const answer = await page.request.post(`${server?.origin ?? ''}/api/v1/consents`, {
    headers: { authorization: `Basic ${basic}` },
    data: { payments: [payment] },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  const { consentId } = (await answer.json()) as { consentId: string };
  await page.goto(`${server?.origin ?? ''}/r/${consentId}?clientId=${merchant.clientId}`);
  await expect(page.getByText('₦2,500.00 due now')).toBeVisible();
}

test("Paystack not answering: no Try Again until it says it took nothing, then Try Again takes the card's steps again at Monnify", async ({
  page,
}, testInfo) => {
  await openConsent(page);
  paystack?.unavailable(/^\/(charge|transaction)/);
  await page.getByRole('button', { name: /Pay with Card/ }).click();
  await page.getByLabel('Card Number').fill(CARD.number);
  await page.getByLabel('Expiry date').fill(CARD.expiry);
  await page.getByLabel('CVV').fill(CARD.cvv);
  await page.getByRole('button', { name: 'Continue to PIN' }).click();

  // Paystack silent: the page waits while the server asks Paystack about the charge; nothing
  // offers to charge the card again meanwhile. The charge call answers 'charging' once Paystack's
  // own limit has passed and it was asked by reference: on a loaded machine, past the 30 s an
  // expectation waits by default.
  await expect(page.getByText(STILL_ANSWERING)).toBeVisible({ timeout: 120_000 });
  const failure = page.getByRole('alert').filter({ hasText: 'Payment Failed' });
  const tryAgain = page.getByRole('button', { name: 'Try Again' });
  await expect(page.getByRole('progressbar', { name: 'Payment progress' })).toBeVisible({
    timeout: 120_000,
  });
  // The reconciler asks Paystack about the charge (its verify by reference), once the charge
  // call has ended unanswered: Paystack silent, the charge stays unanswered.
  await expect
    .poll(() => paystack?.requests.some((r) => r.path.startsWith('/transaction/verify/')), {
      timeout: 120_000,
    })
    .toBe(true);
  await expect(tryAgain).toHaveCount(0);
  await expect(failure).toHaveCount(0);
  await snap(page, testInfo, 'card-failover-asking');
  await expectNoViolations(page);

  // Paystack answers again: asked about the charge, it never had it. Try Again is offered.
  // The reconciler asks once the charge has been left RECONCILE_AFTER_MS.
  paystack?.unavailable(null);
  await expect(failure).toContainText('Your bank did not answer. Nothing was charged.', {
    timeout: 120_000,
  });
  await expect(failure).toContainText(TRY_AGAIN_ELSEWHERE_TEXT);
  await expect(tryAgain).toBeVisible();
  // A payer not signed in is offered the next processor as a signed-in one is, not the card again.
  await expect(page.getByRole('button', { name: 'Retry Payment' })).toHaveCount(0);
  await snap(page, testInfo, 'card-failover-try-again');
  await expectNoViolations(page);

  // By keyboard: Try Again sends the card to Monnify, whose issuer asks for its own check: the
  // card's steps begin again there, told on the stream after the call answered 'charging'.
  await tryAgain.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('3D Secure Authentication Required')).toBeVisible();
  await expect(page.getByText(STILL_ANSWERING)).toHaveCount(0);
  await snap(page, testInfo, 'card-failover-next-processor');
  await expectNoViolations(page);
  // One charge at each provider: Paystack's was never made; Monnify has the new one.
  expect(
    paystack?.requests.filter((r) => r.method === 'POST' && r.path === '/charge'),
  ).toHaveLength(1);
  expect(
    monnify?.requests.filter(
      (r) => r.method === 'POST' && r.path === '/api/v1/merchant/cards/charge',
    ),
  ).toHaveLength(1);
});
