import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import { bvnCodeSentMessage, bvnMethodsIntro } from '../../src/domain/bvn-code-texts';
import { CAPABILITIES } from '../../src/domain/capabilities';
import { nipCodeOf } from '../../src/server/providers/mono/mono-bank-codes';
import {
  startMonoSimulator,
  type TMonoPerson,
  type TMonoSimulator,
} from '../../src/server/testing/mono-simulator/mono-simulator';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../src/server/testing/paystack-simulator/paystack-simulator';
import {
  startRemitaSimulator,
  type TRemitaSimulator,
} from '../../src/server/testing/remita-simulator/remita-simulator';
import {
  startTermiiSimulator,
  type TTermiiSimulator,
} from '../../src/server/testing/termii-simulator/termii-simulator';
import { addVirtualAuthenticator, credentialCount, uniquePhone } from './auth-support';
import { expectNoViolations } from './axe';
import { startBuiltServer } from './built-server';
import { npmRun, printed } from './dashboard-support';
import { E2E } from './e2e-env';
import { linked, panel } from './linking-support';
import { snap } from './merchant';

// Going live (docs/going-live.md): the built server with a live Paystack key and every other
// capability's provider named, each on its simulator started in this process (Paystack with
// Paystack Terminal, Mono for the BVN registry, Remita for mandates, Termii for SMS). It starts
// with every capability on, none of them the sandbox, and in the browser a new payer signs up by
// Termii's SMS code, proves a BVN by NIBSS's code (Mono's), links their own account by Remita's
// mandate and is refused a stranger's (Mono names each account's owner), pays by card, by
// transfer, from the saved account and at a Paystack Terminal, and grants a future payment that
// Remita collects on its date. No sandbox answers on such a server: every code is read where the
// simulators received it. Readiness and the refusals of a live key alone: live-providers.test.ts.

const LIVE_KEY = 'sk_live_e2egoinglive000000000000000000000';

/**
 * The payer's own account: a GTBank (058) NUBAN that Paystack resolves and that NIBSS holds under
 * the payer's BVN. GTBank is among the banks Remita mandates, so it links by Remita's mandate,
 * activated by the bank's OTP and the last 4 digits of the payer's card on it.
 */
const OWN_ACCOUNT = {
  bankName: 'Guaranty Trust Bank',
  institutionCode: '058',
  number: '0000000001',
};
const OWN_CARD_LAST4 = '4321';
/** A stranger's account: First Bank (011), resolved by Paystack, held at NIBSS under another BVN. */
const STRANGER_ACCOUNT = {
  bankName: 'First Bank of Nigeria',
  institutionCode: '011',
  number: '3000000001',
};
/** Paystack's test card asking its PIN, then an OTP (the simulator's README). */
const CARD = { number: '5078501111111111', pin: '1111', otp: '123456' };

type TSimulators = {
  paystack: TPaystackSimulator;
  mono: TMonoSimulator;
  remita: TRemitaSimulator;
  termii: TTermiiSimulator;
};
type TServer = Awaited<ReturnType<typeof startBuiltServer>>;
type TMerchant = { clientId: string; authorization: string };

let sims: TSimulators | null = null;
let server: TServer | null = null;

/** The server's environment: mirrors live-providers.test.ts for the built server. */
function liveEnv({ paystack, mono, remita, termii }: TSimulators): NodeJS.ProcessEnv {
  return {
    PAYMENT_PROVIDER: 'paystack',
    PAYSTACK_SECRET_KEY: LIVE_KEY,
    PAYSTACK_BASE_URL: paystack.url,
    TERMINAL_PROVIDER: 'paystack',
    BVN_REGISTRY: 'mono',
    MONO_SECRET_KEY: mono.secretKey,
    MONO_BASE_URL: mono.url,
    MANDATE_PROVIDER: 'remita',
    REMITA_MERCHANT_ID: remita.merchantId,
    REMITA_SERVICE_TYPE_ID: remita.serviceTypeId,
    REMITA_API_KEY: remita.apiKey,
    REMITA_API_TOKEN: remita.apiToken,
    REMITA_BASE_URL: remita.url,
    SMS_PROVIDER: 'termii',
    TERMII_API_KEY: termii.apiKey,
    TERMII_SENDER_ID: termii.senderId,
    TERMII_BASE_URL: termii.url,
    // The collections run every second rather than every minute, so that a future payment due
    // a minute after its grant is collected within seconds of its date, on the server's own clock.
    COLLECTION_INTERVAL_MS: '1000',
    // The payer's notice 36 s before the debit rather than a day: the collection due a minute
    // after its grant is then debited on its date, its notice gone first.
    DEBIT_NOTICE_HOURS: '0.01',
  };
}

test.beforeAll(async () => {
  // A port of its own per viewport project, clear of the other built servers' (paystack.spec.ts
  // lists them; paystack-terminal: +38, +39; dashboard-webhooks' receiver: +51): +52 and +53.
  const port = E2E.appPort + (test.info().project.name === 'mobile' ? 52 : 53);
  const [paystack, mono, remita, termii] = await Promise.all([
    startPaystackSimulator({
      secretKey: LIVE_KEY,
      noticeUrl: `http://127.0.0.1:${port}/api/providers/paystack/notices`,
    }),
    startMonoSimulator(),
    startRemitaSimulator(),
    startTermiiSimulator(),
  ]);
  sims = { paystack, mono, remita, termii };
  // Remita's bank holds the payer's account, ₦1,000,000.00 in it.
  remita.accounts.push({
    bankCode: OWN_ACCOUNT.institutionCode,
    accountNumber: OWN_ACCOUNT.number,
    balanceKobo: 100_000_000,
    activation: 'otp',
    cardLast4: OWN_CARD_LAST4,
  });
  server = await startBuiltServer(port, liveEnv(sims));
});

test.afterAll(async () => {
  await server?.stop();
  await Promise.all([sims?.paystack.close(), sims?.mono.close(), sims?.remita.close()]);
  await sims?.termii.close();
});

/** The code in the newest SMS Termii took for `phone` (national format, 0803…). */
async function termiiCode(termii: TTermiiSimulator, phone: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(() => {
      const sent = termii.messages.filter((m) => m.to.endsWith(phone.slice(1)));
      code = /code is (\d{6})/.exec(sent.at(-1)?.sms ?? '')?.[1];
      return code;
    })
    .toBeTruthy();
  return code ?? '';
}

/** axe on the screen as it stands, and its shot (with SNAP=1). */
async function look(page: Page, testInfo: TestInfo, name: string) {
  await expectNoViolations(page);
  await snap(page, testInfo, `live-${name}`);
}

/** Every capability on, each served by a real provider's adapter, as readiness lists them. */
async function everyCapabilityOn(page: Page, origin: string) {
  const ready = await page.request.get(`${origin}/api/health/ready`);
  const { capabilities } = (await ready.json()) as {
    capabilities: { capability: string; state: string; adapter: string | null }[];
  };
  expect(capabilities.map((line) => line.capability)).toEqual([...CAPABILITIES]);
  expect(capabilities.filter((line) => line.state !== 'on')).toEqual([]);
  expect(capabilities.filter((line) => line.adapter === 'sandbox')).toEqual([]);
  expect(Object.fromEntries(capabilities.map((l) => [l.capability, l.adapter]))).toMatchObject({
    bvn: 'mono',
    mandates: 'remita',
    acquirer: 'paystack-terminal',
    sms: 'termii',
    cards: 'paystack',
  });
  // No sandbox route answers beside a live key.
  const outbox = await page.request.get(`${origin}/api/sandbox/messages?phone=08030000000`);
  expect(outbox.status()).toBe(404);
}

/**
 * A merchant made by `client:create` while the server runs, whose owner joins in a browser of
 * their own (Termii's code to their phone, a passkey) and registers the shop's Paystack Terminal.
 */
async function merchantWithTerminal(
  browser: Browser,
  testInfo: TestInfo,
  terminal: { terminalId: string; name: string },
): Promise<TMerchant> {
  if (!server || !sims) throw new Error('no server');
  const phone = uniquePhone();
  const created = await npmRun(
    server.dataDir,
    'client:create',
    ...['--name', 'Tola Stores', '--origin', server.origin, '--owner-phone', phone],
  );
  expect(created.code, created.out).toBe(0);
  const clientId = printed(created.out, 'clientId');
  const secret = printed(created.out, 'secret');
  // A browser of their own, at the payer's width.
  const context = await browser.newContext({ viewport: testInfo.project.use.viewport ?? null });
  const owner = await context.newPage();
  await addVirtualAuthenticator(owner);
  await owner.goto(printed(created.out, 'ownerInvitation'));
  await owner.getByLabel('Phone number').fill(phone);
  await owner.getByRole('button', { name: 'Send code' }).click();
  await expect(owner.getByText(/We sent a 6-digit code to/)).toBeVisible();
  await owner.getByLabel('6-digit code').fill(await termiiCode(sims.termii, phone));
  await owner.getByLabel('Your full name').fill('Tola Adebayo');
  await owner.getByRole('button', { name: 'Join and make a passkey' }).click();
  await expect(owner.getByRole('heading', { name: 'Payments' })).toBeVisible();
  await owner.getByRole('link', { name: 'Terminals' }).click();
  await owner.getByLabel('Paystack terminal id').fill(terminal.terminalId);
  await owner.getByLabel('Name payers see').fill(terminal.name);
  await owner.getByRole('button', { name: 'Register terminal' }).click();
  await expect(owner.getByText(`${terminal.name} registered.`)).toBeVisible();
  await look(owner, testInfo, 'dashboard-terminal');
  await context.close();
  return {
    clientId,
    authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
  };
}

/** Posts a consent of the merchant and opens it on the page. */
async function openConsent(page: Page, merchant: TMerchant, body: object) {
  const origin = server?.origin ?? '';
  const answer = await page.request.post(`${origin}/api/v1/consents`, {
    headers: { authorization: merchant.authorization },
    data: body,
  });
  expect(answer.status(), await answer.text()).toBe(201);
  const { consentId } = (await answer.json()) as { consentId: string };
  await page.goto(`${origin}/r/${consentId}?clientId=${merchant.clientId}`);
  return consentId;
}

/** A new payer signs up at /login: name and number, Termii's code, a passkey of this device. */
async function payerSignsUp(page: Page, testInfo: TestInfo, phone: string) {
  if (!server || !sims) throw new Error('no server');
  const authenticator = await addVirtualAuthenticator(page);
  await page.goto(`${server.origin}/login`);
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Full name').fill('Ngozi Obi');
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(/We sent a 6-digit code to 0803/)).toBeVisible();
  await look(page, testInfo, 'sign-up-code');
  await page.getByLabel('6-digit code').fill(await termiiCode(sims.termii, phone));
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Create your passkey' })).toBeVisible();
  await page.getByRole('button', { name: 'Create passkey' }).click();
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
  expect(await credentialCount(authenticator)).toBe(1);
  // Termii carried the code, from the sender id the server was given.
  expect(sims.termii.messages.at(-1)).toMatchObject({ from: sims.termii.senderId });
}

/** Mono's person: a BVN of NIBSS's with one account under it. */
function nibssPerson(name: string, account: { institutionCode: string; number: string }) {
  const bvn = `229${String(Date.now()).slice(-8)}`;
  const person: TMonoPerson = {
    bvn,
    firstName: name,
    middleName: null,
    lastName: 'Obi',
    dob: '1991-04-12',
    phone: uniquePhone(),
    email: null,
    accounts: [
      {
        nipCode: nipCodeOf(account.institutionCode) ?? '',
        bankCode: account.institutionCode,
        accountNumber: account.number,
        name: `${name.toUpperCase()} OBI`,
      },
    ],
  };
  sims?.mono.addPerson(person);
  return person;
}

/** The BVN step of the linking panel: NIBSS (through Mono) sends the code to the BVN's phone. */
async function verifyBvnAtNibss(page: Page, testInfo: TestInfo, person: TMonoPerson) {
  const heading = panel(page).getByRole('heading', { name: 'Verify your BVN' });
  await expect(heading).toBeVisible();
  await look(page, testInfo, 'bvn');
  await panel(page).getByLabel('BVN', { exact: true }).fill(person.bvn);
  await panel(page).getByRole('button', { name: 'Continue' }).click();
  const ways = panel(page).getByRole('group', { name: 'Where should the code go?' });
  await expect(ways).toContainText(bvnMethodsIntro('nibss'));
  // Mono's own hint, as it comes: only the BVN's phone (no e-mail on record; a typed number
  // would prove the number, not the holder).
  const hint = `Sms with a verification code will be sent to phone ${person.phone.slice(0, 4)}***${person.phone.slice(-4)}`;
  await expect(ways.getByRole('radio')).toHaveCount(1);
  await expect(ways.getByRole('radio', { name: hint })).toBeChecked();
  await look(page, testInfo, 'bvn-ways');
  await panel(page).getByRole('button', { name: 'Send code' }).click();
  await expect(panel(page).getByRole('status')).toHaveText(bvnCodeSentMessage('nibss', hint));
  await look(page, testInfo, 'bvn-code');
  const sent = sims?.mono.sentCodes.at(-1);
  expect(sent).toMatchObject({ bvn: person.bvn, method: 'phone', to: person.phone });
  await panel(page)
    .getByLabel('6-digit code')
    .fill(sent?.code ?? '');
  await panel(page).getByRole('button', { name: 'Verify' }).click();
}

/** Types an account's number in the panel and chooses it at its bank. */
async function chooseAccount(page: Page, account: { bankName: string; number: string }) {
  await panel(page).getByLabel('Account number').fill(account.number);
  await expect(panel(page).getByRole('heading', { name: 'Select an account:' })).toBeVisible();
  const found = panel(page).getByRole('radio', { name: new RegExp(account.bankName) });
  await expect(found).toBeEnabled();
  await found.click();
}

/**
 * From the repayment accounts of a consent with future payments: the BVN proven, a stranger's
 * account refused, the payer's own linked by Remita's mandate (the bank's OTP and the card's
 * last 4 digits), then chosen to repay.
 */
async function linkOwnAccount(page: Page, testInfo: TestInfo, own: TMonoPerson) {
  if (!sims) throw new Error('no simulators');
  const { mono, remita } = sims;
  await page.getByRole('button', { name: '+ Link repayment account' }).click();
  await verifyBvnAtNibss(page, testInfo, own);
  // Mono lists no account under a BVN (a second consent of NIBSS's): the number is typed.
  await expect(
    panel(page).getByRole('heading', { name: 'Add Account', exact: true }),
  ).toBeVisible();
  await look(page, testInfo, 'bvn-verified');

  // A stranger's account: Mono names its owner only once the payer asks to link it.
  nibssPerson('Sade', STRANGER_ACCOUNT);
  await chooseAccount(page, STRANGER_ACCOUNT);
  const refused = panel(page).getByRole('alert');
  await expect(refused.getByRole('heading', { name: 'Account Linking Failed' })).toBeVisible();
  await expect(refused).toContainText('This account is not registered to your BVN.');
  await look(page, testInfo, 'stranger-refused');
  expect(remita.requests.filter((r) => r.path === 'setup')).toHaveLength(0);
  const lookups = mono.requests.filter((r) => r.path === '/v3/lookup/account-number');
  expect(lookups.map((r) => r.body)).toEqual([
    expect.objectContaining({ account_number: STRANGER_ACCOUNT.number }),
  ]);

  // Back, and the number is typed again: the BVN is not asked again.
  await refused.getByRole('button', { name: 'Back' }).click();
  const addAccount = panel(page).getByRole('heading', { name: 'Add Account', exact: true });
  const opener = page.getByRole('button', { name: /^\+ Link (repayment|different) account$/ });
  await expect(addAccount.or(opener).first()).toBeVisible();
  if (!(await addAccount.isVisible())) await opener.click();
  await expect(addAccount).toBeVisible();
  await chooseAccount(page, OWN_ACCOUNT);
  await expect(
    panel(page).getByRole('heading', { name: 'Complete Account Verification' }),
  ).toBeVisible();
  await look(page, testInfo, 'remita-otp');
  await panel(page).getByPlaceholder('Last 4 digits').fill(OWN_CARD_LAST4);
  await panel(page).getByPlaceholder('Enter OTP').fill(remita.otp);
  await panel(page).getByRole('button', { name: 'Verify Account' }).click();
  await linked(page);
  await look(page, testInfo, 'linked');
  const mandate = remita.requests.find((r) => r.path === 'setup');
  expect(mandate?.body).toMatchObject({
    payerAccount: OWN_ACCOUNT.number,
    payerBankCode: OWN_ACCOUNT.institutionCode,
  });
}

const last4 = OWN_ACCOUNT.number.slice(-4);
const granted = (page: Page) =>
  expect(page.getByText(/You have successfully granted consent to/)).toBeVisible();

/**
 * A consent of monthly future payments and a payment due now: the payer links their account in
 * the flow, grants the future payments on its Remita mandate, and pays now from it (OneTap).
 */
async function grantsAndPaysFromSavedAccount(
  page: Page,
  testInfo: TestInfo,
  merchant: TMerchant,
  own: TMonoPerson,
) {
  if (!sims) throw new Error('no simulators');
  await openConsent(page, merchant, {
    payments: [
      { type: 'immediate', amount: 400_000, narration: 'Registration fee' },
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
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(
    page.getByRole('heading', { name: "Select what accounts you'd like to use for repayment:" }),
  ).toBeVisible();
  await look(page, testInfo, 'repayment-accounts');
  await linkOwnAccount(page, testInfo, own);
  await expect(page.getByRole('checkbox', { name: new RegExp(`\\*{4}${last4}`) })).toBeChecked();
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();

  await page.getByRole('radio', { name: new RegExp(`\\*{4}${last4}`) }).check();
  const oneTap = page.getByRole('button', { name: `OneTap ****${last4}` });
  await expect(oneTap).toBeVisible();
  await look(page, testInfo, 'onetap');
  const before = sims.remita.debitsTaken().length;
  await oneTap.click();
  await granted(page);
  await expect(page.getByText('Saved bank account', { exact: true })).toBeVisible();
  await look(page, testInfo, 'onetap-granted');
  // Debited through Remita, on its mandate: ₦4,000.00.
  expect(sims.remita.debitsTaken().slice(before)).toEqual([
    expect.objectContaining({ amountKobo: 400_000 }),
  ]);
}

/** Types Paystack's test card into the card form, then its PIN and the OTP Paystack asks. */
async function paysByCard(page: Page, testInfo: TestInfo, merchant: TMerchant) {
  await openConsent(page, merchant, {
    payments: [{ type: 'immediate', amount: 250_000, narration: 'Order #1042 groceries' }],
  });
  await expect(page.getByText('₦2,500.00 due now')).toBeVisible();
  await look(page, testInfo, 'pay-now');
  await page.getByRole('button', { name: /^Pay with Card Credit/ }).click();
  await page.getByLabel('Card Number').fill(CARD.number);
  await page.getByLabel('Expiry date').fill('12/30');
  await page.getByLabel('CVV').fill('408');
  await page.getByRole('button', { name: 'Continue to PIN' }).click();
  await page.getByLabel('Card PIN').fill(CARD.pin);
  await page.getByRole('button', { name: 'Complete Payment' }).click();
  await expect(page.getByRole('heading', { name: 'Verify Payment' })).toBeVisible();
  await look(page, testInfo, 'card-otp');
  for (const [index, digit] of [...CARD.otp].entries()) {
    await page.getByLabel(`Digit ${index + 1} of 6`).fill(digit);
  }
  await page.getByRole('button', { name: 'Verify OTP' }).click();
  await expect(page.getByText('✓ Payment Successful')).toBeVisible();
  await granted(page);
  await look(page, testInfo, 'card-granted');
}

/** The one-time account Paystack gives, the money sent into it, the page moving on by itself. */
async function paysByTransfer(page: Page, testInfo: TestInfo, merchant: TMerchant) {
  await openConsent(page, merchant, {
    payments: [{ type: 'immediate', amount: 320_000, narration: 'Order #1043 rice' }],
  });
  await page.getByRole('button', { name: /Pay by Transfer/ }).click();
  const row = page.locator('.copy-details .detail-row', {
    has: page.getByText('Account number', { exact: true }),
  });
  const accountNumber = ((await row.locator('.detail-value').textContent()) ?? '').trim();
  expect(accountNumber).toMatch(/^\d{10}$/);
  await look(page, testInfo, 'transfer');
  await page.getByRole('button', { name: 'I have made the transfer' }).click();
  await expect(page.getByText('Waiting for transfer confirmation...')).toBeVisible();
  await sims?.paystack.payTransfer(accountNumber, 320_000);
  await expect(page.getByText('✓ Payment Successful')).toBeVisible();
  await granted(page);
  await look(page, testInfo, 'transfer-granted');
}

/** The Chip Card Terminal: the shop's one registered till waits for the card, then approves. */
async function paysAtTerminal(
  page: Page,
  testInfo: TestInfo,
  merchant: TMerchant,
  till: { terminalId: string; name: string },
) {
  await openConsent(page, merchant, {
    payments: [{ type: 'immediate', amount: 150_000, narration: 'Order #1044 shoes' }],
  });
  await page.getByRole('button', { name: /Chip Card Terminal/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Chip Card Terminal' });
  // The shop's one terminal is taken at once: the payment waits there for the card.
  await expect(dialog.getByRole('status')).toHaveText(
    `Insert or tap your card on ${till.name} and enter your PIN there.`,
  );
  await look(page, testInfo, 'terminal-waiting');
  await sims?.paystack.cardAtTerminal(till.terminalId, 'approved');
  await expect(page.getByText('✓ Payment Successful')).toBeVisible();
  await granted(page);
  await look(page, testInfo, 'terminal-granted');
}

/** What Remita was sent for the future payment of ₦15,000.00. */
const collectionSends = (remita: TRemitaSimulator) =>
  remita.requests.filter(
    (r) =>
      r.path === 'payment/send' && (r.body as { totalAmount?: string }).totalAmount === '15000',
  );

/**
 * A future payment due a minute after it is opened, granted on the Remita-mandated account:
 * nothing is debited at the grant. Answers its date, which collectedOnItsDate waits for.
 */
async function grantsFuturePaymentDueInAMinute(
  page: Page,
  testInfo: TestInfo,
  merchant: TMerchant,
): Promise<number> {
  if (!sims) throw new Error('no simulators');
  const due = Date.now() + 60_000;
  await openConsent(page, merchant, {
    payments: [
      {
        type: 'future',
        amount: 1_500_000,
        amountType: 'fixed',
        narration: 'Gym membership',
        dueDate: new Date(due).toISOString(),
      },
    ],
    requirements: { requiresAuth: true },
  });
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await page.getByRole('checkbox', { name: new RegExp(`\\*{4}${last4}`) }).check();
  await look(page, testInfo, 'future-account');
  await page.getByRole('button', { name: 'Consent', exact: true }).click();
  await granted(page);
  // Granted before its date: nothing was sent to Remita for it.
  expect(Date.now()).toBeLessThan(due);
  expect(collectionSends(sims.remita)).toHaveLength(0);
  return due;
}

/**
 * On its date the server's collections send the future payment's debit to Remita once, and
 * Termii carries the payer's notice of it.
 */
async function collectedOnItsDate(due: number, phone: string) {
  if (!sims) throw new Error('no simulators');
  const { remita, termii } = sims;
  const sends = () => collectionSends(remita);
  await expect.poll(() => sends().length, { timeout: 150_000 }).toBe(1);
  expect(Date.now()).toBeGreaterThanOrEqual(due);
  expect(sends()[0]?.body).toMatchObject({
    fundingAccount: OWN_ACCOUNT.number,
    fundingBankCode: OWN_ACCOUNT.institutionCode,
  });
  await expect
    .poll(() =>
      termii.messages.some(
        (m) =>
          m.to.endsWith(phone.slice(1)) &&
          m.sms.includes('will debit ₦15,000.00 for Gym membership'),
      ),
    )
    .toBe(true);
}

test('a live-key server with every provider: a new payer verifies, links, pays four ways and is collected from on the date', async ({
  browser,
  page,
}, testInfo) => {
  // Twelve screens checked by axe, four providers and a collection waited for on its date.
  test.setTimeout(600_000);
  if (!server || !sims) throw new Error('no server');
  await everyCapabilityOn(page, server.origin);
  const suffix = testInfo.project.name === 'mobile' ? 'M' : 'D';
  const till = { terminalId: `E2ELIVE${suffix}`, name: 'Till 1' };
  sims.paystack.addTerminal(till.terminalId, { online: true });
  const merchant = await merchantWithTerminal(browser, testInfo, till);

  const phone = uniquePhone();
  await payerSignsUp(page, testInfo, phone);
  const own = nibssPerson('Ngozi', OWN_ACCOUNT);
  await grantsAndPaysFromSavedAccount(page, testInfo, merchant, own);
  // Its date comes while the payer pays the other three ways: the minute to it is not waited
  // out on its own.
  const due = await grantsFuturePaymentDueInAMinute(page, testInfo, merchant);
  await paysByCard(page, testInfo, merchant);
  await paysByTransfer(page, testInfo, merchant);
  await paysAtTerminal(page, testInfo, merchant, till);
  await collectedOnItsDate(due, phone);
});
