import { expect, test } from '@playwright/test';
import { addVirtualAuthenticator, signUpThroughPanel, uniquePhone } from './auth-support';
import { createConsent, snap } from './merchant';

test('a grant payload signed by the passkey is verified by the server; a replayed or altered one is refused', async ({
  page,
}, testInfo) => {
  await addVirtualAuthenticator(page);
  const consentId = await createConsent(page.request, {
    payments: [
      { type: 'future', amount: 1_500_000, narration: 'Dues', frequency: 'monthly', interval: 1 },
    ],
    requirements: { requiresAuth: true },
  });
  const sandbox = `/sandbox/grant-signing?consentId=${consentId}`;
  await page.goto(`/login?returnTo=${encodeURIComponent(sandbox)}`);
  await signUpThroughPanel(page, page.request, { fullName: 'Obinna Eze', phone: uniquePhone() });
  await expect(page).toHaveURL(sandbox);
  await expect(page.getByRole('heading', { name: 'Signed grant sandbox' })).toBeVisible();

  // Hold the nonce back to see the overlay; the signature itself is real.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/auth/grant-challenges', async (route) => {
    await released;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Sign and verify' }).click();
  await expect(page.getByText('Getting your biometric approval...')).toBeVisible();
  release();
  await expect(page.getByRole('status')).toContainText('Signature verified. Digest ');
  await snap(page, testInfo, 'auth-signed-grant');

  await page.getByRole('button', { name: 'Send the same signature again' }).click();
  await expect(page.getByRole('alert')).toHaveText('This biometric approval was already used');

  await page.getByLabel('Alter the payload after signing').check();
  await page.getByRole('button', { name: 'Sign and verify' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'The biometric approval does not match this grant',
  );
});
