import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { ZSandboxPersonResponse } from '../../src/domain/schemas/sandbox';
import {
  addVirtualAuthenticator,
  signUpThroughPanel,
  storedSession,
  uniquePhone,
} from './auth-support';
import { SHARED_BUILT_SERVER as server } from './built-server';
import { lookAtScreen, ownerOfNewMerchant } from './dashboard-support';
import { personAccount, verifyBvnByCalls } from './sandbox-people';

// The dashboard's Consents and mandates (docs/dashboard.md "Consents"): a new merchant's owner
// (client:create's invitation, an SMS code, this device's passkey) opens Consents from the nav,
// finds a consent by its reference and by status, and opens it: its status, schedule, mandates
// and grant record. A payer grants another merchant's subscription from a linked account; its
// owner cancels the future payments with a reason and a confirm step (by keyboard), and the payer
// gets the SMS and sees them cancelled on /consents. Each screen passes axe and is shot at 390 px and 1280 px into
// /tmp/dashboard-consents-shots.

const SHOTS = '/tmp/dashboard-consents-shots';
test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
});

const look = (page: Page, name: string) => lookAtScreen(page, SHOTS, name);
const ownerOf = (page: Page, merchant: string) =>
  ownerOfNewMerchant(
    page,
    { origin: server.origin, dataDir: server.dataDir },
    {
      merchant,
      owner: 'Kemi Adebayo',
    },
  );

test('the owner finds a consent by reference and status and reads its schedule and record', async ({
  page,
}) => {
  const origin = server.origin;
  const { authorization } = await ownerOf(page, 'Kemi Fabrics');

  // Two consents: a subscription asked of a payer (not yet answered), and another order.
  const ask = async (reference: string, payments: object[]) => {
    const answer = await page.request.post(`${origin}/api/v1/consents`, {
      headers: { authorization },
      data: { reference, payments, requirements: { requiresAuth: true } },
    });
    expect(answer.status(), await answer.text()).toBe(201);
    return ((await answer.json()) as { consentId: string }).consentId;
  };
  const due = (month: number) => new Date(Date.UTC(2027, month, 1, 9)).toISOString();
  const subscription = await ask('KF-SUB-7', [
    { type: 'future', amount: 450_000, narration: 'Fabric box, March', dueDate: due(2) },
    { type: 'future', amount: 450_000, narration: 'Fabric box, April', dueDate: due(3) },
  ]);
  await ask('KF-1043', [{ type: 'immediate', amount: 250_000, narration: 'Ankara, 6 yards' }]);

  // Consents, from the nav, by keyboard.
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  await nav.getByRole('link', { name: 'Consents' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Consents and mandates' })).toBeVisible();
  await expect(page.getByRole('link', { name: /KF-SUB-7/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /KF-1043/ })).toBeVisible();
  await look(page, 'consents');

  await page.getByLabel('Reference').fill('KF-SUB-7');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('link', { name: /KF-1043/ })).toHaveCount(0);
  const row = page.getByRole('link', { name: /KF-SUB-7/ });
  await expect(row).toContainText('2 future · ₦9,000.00');
  await page.getByLabel('Reference').fill('');
  await page.getByLabel('Status').selectOption('granted');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('No consents match.')).toBeVisible();
  await page.getByLabel('Status').selectOption('pending');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('link', { name: /KF-SUB-7/ })).toBeVisible();

  await page.getByRole('link', { name: /KF-SUB-7/ }).click();
  await expect(page.getByRole('heading', { name: /KF-SUB-7 · pending/ })).toBeVisible();
  await expect(page.getByText(subscription, { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Future payments' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Mandates' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Grant record' })).toBeVisible();
  // Not granted: nothing is owed yet, there is no record, and nothing to cancel.
  await expect(page.getByText('No future payments are owed.')).toBeVisible();
  await expect(page.getByText(/No grant record/)).toBeVisible();
  await expect(page.getByText('Requested by the merchant')).toBeVisible();
  await expect(page.getByRole('button', { name: /Cancel future payments/ })).toHaveCount(0);
  await look(page, 'consent');
});

/**
 * A payer on this server signed up with a passkey, their BVN verified (a person minted for them)
 * and an account of theirs linked by a test transfer, through the calls the page makes.
 */
async function payerWithAccount(payer: Page, phone: string) {
  const origin = server.origin;
  await addVirtualAuthenticator(payer);
  await payer.goto('/login');
  await signUpThroughPanel(payer, payer.request, { fullName: 'Ada Obi', phone, origin });
  await expect(payer.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
  const minted = await payer.request.post('/api/sandbox/people', { data: { fullName: 'Ada Obi' } });
  const person = ZSandboxPersonResponse.parse(await minted.json()).person;
  const headers = { authorization: `Bearer ${(await storedSession(payer)).token ?? ''}` };
  await verifyBvnByCalls(payer.request, person, { ...headers, origin });
  const target = personAccount(person, 'links_by_test_transfer');
  const link = await payer.request.post('/api/account-links/create', {
    headers,
    data: { ...target, bankName: 'Any Bank' },
  });
  expect(link.status(), await link.text()).toBe(200);
  const { payInDetails } = (await link.json()).accountLink;
  const transfer = await payer.request.post('/api/sandbox/transfers', {
    data: {
      accountNumber: payInDetails.accountNumber,
      amount: payInDetails.amount,
      from: { institutionCode: target.institutionCode, accountNumber: target.accountNumber },
    },
  });
  expect(await transfer.json()).toMatchObject({ outcome: 'credited' });
  return target;
}

test('the owner cancels a granted consent’s future payments with a reason; the payer is told', async ({
  page,
  browser,
}) => {
  const origin = server.origin;
  const merchant = await ownerOf(page, 'Ada Fabrics');
  const payerContext = await browser.newContext({
    baseURL: origin,
    viewport: { width: 390, height: 844 },
  });
  const payer = await payerContext.newPage();
  const payerPhone = uniquePhone();
  const target = await payerWithAccount(payer, payerPhone);

  const due = (month: number) => new Date(Date.UTC(2027, month, 1, 9)).toISOString();
  const asked = await payer.request.post('/api/v1/consents', {
    headers: { authorization: merchant.authorization },
    data: {
      reference: 'AF-SUB-1',
      payments: [2, 3].map((month) => ({
        type: 'future',
        amount: 450_000,
        amountType: 'fixed',
        narration: 'Fabric box',
        frequency: 'monthly',
        interval: 1,
        dueDate: due(month),
      })),
      requirements: { requiresAuth: true },
    },
  });
  expect(asked.status(), await asked.text()).toBe(201);
  const { consentId } = (await asked.json()) as { consentId: string };
  await payer.goto(`/r/${consentId}?clientId=${merchant.clientId}`);
  await payer.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(
    payer.getByRole('heading', { name: "Select what accounts you'd like to use for repayment:" }),
  ).toBeVisible();
  const last4 = target.accountNumber.slice(-4);
  await payer.getByRole('checkbox', { name: new RegExp(`\\*{4}${last4}`) }).check();
  await payer.getByRole('button', { name: 'Consent', exact: true }).click();
  await expect(
    payer.getByText('You have successfully granted consent to Ada Fabrics'),
  ).toBeVisible();

  // The owner opens it: two payments owed, the mandate, the record; then cancels them.
  await page
    .getByRole('navigation', { name: 'Dashboard' })
    .getByRole('link', { name: 'Consents' })
    .click();
  await page.getByRole('link', { name: /AF-SUB-1/ }).click();
  await expect(page.getByRole('heading', { name: /AF-SUB-1 · granted/ })).toBeVisible();
  const schedule = page.getByRole('region', { name: 'Future payments' });
  await expect(schedule.getByRole('listitem')).toHaveCount(2);
  await expect(schedule).toContainText('₦4,500.00 · 1 Mar 2027');
  await expect(page.getByRole('region', { name: 'Grant record' }).locator('pre')).toContainText(
    'Ada Fabrics',
  );
  await expect(page.getByRole('region', { name: 'Mandates' })).toContainText(`****${last4}`);
  const form = page.getByRole('form', { name: 'Cancel future payments' });
  await expect(form).toContainText('Cancels the 2 future payments still owed.');
  await look(page, 'granted');
  await form.getByLabel('Reason (the payer reads it)').fill('The shop is closing');
  await form.getByRole('button', { name: 'Cancel future payments…' }).click();
  const confirm = form.getByRole('button', { name: 'Yes, cancel them' });
  await expect(confirm).toBeFocused();
  await expect(form).toContainText('Cancel 2 future payments? This cannot be undone.');
  await look(page, 'cancel-confirm');
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('status').filter({ hasText: '2 future payments cancelled' }),
  ).toHaveText('2 future payments cancelled: The shop is closing');
  await expect(page.getByText('No future payments are owed.')).toBeVisible();
  await expect(form).toHaveCount(0);
  await look(page, 'cancelled');

  // The payer's SMS, and /consents.
  await expect
    .poll(async () => {
      const answer = await payer.request.get(
        `/api/sandbox/messages?phone=${encodeURIComponent(payerPhone)}`,
      );
      const { messages } = (await answer.json()) as { messages: Array<{ body: string }> };
      return messages.filter((m) => m.body.includes('Reason: The shop is closing')).length;
    })
    .toBe(1);
  await payer.goto('/consents');
  const item = payer.getByRole('article', { name: 'Ada Fabrics' });
  await expect(item).toContainText('Cancelled by the merchant');
  await expect(item).toContainText('2 payments');
  await payerContext.close();
});
