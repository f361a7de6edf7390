import { expect, test, type Page } from '@playwright/test';
import { startBuiltServer } from './built-server';
import {
  addVirtualAuthenticator,
  signUpThroughPanel,
  storedSession,
  uniquePhone,
} from './auth-support';
import { E2E } from './e2e-env';
import { fillDemoForm } from './form-support';
import {
  SANDBOX_ACCOUNTS,
  SANDBOX_BANKS,
  SANDBOX_CARDS,
  SANDBOX_PEOPLE,
  type TAccountScenario,
} from '../../src/server/sandbox/fixtures';
import { account, chooseResult, findAccount, panel, verifyByAuthParams } from './linking-support';
import { snap } from './merchant';
import { readmeDemoLine, readmeStep } from './readme-support';
import { personAccount, verifyBvnByCalls, type TMintedPerson } from './sandbox-people';
import { ZSandboxPersonResponse } from '../../src/domain/schemas/sandbox';

/** The demo payer's own account of a scenario: only accounts under her BVN link (README step 5). */
function demoPayerAccount(scenario: TAccountScenario) {
  const bvn = SANDBOX_PEOPLE.find((p) => p.fullName === 'Adaeze Okafor')?.bvn;
  const found = SANDBOX_ACCOUNTS.find((a) => a.scenario === scenario && a.bvn === bvn);
  if (!found) throw new Error(`The demo payer has no ${scenario} account`);
  return found;
}

// The demo consents of the README: the built server (`npm start` runs dist/server/main.mjs) on a
// new data directory seeds the demo merchant and its five consents and prints one URL each. Every
// demo consent is granted here from the URL the server printed, by a payer who signs up on the
// spot, and the README's "Try it by hand" is followed word for word as the seeded demo payer, in
// real Chromium against that server and the sandbox network. Their screens are the consent
// flow's and the pay-now's, scanned by axe there and in accessibility.spec.ts.

const LABELS = {
  immediate: 'immediate payment only',
  recurring: 'recurring future payments',
  dataSharing: 'data sharing only',
  everything: 'everything, with a form and a representative',
  linkedAccount: 'a fee and future payments from a linked account',
} as const;

let server: Awaited<ReturnType<typeof startBuiltServer>> | null = null;
let origin = '';
const demoUrls = new Map<string, string>();

/** A built server on a new data directory, as `npm start` leaves it; `offset` from the app port. */
async function startDemoServer(offset: number) {
  server = await startBuiltServer(E2E.appPort + offset);
  origin = server.origin;
  demoUrls.clear();
  for (const match of server.printed.matchAll(/^Demo consent, (.+): (\S+)$/gm)) {
    demoUrls.set(match[1] ?? '', match[2] ?? '');
  }
}

async function stopDemoServer() {
  await server?.stop();
  server = null;
}

function demoUrl(label: string): string {
  const url = demoUrls.get(label);
  if (!url) throw new Error(`The server printed no demo consent '${label}'`);
  expect(new URL(url).origin).toBe(origin);
  expect(new URL(url).searchParams.get('clientId')).toBe('cli_demo');
  return url;
}

async function signUp(page: Page) {
  await addVirtualAuthenticator(page);
  await page.goto(`${origin}/login`);
  await signUpThroughPanel(page, page.request, {
    fullName: 'Ngozi Eze',
    phone: uniquePhone(),
    origin,
  });
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
}

const granted = (page: Page) =>
  expect(
    page.getByText('You have successfully granted consent to Lagos Fitness Club'),
  ).toBeVisible();

/**
 * The signed-up payer verifies a person's BVN, minted for them on the demo server, through the
 * calls the BVN form makes (the code read from that person's phone): one BVN belongs to one payer,
 * and only accounts under the payer's verified BVN link.
 */
async function verifyOwnBvn(page: Page): Promise<TMintedPerson> {
  const minted = await page.request.post(`${origin}/api/sandbox/people`, {
    data: { fullName: 'Ngozi Eze' },
  });
  expect(minted.status(), await minted.text()).toBe(200);
  const { person } = ZSandboxPersonResponse.parse(await minted.json());
  const { token } = await storedSession(page);
  await verifyBvnByCalls(page.request, person, { authorization: `Bearer ${token ?? ''}`, origin });
  return person;
}

/**
 * Links the payer's own account (under the BVN they verified) that links by its card's last 4
 * digits and an OTP, in the flow.
 */
async function linkRepaymentAccount(page: Page, person: TMintedPerson) {
  const target = {
    ...personAccount(person, 'links_by_auth_params'),
    authParams: account('links_by_auth_params').authParams,
  };
  await findAccount(page, target.accountNumber);
  await chooseResult(page, target);
  await verifyByAuthParams(page, target);
  const last4 = target.accountNumber.slice(-4);
  await expect(page.getByRole('checkbox', { name: new RegExp(`\\*{4}${last4}`) })).toBeChecked();
  return last4;
}

// One server per viewport for the file, its tests one after another in one worker: the README's
// steps grant 'everything', 'immediate payment only' and the linked account's fee, and the tests
// below the two demo consents those steps leave (the seed vouches for the first passkey made for
// the demo payer only, who appears in the steps alone).
test.describe.configure({ mode: 'default' });
test.beforeAll(() => startDemoServer(test.info().project.name === 'mobile' ? 30 : 31));
test.afterAll(stopDemoServer);

test.describe('the demo consents the README steps leave, granted from the URL `npm start` prints', () => {
  test('recurring future payments: a repayment account linked in the flow, then Consent', async ({
    page,
  }, testInfo) => {
    await signUp(page);
    const person = await verifyOwnBvn(page);
    await page.goto(demoUrl(LABELS.recurring));
    await expect(page.getByText(/would like to collect 6 payments totalling/)).toBeVisible();
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await linkRepaymentAccount(page, person);
    await snap(page, testInfo, 'demo-recurring-account');
    await page.getByRole('button', { name: 'Consent', exact: true }).click();
    await granted(page);
    await expect(page.getByRole('region', { name: 'Future Payments Authorized' })).toContainText(
      '6 payments',
    );
  });

  test('data sharing only: the data named, Confirm, then Consent', async ({ page }, testInfo) => {
    // A sign-up and the grant: past 30 s on a loaded 2-core machine.
    await signUp(page);
    await page.goto(demoUrl(LABELS.dataSharing));
    await expect(page.getByText(/4 data points being shared/)).toBeVisible();
    await snap(page, testInfo, 'demo-data-sharing');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await page.getByRole('button', { name: 'Consent', exact: true }).click();
    await granted(page);
    await expect(page.getByRole('region', { name: 'Data Shared' })).toContainText('NIN data');
  });
});

/** Opens the demo consent the README step names in bold, by the URL the server printed. */
async function openNamedDemo(page: Page, step: ReturnType<typeof readmeStep>, label: string) {
  step.bold(`Demo consent, ${readmeDemoLine(label)}`);
  await page.goto(demoUrl(label));
}

const accountRow = (page: Page, role: 'checkbox' | 'radio', bank: string, last4: string) =>
  page.getByRole(role, { name: new RegExp(`${bank}.*\\*{4}${last4}`) });

/**
 * '+ Link different account', then the account among those the payer's BVN holds, as README's
 * step says it: the panel lists them first, the number field waits behind '+ Add another account'.
 */
async function chooseListedAccount(
  page: Page,
  step: ReturnType<typeof readmeStep>,
  target: { accountNumber: string; institutionCode: string },
  bankName: string,
) {
  await page.getByRole('button', { name: step.bold('+ Link different account') }).click();
  step.plain('the accounts her BVN holds');
  await expect(
    panel(page).getByRole('heading', { name: 'Select an account to link' }),
  ).toBeVisible();
  expect(SANDBOX_BANKS.find((b) => b.institutionCode === target.institutionCode)?.name).toBe(
    step.plain(`her ${bankName} account`).slice(4, -8),
  );
  step.code(target.accountNumber);
  await panel(page)
    .getByRole('radio', {
      name: new RegExp(`${bankName}.*\\*{4}${target.accountNumber.slice(-4)}`),
    })
    .click();
}

test.describe('README "Try it by hand", word for word, as the demo payer', () => {
  test('steps 1 to 4 in one browser: sign in, everything, immediate payment only, a failed debit', async ({
    page,
  }, testInfo) => {
    test.setTimeout(360_000);
    await addVirtualAuthenticator(page);
    // The demo payer's GTBank account under her BVN, linked by the seed.
    const gtbank = demoPayerAccount('links_by_test_transfer').accountNumber.slice(-4);

    await test.step('1. Sign in', async () => {
      const step = readmeStep(1);
      await openNamedDemo(page, step, LABELS.everything);
      await page.getByRole('button', { name: step.bold('Use a code sent by SMS instead') }).click();
      const phone = step.plain('0803 000 0001');
      await page.getByLabel('Phone number').fill(phone);
      await page.getByRole('button', { name: step.bold('Send code') }).click();
      // The code, as a person reads it: on /sandbox/messages, in another tab.
      const messages = await page.context().newPage();
      await messages.goto(`${origin}${step.code('/sandbox/messages')}`);
      await messages.getByLabel('Phone number').fill(phone);
      // The text goes out from a background job: a person who finds none yet presses Show again.
      const show = messages.getByRole('button', { name: step.bold('Show') });
      const newest = messages.getByRole('listitem').first();
      await expect(async () => {
        await show.click();
        await expect(newest).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 30_000 });
      const sms = await newest.innerText();
      await messages.close();
      await page.getByLabel('6-digit code').fill(/code is (\d{6})/.exec(sms)?.[1] ?? '');
      await page.getByRole('button', { name: step.bold('Verify code') }).click();
      await expect(
        page.getByRole('heading', { name: step.bold('Create a passkey on this device') }),
      ).toBeVisible();
      await snap(page, testInfo, 'readme-1-passkey');
      await page.getByRole('button', { name: step.bold('Create passkey') }).click();
    });

    await test.step('2. Everything', async () => {
      const step = readmeStep(2);
      const confirm = page.getByRole('button', { name: step.bold('Confirm'), exact: true });
      await confirm.click();
      await fillDemoForm(page, 'Adaeze Okafor');
      await page.getByRole('button', { name: step.bold('Next Step') }).click();
      await confirm.click();
      // Both ways of the step: another account linked, and the GTBank account ticked too.
      const other = demoPayerAccount('links_by_auth_params');
      await chooseListedAccount(page, step, other, 'First Bank of Nigeria');
      step.bold('+ Add another account');
      const { cardLast4, otp } = other.authParams ?? { cardLast4: '', otp: '' };
      await panel(page)
        .getByPlaceholder('Last 4 digits')
        .fill(step.plain(`card digits ${cardLast4}`).slice(-4));
      await panel(page)
        .getByPlaceholder('Enter OTP')
        .fill(step.plain(`OTP ${otp}`).slice(-6));
      await panel(page)
        .getByRole('button', { name: step.bold('Verify Account') })
        .click();
      await expect(
        accountRow(page, 'checkbox', 'First Bank', other.accountNumber.slice(-4)),
      ).toBeChecked();
      await accountRow(page, 'checkbox', 'Guaranty Trust Bank', gtbank).check();
      await snap(page, testInfo, 'readme-2-accounts');
      await confirm.click();
      await accountRow(page, 'radio', 'Guaranty Trust Bank', gtbank).check();
      await snap(page, testInfo, 'readme-2-onetap');
      await page.getByRole('button', { name: step.bold(`OneTap ****${gtbank}`) }).click();
      step.plain('Consent Granted follows');
      await expect(page.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();
      await snap(page, testInfo, 'readme-2-granted');
    });

    await test.step('3. Immediate payment only', async () => {
      const step = readmeStep(3);
      step.bold('Immediate payment only');
      await page.goto(demoUrl(LABELS.immediate));
      const saved = page.getByRole('region', { name: step.bold('Pay from a saved account') });
      await saved.getByRole('radio', { name: /Guaranty Trust Bank/ }).check();
      await snap(page, testInfo, 'readme-3-onetap');
      await page.getByRole('button', { name: step.bold(`OneTap ****${gtbank}`) }).click();
      await granted(page);
      await expect(page.getByRole('region', { name: 'Payment Collected' })).toContainText(
        '₦25,000.00',
      );
    });

    await test.step('4. A failed debit', async () => {
      const step = readmeStep(4);
      await openNamedDemo(page, step, LABELS.linkedAccount);
      const confirm = page.getByRole('button', { name: step.bold('Confirm'), exact: true });
      await confirm.click();
      const poor = demoPayerAccount('insufficient_funds');
      await chooseListedAccount(page, step, poor, 'Zenith Bank');
      await expect(
        panel(page).getByRole('heading', { name: step.bold('Link Account with Card') }),
      ).toBeVisible();
      const card = SANDBOX_CARDS.find(
        (c) => c.account.accountNumber === poor.accountNumber && c.scenario === 'pin_only',
      );
      if (!card) throw new Error('No card goes through on the account that lacks funds');
      await panel(page)
        .getByLabel('Card Number')
        .fill(step.code(card.number.replace(/(\d{4})(?!$)/g, '$1 ')));
      await panel(page)
        .getByLabel('Expiry date')
        .fill(step.plain(`expiry ${card.expiry}`).slice(-5));
      await panel(page)
        .getByLabel('CVV')
        .fill(step.plain(`CVV ${card.cvv}`).slice(-3));
      await panel(page)
        .getByRole('button', { name: step.bold('Continue to PIN') })
        .click();
      await panel(page)
        .getByLabel('Card PIN')
        .fill(step.plain(`PIN ${card.pin}`).slice(-4));
      await panel(page)
        .getByRole('button', { name: step.bold('Complete Payment') })
        .click();
      const last4 = poor.accountNumber.slice(-4);
      await expect(accountRow(page, 'checkbox', 'Zenith Bank', last4)).toBeChecked();
      await snap(page, testInfo, 'readme-4-linked');
      await confirm.click();
      await accountRow(page, 'radio', 'Zenith Bank', last4).check();
      await page.getByRole('button', { name: step.bold(`OneTap ****${last4}`) }).click();
      await expect(
        page.getByText(step.quote('Some payments failed. Please try again.')),
      ).toBeVisible();
      await snap(page, testInfo, 'readme-4-failed');
      step.plain('nothing is granted');
      const consentId = new URL(page.url()).pathname.split('/').pop() ?? '';
      const read = await page.request.get(`${origin}/api/consent/${consentId}?clientId=cli_demo`);
      expect(await read.json()).toMatchObject({ consent: { status: 'pending' } });
    });
  });
});
