import { expect, test, type Page } from '@playwright/test';
import { ZOperatorCreateClientResponse } from '../../src/domain/schemas/merchant-client';
import { readOperatorFile } from '../../src/server/operator-file';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../src/server/testing/paystack-simulator/paystack-simulator';
import { expectNoViolations } from './axe';
import { startBuiltServer } from './built-server';
import { E2E } from './e2e-env';
import { snap } from './merchant';

// The payer pays in real Chromium with the product running against Paystack: the built server
// (as `npm start` runs it) with PAYMENT_PROVIDER=paystack, whose Paystack is the simulator
// (src/server/testing/paystack-simulator) started in this process. The simulator's signed notices
// come in at the server's notices route, and the page follows them on its event stream. The same
// flows through the server's routes alone: src/server/routes/provider-flows.test.ts.

const SECRET_KEY = 'sk_test_e2e00000000000000000000000000000000';
const payment = { type: 'immediate', amount: 250_000, narration: 'Order #1042 groceries' };
/** The card form's fields for a Paystack test card (README of the simulator): any CVV, a future expiry. */
const CARDS = {
  pinOtp: { number: '5078501111111111', pin: '1111', otp: '123456' },
  threeDs: { number: '4084080000000409', pin: '1234' },
  declined: { number: '4084080000005408', pin: '1234' },
  paidAtOnce: { number: '4084084084084081', pin: '1234' },
} as const;

let paystack: TPaystackSimulator | null = null;
let server: Awaited<ReturnType<typeof startBuiltServer>> | null = null;
let merchant = { clientId: '', secret: '' };

test.beforeAll(async () => {
  // A port of its own per viewport project (with SNAP=1 both run at once), clear of the other
  // built servers' (demo-consents: +30, +31, +36, +37; quickstart: +32 to +35).
  const port = E2E.appPort + (test.info().project.name === 'mobile' ? 40 : 41);
  // The server's address is known before it starts; the simulator's only once it listens.
  paystack = await startPaystackSimulator({
    secretKey: SECRET_KEY,
    noticeUrl: `http://127.0.0.1:${port}/api/providers/paystack/notices`,
  });
  server = await startBuiltServer(port, {
    PAYMENT_PROVIDER: 'paystack',
    PAYSTACK_SECRET_KEY: SECRET_KEY,
    PAYSTACK_BASE_URL: paystack.url,
  });
  expect(server.printed).toContain(`Paystack test mode at ${paystack.url}`);
  // A merchant client, made as `npm run client:create` makes it while the server runs: through
  // the operator call the server's DATA_DIR/operator.json names.
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
});

/** Opens a new payment-only consent of the merchant on the built server. */
async function openConsent(page: Page) {
  const origin = server?.origin ?? '';
  const basic = Buffer.from(`${merchant.clientId}:${merchant.secret}`).toString('base64');
  const answer = await page.request.post(`${origin}/api/v1/consents`, {
    headers: { authorization: `Basic ${basic}` },
    data: { payments: [payment] },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  const { consentId } = (await answer.json()) as { consentId: string };
  await page.goto(`${origin}/r/${consentId}?clientId=${merchant.clientId}`);
  await expect(page.getByText('₦2,500.00 due now')).toBeVisible();
}

/** Types a card into the card form (the page encrypts it), then its PIN, and pays. */
async function payByCard(page: Page, card: { number: string; pin: string }) {
  await page.getByLabel('Card Number').fill(card.number);
  await page.getByLabel('Expiry date').fill('12/30');
  await page.getByLabel('CVV').fill('408');
  await page.getByRole('button', { name: 'Continue to PIN' }).click();
  await page.getByLabel('Card PIN').fill(card.pin);
  await page.getByRole('button', { name: 'Complete Payment' }).click();
}

const newCard = (page: Page) => page.getByRole('button', { name: /^Pay with Card Credit/ });

const granted = (page: Page) =>
  expect(page.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();

/**
 * Marks the page's document: still marked later, the page moved by itself (no reload, no
 * navigation).
 */
async function markDocument(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { notReloaded?: boolean }).notReloaded = true;
  });
  return async () =>
    expect(
      await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
    ).toBe(true);
}

/**
 * The page's own reads of the payment (what it does when its event stream is lost), counted from
 * now: none while it moves means the stream moved it.
 */
function paymentReads(page: Page) {
  const reads: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (request.method() === 'GET' && /^\/api\/payments\/[^/]+$/.test(pathname))
      reads.push(pathname);
  });
  return reads;
}

test.describe('paying through Paystack (its simulator)', () => {
  // One built server and one simulator for the file, on the project's port: its tests run in one
  // worker, one after another (the suite's other files still run beside it).
  test.describe.configure({ mode: 'default' });

  test("a card with its PIN, then the OTP under the provider's words", async ({
    page,
  }, testInfo) => {
    const bodies: string[] = [];
    page.on('request', (request) => bodies.push(request.postData() ?? ''));
    const asked = paystack?.requests.length ?? 0;
    await openConsent(page);
    await newCard(page).click();
    await payByCard(page, CARDS.pinOtp);
    await expect(page.getByRole('heading', { name: 'Verify Payment' })).toBeVisible();
    await expect(
      page.getByText('Please send OTP (none will be sent to your phone)', { exact: true }),
    ).toBeVisible();
    await snap(page, testInfo, 'paystack-otp');
    await expectNoViolations(page);
    for (const [index, digit] of [...CARDS.pinOtp.otp].entries()) {
      await page.getByLabel(`Digit ${index + 1} of 6`).fill(digit);
    }
    await page.getByRole('button', { name: 'Verify OTP' }).click();
    await expect(page.getByText('✓ Payment Successful')).toBeVisible();
    await granted(page);
    await snap(page, testInfo, 'paystack-card-granted');
    // The page sent the card only as it encrypted it; our server charged it at Paystack, then
    // sent its PIN and the OTP, with our secret key each time.
    expect(bodies.some((body) => body.includes(CARDS.pinOtp.number))).toBe(false);
    const calls = (paystack?.requests ?? []).slice(asked).filter((r) => r.method === 'POST');
    expect(calls.map((r) => [r.path, r.body])).toEqual([
      [
        '/charge',
        expect.objectContaining({
          amount: payment.amount,
          card: expect.objectContaining({ number: CARDS.pinOtp.number }),
        }),
      ],
      ['/charge/submit_pin', expect.objectContaining({ pin: CARDS.pinOtp.pin })],
      ['/charge/submit_otp', expect.objectContaining({ otp: CARDS.pinOtp.otp })],
    ]);
    expect(calls.every((r) => r.authorized)).toBe(true);
  });

  test('a card with 3-D Secure: approved on the bank page, the open page moves on by itself', async ({
    page,
    context,
  }, testInfo) => {
    await openConsent(page);
    await newCard(page).click();
    await payByCard(page, CARDS.threeDs);
    await expect(page.getByText('3D Secure Authentication Required')).toBeVisible();
    const link = page.getByRole('link', { name: 'Continue to Authentication' });
    // The challenge is Paystack's page (its open_url), not ours.
    expect(new URL((await link.getAttribute('href')) ?? '').origin).toBe(paystack?.url);
    const [challenge] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await expect(page.getByText('Awaiting 3D Secure authentication...')).toBeVisible();
    await snap(page, testInfo, 'paystack-3ds-waiting');
    await expectNoViolations(page);
    await expect(challenge.getByRole('heading', { name: '3-D Secure check' })).toBeVisible();
    await expect(challenge.getByText('₦2,500.00')).toBeVisible();
    await snap(challenge, testInfo, 'paystack-3ds-bank-page');

    const stillOpen = await markDocument(page);
    const reads = paymentReads(page);
    await challenge.getByRole('button', { name: 'Approve' }).click();
    await expect(challenge.getByRole('status')).toHaveText('You can close this page.');
    await granted(page);
    await stillOpen();
    expect(reads).toEqual([]);
    await snap(page, testInfo, 'paystack-3ds-granted');
    // Completed by Paystack's signed notice, which our server took.
    await paystack?.idle();
    expect(paystack?.notices.map((n) => `${n.event} ${n.status}`)).toContain('charge.success 200');
  });

  test('pay by transfer: the one-time account shown, the money sent, the page moves on by itself', async ({
    page,
  }, testInfo) => {
    await openConsent(page);
    await page.getByRole('button', { name: /Pay by Transfer/ }).click();
    const details = page.locator('.copy-details');
    const row = (label: string) =>
      details.locator('.detail-row', { has: page.getByText(label, { exact: true }) });
    await expect(row('Amount').locator('.detail-value')).toHaveText('₦2,500.00');
    await expect(row('Bank name').locator('.detail-value')).toHaveText('Test Bank');
    await expect(row('Account name').locator('.detail-value')).toHaveText('TEST-MANAGED-ACCOUNT');
    const accountNumber =
      (await row('Account number').locator('.detail-value').textContent()) ?? '';
    expect(accountNumber).toMatch(/^\d{10}$/);
    await expect(page.getByText(/^\d+m : \d{2}s$/)).toBeVisible();
    await snap(page, testInfo, 'paystack-transfer');
    await expectNoViolations(page);
    await page.getByRole('button', { name: 'I have made the transfer' }).click();
    await expect(page.getByText('Waiting for transfer confirmation...')).toBeVisible();

    const stillOpen = await markDocument(page);
    const reads = paymentReads(page);
    await paystack?.payTransfer(accountNumber, payment.amount);
    await expect(page.getByText('✓ Payment Successful')).toBeVisible();
    await granted(page);
    await stillOpen();
    expect(reads).toEqual([]);
    await snap(page, testInfo, 'paystack-transfer-granted');
  });

  test("a declined card: the catalogue's words, then the payer tries again and pays", async ({
    page,
  }, testInfo) => {
    await openConsent(page);
    await newCard(page).click();
    await payByCard(page, CARDS.declined);
    await expect(page.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();
    await expect(page.getByText('Card payment failed: Declined by your bank')).toBeVisible();
    await snap(page, testInfo, 'paystack-declined');
    await page.getByRole('button', { name: 'Try Another Method' }).click();
    await newCard(page).click();
    await expect(page.getByLabel('Card Number')).toHaveValue('');
    await payByCard(page, CARDS.paidAtOnce);
    await granted(page);
  });
});
