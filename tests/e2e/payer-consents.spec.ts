import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { expectNoViolations } from './axe';
import { addVirtualAuthenticator, signUpThroughPanel, uniquePhone } from './auth-support';
import { E2E } from './e2e-env';
import { chooseResult, findAccount, linked, ownAccount, sendTestTransfer } from './linking-support';
import { createConsent, snap } from './merchant';

// The payer's own consents (docs/payer-consents.md) in real Chromium against the real server: a
// payer signs up with a passkey, grants a consent with future payments from an account linked in
// the flow, finds it on /consents, revokes it with the passkey, and the merchant reads it revoked
// and has a consent.revoked delivery. The merchant is the suite's second client, so its webhook
// endpoint hears no other spec's consents.

const merchant = { clientId: E2E.otherClientId, secret: E2E.otherClientSecret };
const authorization = `Basic ${Buffer.from(`${merchant.clientId}:${merchant.secret}`).toString('base64')}`;

const dueDates = [2, 3, 4].map((month) => new Date(Date.UTC(2027, month, 1, 9)).toISOString());

const subscription = {
  payments: dueDates.map((dueDate) => ({
    type: 'future',
    amount: 450_000,
    amountType: 'fixed',
    narration: 'Meal box',
    frequency: 'monthly',
    interval: 1,
    dueDate,
  })),
  dataSharing: { bvnData: true },
  requirements: { requiresAuth: true },
};

async function look(page: Page, testInfo: TestInfo, name: string) {
  await snap(page, testInfo, `payer-consents-${name}`);
  await expectNoViolations(page);
}

const item = (page: Page) => page.getByRole('article', { name: 'Other Merchant' });

test.describe('the payer’s consents', () => {
  test('signed out: the page offers sign-in and comes back to the list', async ({
    page,
  }, testInfo) => {
    await addVirtualAuthenticator(page);
    await page.goto('/consents');
    await expect(page.getByRole('heading', { name: 'Your consents' })).toBeVisible();
    // Scanned in accessibility.spec.ts.
    await snap(page, testInfo, 'payer-consents-signed-out');
    await page.getByRole('link', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/login\?returnTo=%2Fconsents$/);
    await signUpThroughPanel(page, page.request, { fullName: 'Bisi Ade', phone: uniquePhone() });
    await expect(page).toHaveURL(/\/consents$/);
    await expect(page.getByText('You have not granted any consents yet.')).toBeVisible();
    await look(page, testInfo, 'empty');
  });

  test('a granted consent is listed, revoked with the passkey, and the merchant is told', async ({
    page,
  }, testInfo) => {
    const hook = await page.request.post('/api/v1/webhooks', {
      headers: { authorization },
      data: { url: `${E2E.hostOrigin}/hooks/${testInfo.project.name}` },
    });
    expect(hook.status()).toBe(201);

    // Sign up with a passkey, then grant a consent with future payments from a linked account.
    await addVirtualAuthenticator(page);
    await page.goto('/login');
    await signUpThroughPanel(page, page.request, {
      fullName: 'Kemi Adewale',
      phone: uniquePhone(),
    });
    await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
    // Their own account, under the BVN of a person minted for them and verified first.
    const target = await ownAccount(page, 'links_by_test_transfer');
    const consentId = await createConsent(page.request, subscription, merchant);
    await page.goto(`/r/${consentId}?clientId=${merchant.clientId}`);
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(page.getByText(/would like to collect 3 payments totalling/)).toBeVisible();
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await findAccount(page, target.accountNumber);
    await chooseResult(page, target);
    await sendTestTransfer(page, target);
    await linked(page);
    const last4 = target.accountNumber.slice(-4);
    await expect(page.getByRole('checkbox', { name: new RegExp(`\\*{4}${last4}`) })).toBeChecked();
    await page.getByRole('button', { name: 'Consent', exact: true }).click();
    await expect(
      page.getByText('You have successfully granted consent to Other Merchant'),
    ).toBeVisible();

    // The list: who, what was granted, from which account, and Revoke.
    await page.goto('/consents');
    const listed = item(page);
    await expect(listed).toBeVisible();
    await expect(listed.getByText('Active')).toBeVisible();
    await expect(listed).toContainText('3 payments totalling ₦13,500.00');
    await expect(listed).toContainText('₦4,500.00 on 1 Mar 2027');
    await expect(listed).toContainText(`****${last4}`);
    await expect(listed.getByRole('listitem').filter({ hasText: 'BVN data' })).toBeVisible();
    await look(page, testInfo, 'list');

    // Revoke: the dialog explains, Escape keeps the consent and gives focus back.
    const revoke = listed.getByRole('button', { name: 'Revoke consent to Other Merchant' });
    await revoke.click();
    const dialog = page.getByRole('dialog', { name: 'Revoke your consent to Other Merchant?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('The 3 future payments still due to Other Merchant');
    await expect(dialog).toContainText('Other Merchant will be told that you revoked it.');
    await expect(dialog.getByRole('button', { name: 'Keep consent' })).toBeFocused();
    await look(page, testInfo, 'dialog');
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Revoke consent' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(dialog.getByRole('button', { name: 'Keep consent' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(revoke).toBeFocused();

    await revoke.click();
    await dialog.getByRole('button', { name: 'Revoke consent' }).click();
    await expect(listed.getByRole('status')).toContainText(
      'Revoked. Future payments to Other Merchant have stopped',
    );
    await expect(dialog).toBeHidden();
    await expect(listed.getByText('Revoked', { exact: true })).toBeVisible();
    await expect(listed).toContainText('3 payments');
    await expect(revoke).toHaveCount(0);
    await look(page, testInfo, 'revoked');

    // The merchant reads it revoked, and its webhook has consent.revoked to deliver.
    const read = await page.request.get(`/api/v1/consents/${consentId}`, {
      headers: { authorization },
    });
    expect(await read.json()).toMatchObject({
      consent: {
        consentId,
        status: 'revoked',
        revokedAt: expect.any(String),
        payments: dueDates.map(() => expect.objectContaining({ status: 'cancelled' })),
      },
    });
    await expect
      .poll(async () => {
        const deliveries = await page.request.get('/api/v1/webhooks/deliveries?limit=200', {
          headers: { authorization },
        });
        const { deliveries: rows } = (await deliveries.json()) as {
          deliveries: Array<{ consentId: string; eventType: string }>;
        };
        return rows.filter((d) => d.consentId === consentId).map((d) => d.eventType);
      })
      .toContain('consent.revoked');

    // The consent page says it is over.
    await page.goto(`/r/${consentId}?clientId=${merchant.clientId}`);
    await expect(page.getByRole('heading', { name: 'Consent Revoked' })).toBeVisible();
    await expect(page.getByText(/was revoked by the payer/)).toBeVisible();
    await look(page, testInfo, 'consent-page');
  });
});
