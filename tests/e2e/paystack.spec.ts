import { expect, test, type Page } from '@playwright/test';
import { ZOperatorCreateClientResponse } from '../../src/domain/schemas/merchant-client';
import { BANK_MANDATE_TEXT } from '../../src/domain/paper-mandate';
import { readOperatorFile } from '../../src/server/operator-file';
import { SANDBOX_PEOPLE } from '../../src/server/sandbox/fixtures';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../src/server/testing/paystack-simulator/paystack-simulator';
import { addVirtualAuthenticator, credentialCount, latestCode } from './auth-support';
import { expectNoViolations } from './axe';
import { startBuiltServer } from './built-server';
import { E2E } from './e2e-env';
import { panel } from './linking-support';
import { snap } from './merchant';

// The payer pays in real Chromium with the product running against Paystack: the built server
// (as `npm start` runs it) with PAYMENT_PROVIDER=paystack, whose Paystack is the simulator
// (src/server/testing/paystack-simulator) started in this process. The simulator's signed notices
// come in at the server's notices route, and the page follows them on its event stream. The same
// flows through the server's routes alone: src/server/routes/provider-flows.test.ts.

const SECRET_KEY = 'sk_test_e2e00000000000000000000000000000000';
const payment = { type: 'immediate', amount: 250_000, narration: 'Order #1042 groceries' };
/** The card form's fields for a Paystack test card (README of the simulator): any CVV, a future expiry. */
/** Paystack's test cards; `pin` where Paystack asks for one (send_pin), the others never do. */
const CARDS = {
  pinOtp: { number: '5078501111111111', pin: '1111', otp: '123456' },
  threeDs: { number: '4084080000000409' },
  declined: { number: '4084080000005408' },
  paidAtOnce: { number: '4084084084084081' },
} as const satisfies Record<string, { number: string; pin?: string; otp?: string }>;

/**
 * The sandbox's demo payer, whose BVN the sandbox's registry (Paystack's stand-in) holds, and a
 * GTBank (058) account of the simulator held under that BVN (its README, "Who holds an account")
 * whose number is a GTBank NUBAN: the panel's search asks only the banks whose check digit fits.
 */
const DEMO_PAYER = SANDBOX_PEOPLE[0] as { bvn: string; signInPhone: string };
const DEMO_ACCOUNT = { bankName: 'Guaranty Trust Bank', accountNumber: '0000000001' };

let paystack: TPaystackSimulator | null = null;
let server: Awaited<ReturnType<typeof startBuiltServer>> | null = null;
let merchant = { clientId: '', secret: '' };

test.beforeAll(async () => {
  // A port of its own per viewport project (with SNAP=1 both run at once), clear of the other
  // built servers' (demo-consents: +30, +31, +36, +37; quickstart: +32 to +35; the dashboard's:
  // +40, +41, +44, +46, +48).
  const port = E2E.appPort + (test.info().project.name === 'mobile' ? 42 : 43);
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
  const consentId = await postConsent(page, { payments: [payment] });
  await page.goto(`${server?.origin ?? ''}/r/${consentId}?clientId=${merchant.clientId}`);
  await expect(page.getByText('₦2,500.00 due now')).toBeVisible();
}

/** Posts a consent of the merchant on the built server; its id. */
async function postConsent(page: Page, body: object) {
  const basic = Buffer.from(`${merchant.clientId}:${merchant.secret}`).toString('base64');
  const answer = await page.request.post(`${server?.origin ?? ''}/api/v1/consents`, {
    headers: { authorization: `Basic ${basic}` },
    data: body,
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return ((await answer.json()) as { consentId: string }).consentId;
}

/**
 * The sandbox's demo payer, signed in on the built server as a person signs in on a new device
 * (a code to her phone, then a passkey, which the demo seed vouches for), on a consent of monthly
 * future payments at her repayment accounts: where the account-linking panel opens. Her BVN is
 * the one the seed verified for her (src/server/services/demo/demo-seed.ts), and her GTBank
 * account of the sandbox is linked already.
 */
async function demoPayerAtRepaymentAccounts(page: Page) {
  const origin = server?.origin ?? '';
  const authenticator = await addVirtualAuthenticator(page);
  await page.goto(`${origin}/login`);
  await page.getByRole('button', { name: 'Use a code sent by SMS instead' }).click();
  await page.getByLabel('Phone number').fill(DEMO_PAYER.signInPhone);
  await page.getByRole('button', { name: 'Send code' }).click();
  // The code is read once the page says it was sent.
  await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
  await page
    .getByLabel('6-digit code')
    .fill(await latestCode(page.request, DEMO_PAYER.signInPhone, origin));
  await page.getByRole('button', { name: 'Verify code' }).click();
  await page.getByRole('button', { name: 'Create passkey' }).click();
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
  expect(await credentialCount(authenticator)).toBe(1);
  const consentId = await postConsent(page, {
    payments: [
      {
        type: 'future',
        amount: 1_500_000,
        amountType: 'fixed',
        narration: 'Gym dues',
        frequency: 'monthly',
        interval: 1,
        dueDate: new Date(Date.UTC(2027, 1, 1, 9)).toISOString(),
      },
    ],
    requirements: { requiresAuth: true },
  });
  await page.goto(`${origin}/r/${consentId}?clientId=${merchant.clientId}`);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(
    page.getByRole('heading', { name: "Select what accounts you'd like to use for repayment:" }),
  ).toBeVisible();
}

/**
 * Types a card into the card form (the page encrypts it) and sends it; where Paystack asks for
 * the card's PIN ('Enter Card PIN'), types it and pays.
 */
async function payByCard(page: Page, card: { number: string; pin?: string }) {
  await page.getByLabel('Card Number').fill(card.number);
  await page.getByLabel('Expiry date').fill('12/30');
  await page.getByLabel('CVV').fill('408');
  await page.getByRole('button', { name: 'Continue to PIN' }).click();
  if (card.pin === undefined) return;
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
    // Paystack answered the card with its challenge: no PIN was asked of the payer.
    await expect(page.getByLabel('Card PIN')).toHaveCount(0);
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

  test("a bank account under the payer's BVN linked by Paystack's direct debit: approved by keyboard at the bank's page, then linked in the list", async ({
    page,
    context,
  }, testInfo) => {
    // Resolve Account names no BVN: the account search finds the account 'to_check', and Paystack
    // checks its holder against the payer's BVN once the link starts.
    await demoPayerAtRepaymentAccounts(page);
    // Her BVN is verified, so none is asked; the registry's other accounts under it are none
    // that Paystack's banks resolve, so the panel opens at the number to type.
    await page.getByRole('button', { name: '+ Link different account' }).click();
    await expect(
      panel(page).getByRole('heading', { name: 'Add Another Account', exact: true }),
    ).toBeVisible();
    await panel(page).getByLabel('Account number').fill(DEMO_ACCOUNT.accountNumber);
    await expect(panel(page).getByRole('heading', { name: 'Select an account:' })).toBeVisible();
    // Hers by the BVN Paystack checks once the link starts: hers to choose.
    const found = panel(page).getByRole('radio', { name: new RegExp(DEMO_ACCOUNT.bankName) });
    await expect(found).toBeEnabled();
    await found.click();

    // The mandate is approved at the bank's page, Paystack's own, in a new tab.
    const success = panel(page).getByRole('status');
    await expect(success.getByRole('heading', { name: BANK_MANDATE_TEXT.title })).toBeVisible();
    for (const line of BANK_MANDATE_TEXT.nextSteps) {
      await expect(success.getByText(line, { exact: true })).toBeVisible();
    }
    const bankPage = success.getByRole('link', { name: BANK_MANDATE_TEXT.open });
    await expect(bankPage).toHaveAttribute('target', '_blank');
    expect(new URL((await bankPage.getAttribute('href')) ?? '').origin).toBe(paystack?.url);
    await snap(page, testInfo, 'paystack-bank-mandate');
    await expectNoViolations(page);

    const [bank] = await Promise.all([context.waitForEvent('page'), bankPage.click()]);
    await expect(bank.getByRole('heading', { name: 'Approve direct debit' })).toBeVisible();
    await bank.keyboard.press('Tab');
    await expect(bank.getByRole('button', { name: 'Approve' })).toBeFocused();
    await bank.keyboard.press('Enter');
    // Paystack sends the payer back to their own page, with the mandate's reference.
    await bank.waitForURL((url) => url.origin === server?.origin && url.pathname === '/consents');
    expect(new URL(bank.url()).searchParams.get('reference')).toBeTruthy();
    await paystack?.idle();
    // Paystack checked the holder against her BVN, then told us the bank activated the mandate.
    const identification = paystack?.requests.find((r) =>
      /^\/customer\/[^/]+\/identification$/.test(r.path),
    );
    expect(identification?.body).toMatchObject({
      bvn: DEMO_PAYER.bvn,
      bank_code: '058',
      account_number: DEMO_ACCOUNT.accountNumber,
    });
    expect(paystack?.notices.map((n) => `${n.event} ${n.status}`)).toEqual(
      expect.arrayContaining([
        'customeridentification.success 200',
        'direct_debit.authorization.active 200',
      ]),
    );

    // Done: the accounts are read again, and the account is linked, to be chosen.
    await success.getByRole('button', { name: BANK_MANDATE_TEXT.done }).click();
    const row = page.getByRole('checkbox', {
      name: new RegExp(`\\*\\*\\*\\*${DEMO_ACCOUNT.accountNumber.slice(-4)}`),
    });
    await expect(row).toBeEnabled();
    await expect(page.getByText('Not authorized yet')).toHaveCount(0);
  });
});
