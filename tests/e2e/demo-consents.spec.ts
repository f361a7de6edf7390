import { expect, test, type Page } from '@playwright/test';
import { startBuiltServer } from './built-server';
import { addVirtualAuthenticator, signUpThroughPanel, uniquePhone } from './auth-support';
import { E2E } from './e2e-env';
import { fillDemoForm } from './form-support';
import { account, chooseResult, findAccount, verifyByAuthParams } from './linking-support';
import { snap } from './merchant';

// The README's "Try it by hand", as written: the built server (`npm start` runs
// dist/server/main.mjs) on a new data directory seeds the demo merchant and its four consents and
// prints one URL each. Every demo consent is granted here from the URL the server printed, by a
// payer who signs up on the spot, in real Chromium against that server and the sandbox network.
// Their screens are the consent flow's and the pay-now's, scanned by axe there and in
// accessibility.spec.ts.

const LABELS = {
  immediate: 'immediate payment only',
  recurring: 'recurring future payments',
  dataSharing: 'data sharing only',
  everything: 'everything, with a form and a representative',
} as const;

let server: Awaited<ReturnType<typeof startBuiltServer>> | null = null;
let origin = '';
const demoUrls = new Map<string, string>();

test.beforeAll(async () => {
  // A server of its own per viewport: each grants the four demo consents once.
  server = await startBuiltServer(E2E.appPort + (test.info().project.name === 'mobile' ? 30 : 31));
  origin = server.origin;
  for (const match of server.printed.matchAll(/^Demo consent, (.+): (\S+)$/gm)) {
    demoUrls.set(match[1] ?? '', match[2] ?? '');
  }
});

test.afterAll(async () => {
  await server?.stop();
});

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
  expect(page.getByText('You have successfully granted consent to Lagos Fitness Club')).toBeVisible(
    { timeout: 20_000 },
  );

/** Links the sandbox account that links by its card's last 4 digits and an OTP, in the flow. */
async function linkRepaymentAccount(page: Page) {
  const target = account('links_by_auth_params');
  await findAccount(page, target.accountNumber);
  await chooseResult(page, target);
  await verifyByAuthParams(page, target);
  const last4 = target.accountNumber.slice(-4);
  await expect(page.getByRole('checkbox', { name: new RegExp(`\\*{4}${last4}`) })).toBeChecked({
    timeout: 10_000,
  });
  return last4;
}

test.describe('the demo consents, each granted from the URL `npm start` prints', () => {
  test.describe.configure({ mode: 'serial' });

  test('immediate payment only: paid by transfer, then granted', async ({ page }, testInfo) => {
    test.slow();
    await signUp(page);
    await page.goto(demoUrl(LABELS.immediate));
    await expect(page.getByText('₦25,000.00 due now')).toBeVisible({ timeout: 15_000 });
    await expect(page.locator('.pay-to')).toContainText('Lagos Fitness Club');
    await page.getByRole('button', { name: /Pay by Transfer/ }).click();
    const row = page.locator('.detail-row', {
      has: page.getByText('Account number', { exact: true }),
    });
    const accountNumber = ((await row.locator('.detail-value').textContent()) ?? '').trim();
    await page.getByRole('button', { name: 'I have made the transfer' }).click();
    const sent = await page.request.post(`${origin}/api/sandbox/transfers`, {
      data: { accountNumber, amount: 2_500_000 },
    });
    expect(await sent.json()).toMatchObject({ outcome: 'credited' });
    await granted(page);
    await snap(page, testInfo, 'demo-immediate-granted');
  });

  test('recurring future payments: a repayment account linked in the flow, then Consent', async ({
    page,
  }, testInfo) => {
    test.slow();
    await signUp(page);
    await page.goto(demoUrl(LABELS.recurring));
    await expect(page.getByText(/would like to collect 6 payments totalling/)).toBeVisible({
      timeout: 15_000,
    });
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await linkRepaymentAccount(page);
    await snap(page, testInfo, 'demo-recurring-account');
    await page.getByRole('button', { name: 'Consent', exact: true }).click();
    await granted(page);
    await expect(page.getByRole('region', { name: 'Future Payments Authorized' })).toContainText(
      '6 payments',
    );
  });

  test('data sharing only: the data named, Confirm, then Consent', async ({ page }, testInfo) => {
    // A sign-up and the grant: past 30 s on a loaded 2-core machine.
    test.slow();
    await signUp(page);
    await page.goto(demoUrl(LABELS.dataSharing));
    await expect(page.getByText(/4 data points being shared/)).toBeVisible({ timeout: 15_000 });
    await snap(page, testInfo, 'demo-data-sharing');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await page.getByRole('button', { name: 'Consent', exact: true }).click();
    await granted(page);
    await expect(page.getByRole('region', { name: 'Data Shared' })).toContainText('NIN data');
  });

  test('everything: data sharing, the form, a repayment account linked, OneTap from it', async ({
    page,
  }, testInfo) => {
    test.setTimeout(150_000);
    await signUp(page);
    await page.goto(demoUrl(LABELS.everything));
    await expect(page.getByRole('main').getByText(/Membership Officer/)).toBeVisible({
      timeout: 15_000,
    });
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await fillDemoForm(page, 'Ngozi Eze');
    await page.getByRole('button', { name: 'Next Step' }).click();
    await page.getByRole('button', { name: 'Confirm', exact: true }).click({ timeout: 15_000 });
    const last4 = await linkRepaymentAccount(page);
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await page.getByRole('radio', { name: new RegExp(`\\*{4}${last4}`) }).check();
    const oneTap = page.getByRole('button', { name: `OneTap ****${last4}` });
    await snap(page, testInfo, 'demo-everything-onetap');
    await oneTap.click();
    await granted(page);
    await expect(page.getByRole('region', { name: 'Payment Collected' })).toContainText(
      '₦5,000.00',
    );
    await snap(page, testInfo, 'demo-everything-granted');
  });
});
