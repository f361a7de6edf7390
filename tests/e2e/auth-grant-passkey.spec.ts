import { expect, test } from '@playwright/test';
import { addVirtualAuthenticator, credentialCount, latestCode, uniquePhone } from './auth-support';
import { consentPath, createConsent, snap } from './merchant';

// issue 28 item 10: a payer who said "Not now" to the passkey is offered one at the grant, which
// the new passkey then signs (a first passkey signs at once), instead of a Try Again that fails.
test('a payer without a passkey creates one at the grant and the consent is granted', async ({
  page,
}, testInfo) => {
  const auth = await addVirtualAuthenticator(page);
  const consentId = await createConsent(page.request, {
    dataSharing: { bvnData: true },
    requirements: { requiresAuth: true },
  });
  await page.goto(consentPath(consentId));

  const phone = uniquePhone();
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Full name').fill('Kemi Adeyemi');
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByLabel('6-digit code').fill(await latestCode(page.request, phone));
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Create your passkey' })).toBeVisible();
  await page.getByRole('button', { name: 'Not now' }).click();

  // Data sharing alone: its Confirm, then the grant.
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await page.getByRole('button', { name: 'Consent', exact: true }).click();
  const modal = page.getByRole('dialog', { name: 'Consent Error' });
  await expect(modal.getByRole('alert')).toHaveText(
    'Add a passkey to your account to give your biometric approval',
  );
  await expect(
    modal.getByRole('heading', { name: 'Create a passkey on this device' }),
  ).toBeVisible();
  // No control that cannot succeed: another try without a passkey would fail the same.
  await expect(modal.getByRole('button', { name: 'Try Again' })).toHaveCount(0);
  await snap(page, testInfo, 'grant-create-passkey');

  await modal.getByRole('button', { name: 'Create passkey' }).click();
  await expect(page.getByText(/You have successfully granted consent to/)).toBeVisible();
  expect(await credentialCount(auth)).toBe(1);
  await snap(page, testInfo, 'grant-create-passkey-granted');
});
