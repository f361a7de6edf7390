import { expect, test, type Locator } from '@playwright/test';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../src/server/testing/paystack-simulator/paystack-simulator';
import { expectNoViolations } from './axe';
import { startBuiltServer } from './built-server';
import { ownerOfNewMerchant } from './dashboard-support';
import { E2E } from './e2e-env';
import { snap } from './merchant';

// The chip terminal as Paystack Terminal (docs/providers/paystack-terminal.md): the built server
// with PAYMENT_PROVIDER=paystack and TERMINAL_PROVIDER=paystack, its Paystack the simulator
// started in this process. The merchant's owner registers its terminals in the dashboard; the
// payer picks one in the Chip Card Terminal modal, which says when it is offline, waits for the
// card there, and says approved once Paystack's notice has come through the payment's stream;
// a push whose answer the page never heard offers no other way while it may be charging.

const SECRET_KEY = 'sk_test_e2eterminal0000000000000000000000';
const TILL = { terminalId: 'E2ETILL1', name: 'Till 1' };
const BACK_OFFICE = { terminalId: 'E2EBACK1', name: 'Back office' };

let paystack: TPaystackSimulator | null = null;
let server: Awaited<ReturnType<typeof startBuiltServer>> | null = null;

test.beforeAll(async () => {
  // A port of its own per viewport project, clear of the other built servers' (paystack.spec.ts
  // lists them): +38 and +39.
  const port = E2E.appPort + (test.info().project.name === 'mobile' ? 38 : 39);
  paystack = await startPaystackSimulator({
    secretKey: SECRET_KEY,
    noticeUrl: `http://127.0.0.1:${port}/api/providers/paystack/notices`,
  });
  server = await startBuiltServer(port, {
    PAYMENT_PROVIDER: 'paystack',
    PAYSTACK_SECRET_KEY: SECRET_KEY,
    PAYSTACK_BASE_URL: paystack.url,
    TERMINAL_PROVIDER: 'paystack',
  });
  expect(server.printed).toContain('paystack-terminal');
});

test.afterAll(async () => {
  await server?.stop();
  await paystack?.close();
});

/** A fact of the modal ('Terminal', 'Transaction state', 'Amount'): its value. */
const fact = (dialog: Locator, name: string) =>
  dialog
    .locator('.terminal-facts div')
    .filter({ has: dialog.page().locator('dt', { hasText: new RegExp(`^${name}$`) }) })
    .locator('dd');

test('an owner registers the terminals; the payer finds one offline, then pays at the other', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  if (!server || !paystack) throw new Error('no server');
  // Each project's run has terminals of its own at the one simulator.
  const suffix = testInfo.project.name === 'mobile' ? 'M' : 'D';
  const till = { ...TILL, terminalId: `${TILL.terminalId}${suffix}` };
  const backOffice = { ...BACK_OFFICE, terminalId: `${BACK_OFFICE.terminalId}${suffix}` };
  paystack.addTerminal(till.terminalId, { online: true });
  paystack.addTerminal(backOffice.terminalId, { online: false });

  // The owner registers both in the dashboard.
  const merchant = await ownerOfNewMerchant(page, server, {
    merchant: 'Tola Stores',
    owner: 'Tola Adebayo',
  });
  await page.getByRole('link', { name: 'Terminals' }).click();
  await expect(page.getByRole('heading', { name: 'Card terminals', level: 1 })).toBeVisible();
  for (const terminal of [till, backOffice]) {
    await page.getByLabel('Paystack terminal id').fill(terminal.terminalId);
    await page.getByLabel('Name payers see').fill(terminal.name);
    await page.getByRole('button', { name: 'Register terminal' }).click();
    await expect(page.getByText(`${terminal.name} registered.`)).toBeVisible();
  }
  await expect(page.getByRole('button', { name: `Remove ${till.name}` })).toBeVisible();
  await expectNoViolations(page);
  await snap(page, testInfo, 'dashboard-terminals');

  // The payer, on a payment-only consent of the merchant.
  const answer = await page.request.post(`${server.origin}/api/v1/consents`, {
    headers: { authorization: merchant.authorization },
    data: { payments: [{ type: 'immediate', amount: 250_000, narration: 'Order #77 shoes' }] },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  const { consentId } = (await answer.json()) as { consentId: string };
  await page.goto(`${server.origin}/r/${consentId}?clientId=${merchant.clientId}`);
  await expect(page.getByText('₦2,500.00 due now')).toBeVisible();
  await page.getByRole('button', { name: /Chip Card Terminal/ }).click();

  const dialog = page.getByRole('dialog', { name: 'Chip Card Terminal' });
  await expect(dialog.getByRole('group', { name: 'Terminals' })).toBeVisible();
  await expect(fact(dialog, 'Transaction state')).toHaveText('Choose a terminal');
  await expect(fact(dialog, 'Amount')).toHaveText('₦2,500.00');
  await expectNoViolations(page);
  await snap(page, testInfo, 'pushed-terminal-choose');

  // The back office's terminal is off: nothing is sent, the payer is told, and tries again.
  await dialog.getByRole('button', { name: /Back office/ }).click();
  await expect(fact(dialog, 'Transaction state')).toHaveText('Terminal offline');
  await expect(dialog.getByRole('alert')).toHaveText(
    'The terminal is offline. Check that it is on and connected, or choose another way to pay.',
  );
  await expect(dialog.getByRole('status')).toHaveText(
    'Check that Back office is on and connected, then try again.',
  );
  await expectNoViolations(page);
  await snap(page, testInfo, 'pushed-terminal-offline');
  expect(paystack.paymentRequestCount()).toBe(0);
  await dialog.getByRole('button', { name: 'Try Again' }).click();

  // The till is on: the payment waits there for the payer's card.
  await dialog.getByRole('button', { name: /Till 1/ }).click();
  await expect(fact(dialog, 'Transaction state')).toHaveText('Waiting for the terminal');
  await expect(fact(dialog, 'Terminal')).toHaveText('Till 1');
  await expect(dialog.getByRole('status')).toHaveText(
    'Insert or tap your card on Till 1 and enter your PIN there.',
  );
  await expectNoViolations(page);
  await snap(page, testInfo, 'pushed-terminal-waiting');
  expect(paystack.terminalShowing(till.terminalId)).not.toBeNull();

  // Closed and opened again while the till waits: sent again, the payment is refused as on its
  // way, and the modal follows it rather than failing it; nothing is sent twice.
  await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
  await expect(dialog).toHaveCount(0);
  await page.getByRole('button', { name: /Chip Card Terminal/ }).click();
  await dialog.getByRole('button', { name: /Till 1/ }).click();
  await expect(fact(dialog, 'Transaction state')).toHaveText('In progress');
  await expect(dialog.getByRole('status')).toHaveText(
    'This payment is already being processed. Please wait. If it is on Till 1, finish it there; this page shows the payment when it ends.',
  );
  await expect(dialog.getByRole('button', { name: 'Try Again' })).toHaveCount(0);
  await expectNoViolations(page);
  await snap(page, testInfo, 'pushed-terminal-in-progress');
  expect(paystack.paymentRequestCount()).toBe(1);

  // The card is approved at the till: Paystack's notice, then the payment's stream, say so.
  await paystack.cardAtTerminal(till.terminalId, 'approved');
  await expect(fact(dialog, 'Transaction state')).toHaveText('Approved');
  await expect(dialog.getByText('Approved', { exact: true }).first()).toBeVisible();
  await snap(page, testInfo, 'pushed-terminal-approved');
  await expect(page.getByText('✓ Payment Successful')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();
  expect(paystack.paymentRequestCount()).toBe(1);

  // Another payer's push reaches the till, but its answer never reaches the page: the payment
  // may be charging there, so no other way is offered (the server would refuse it).
  const second = await page.request.post(`${server.origin}/api/v1/consents`, {
    headers: { authorization: merchant.authorization },
    data: { payments: [{ type: 'immediate', amount: 120_000, narration: 'Order #78 socks' }] },
  });
  expect(second.status(), await second.text()).toBe(201);
  const secondId = ((await second.json()) as { consentId: string }).consentId;
  await page.route('**/api/card-terminal/paystack/push', async (route) => {
    await route.fetch();
    await route.abort('connectionreset');
  });
  await page.goto(`${server.origin}/r/${secondId}?clientId=${merchant.clientId}`);
  await page.getByRole('button', { name: /Chip Card Terminal/ }).click();
  await dialog.getByRole('button', { name: /Till 1/ }).click();
  await expect(fact(dialog, 'Transaction state')).toHaveText('Not confirmed');
  await expect(dialog.getByRole('status')).toHaveText(
    'The payment may have reached Till 1, but this page could not confirm it. If it is on its screen, finish it there.',
  );
  await expect(dialog.getByRole('status')).not.toContainText('another way');
  await expect(dialog.getByRole('button', { name: 'Try Again' })).toHaveCount(0);
  await expectNoViolations(page);
  await snap(page, testInfo, 'pushed-terminal-not-confirmed');
  await page.unroute('**/api/card-terminal/paystack/push');
  // The push was recorded and is on the till. How it ends is not followed here: this payer is not
  // signed in and the lost answer held what reads the payment, so the page may never hear it.
  expect(paystack.paymentRequestCount()).toBe(2);
});
