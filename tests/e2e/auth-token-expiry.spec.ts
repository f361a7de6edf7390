import { expect, test } from '@playwright/test';
import { signPayerToken } from '../../src/server/services/identity/auth-tokens';
import { deriveIdentityKeys } from '../../src/server/services/identity/identity-keys';
import { latestCode, storedSession, uniquePhone } from './auth-support';
import { E2E } from './e2e-env';
import { consentPath, createConsent, snap } from './merchant';

/** The same session, signed by the server's key, but with a lifetime that ended a minute ago. */
async function expiredTwinOf(token: string): Promise<string> {
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    sub: string;
    sid: string;
  };
  const now = Date.now();
  return signPayerToken(
    deriveIdentityKeys(E2E.tokenSecret),
    { sub: claims.sub, sid: claims.sid },
    {
      issuer: E2E.appOrigin,
      issuedAt: new Date(now - 16 * 60_000),
      expiresAt: new Date(now - 60_000),
    },
  );
}

test('an expired token clears the session, sends the payer to / and brings them back after sign-in', async ({
  page,
}, testInfo) => {
  const phone = uniquePhone();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Full name').fill('Musa Danjuma');
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  // The code is read once the page says it was sent: an earlier one may be the latest yet.
  await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
  await page.getByLabel('6-digit code').fill(await latestCode(page.request, phone));
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('button', { name: 'Not now' }).click();
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();

  const { token } = await storedSession(page);
  const expired = await expiredTwinOf(token ?? '');
  // The server itself says so: 401 with code TOKEN_EXPIRED.
  const me = await page.request.get('/api/auth/me', {
    headers: { authorization: `Bearer ${expired}` },
  });
  expect(me.status()).toBe(401);
  expect((await me.json()).error.code).toBe('TOKEN_EXPIRED');

  await page.evaluate((value) => {
    localStorage.setItem('paymonaToken', value);
    localStorage.setItem('oyaIdentifiedTo', 'mer_e2e');
  }, expired);
  const consentId = await createConsent(page.request, {
    dataSharing: { bvnData: true },
    requirements: { requiresAuth: true },
  });
  await page.goto(consentPath(consentId));

  await expect(page).toHaveURL(/\/\?returnTo=/);
  await expect(page.getByRole('status')).toHaveText('Token expired - redirecting to login');
  expect(await storedSession(page)).toEqual({ token: null, user: null, identifiedTo: null });
  await snap(page, testInfo, 'auth-token-expired');

  // Signing in again returns to the consent, now signed in.
  await page.getByRole('button', { name: 'Use a code sent by SMS instead' }).click();
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  // The code is read once the page says it was sent: an earlier one may be the latest yet.
  await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
  await page.getByLabel('6-digit code').fill(await latestCode(page.request, phone));
  await page.getByRole('button', { name: 'Verify code' }).click();
  await page.getByRole('button', { name: 'Not now' }).click();
  await expect(page).toHaveURL(new RegExp(`/r/${consentId}\\?clientId=${E2E.clientId}`));
  // Signed in: the consent flow (its one step, the data asked for).
  await expect(page.getByText('1 data point being shared')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Authenticate' })).toHaveCount(0);
});
