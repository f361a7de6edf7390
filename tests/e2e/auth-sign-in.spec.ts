import { expect, test } from '@playwright/test';
import {
  addVirtualAuthenticator,
  credentialCount,
  latestCode,
  signUpThroughPanel,
  storedSession,
  uniquePhone,
} from './auth-support';
import { expectNoViolations } from './axe';
import { snap } from './merchant';

test.describe('payer sign-up and sign-in', () => {
  test('signs up with an SMS code and a passkey, signs out, and signs in with the passkey', async ({
    page,
  }, testInfo) => {
    const authenticator = await addVirtualAuthenticator(page);
    const phone = uniquePhone();
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Sign in to Oya Money' })).toBeVisible();
    await snap(page, testInfo, 'auth-login');

    await signUpThroughPanel(page, page.request, { fullName: 'Adaeze Okonkwo', phone });
    await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
    await expect(page.getByText('Adaeze Okonkwo')).toBeVisible();
    expect(await credentialCount(authenticator)).toBe(1);
    const afterSignUp = await storedSession(page);
    expect(afterSignUp.token).toBeTruthy();
    expect(JSON.parse(afterSignUp.user ?? '{}')).toMatchObject({
      fullName: 'Adaeze Okonkwo',
      phoneNumber: `+234${phone.slice(1)}`,
    });
    await snap(page, testInfo, 'auth-signed-in');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
    expect((await storedSession(page)).token).toBeNull();
    // The signed-out token no longer works on the server either.
    const me = await page.request.get('/api/auth/me', {
      headers: { authorization: `Bearer ${afterSignUp.token}` },
    });
    expect(me.status()).toBe(401);

    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
    await expect(page.getByText('Adaeze Okonkwo')).toBeVisible();
    const afterSignIn = await storedSession(page);
    expect(afterSignIn.token).toBeTruthy();
    expect(afterSignIn.token).not.toBe(afterSignUp.token);
  });

  test('a device with no passkey signs in with a code and may add a passkey', async ({
    browser,
  }) => {
    const phone = uniquePhone();
    // First device: sign up with a passkey.
    const first = await browser.newPage();
    await addVirtualAuthenticator(first);
    await first.goto('/login');
    await signUpThroughPanel(first, first.request, { fullName: 'Emeka Obi', phone });
    await expect(first.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
    await first.close();

    // Second device: its authenticator holds no passkey for us, so the code path is the way in.
    const page = await browser.newPage();
    const authenticator = await addVirtualAuthenticator(page);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('alert')).toContainText('Authentication failed. Please try again.');
    await page.getByRole('button', { name: 'Use a code sent by SMS instead' }).click();
    await page.getByLabel('Phone number').fill(phone);
    await page.getByRole('button', { name: 'Send code' }).click();
    // The code is read once the page says it was sent: an earlier one may be the latest yet.
    await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
    await page.getByLabel('6-digit code').fill(await latestCode(page.request, phone));
    await page.getByRole('button', { name: 'Verify code' }).click();
    await expect(
      page.getByRole('heading', { name: 'Create a passkey on this device' }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Create passkey' }).click();
    // The first device's passkey could approve it; it is not here, so the new one waits 24 h
    // before it may approve payments (payer-devices.spec.ts follows that story further).
    await expect(page.getByRole('heading', { name: 'Approve your new passkey' })).toBeVisible();
    await page.getByRole('button', { name: 'Continue without approval' }).click();
    await expect(page.getByRole('heading', { name: 'Passkey created' })).toBeVisible();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
    expect(await credentialCount(authenticator)).toBe(1);
    await page.close();
  });

  test('a wrong code says how many tries are left', async ({ page }) => {
    const phone = uniquePhone();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByLabel('Full name').fill('Kemi Ade');
    await page.getByLabel('Phone number').fill(phone);
    await page.getByRole('button', { name: 'Send code' }).click();
    // The code is read once the page says it was sent: an earlier one may be the latest yet.
    await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
    const code = await latestCode(page.request, phone);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await page.getByLabel('6-digit code').fill(wrong);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('alert')).toHaveText('That code is not correct. 4 tries left.');
    await expect(page.getByLabel('6-digit code')).toBeFocused();
  });

  test('a code the SMS provider refuses is said at once, and the number can be sent again', async ({
    page,
  }, testInfo) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByLabel('Full name').fill('Kemi Ade');
    // The sandbox's SMS provider refuses this number (docs/sandbox.md).
    await page.getByLabel('Phone number').fill('0809 999 0000');
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'We could not send the code. Please check the number and try again.',
    );
    await expect(page.getByLabel('6-digit code')).toHaveCount(0);
    await expect(page.getByLabel('Phone number')).toHaveAttribute('aria-invalid', 'true');
    await expectNoViolations(page);
    await snap(page, testInfo, 'auth-code-not-sent');
    await page.getByLabel('Phone number').fill(uniquePhone());
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
  });
});

test.describe('the sign-in page whose code does not come', () => {
  test("says so in the page's frame, and 'Try Again' opens it once the server answers", async ({
    page,
  }, testInfo) => {
    let online = false;
    await page.route(/\/(assets\/login-page-[^/]*\.js|favicon\.svg)$/, (route) =>
      online ? route.fallback() : route.abort('internetdisconnected'),
    );
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Sign In', exact: true })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText('Something went wrong. Please try again.');
    await snap(page, testInfo, 'sign-in-code-failed');
    await expectNoViolations(page);

    online = true;
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('button', { name: 'Try Again' }).click(),
    ]);
    await expect(page.getByRole('heading', { name: /^Sign in/ })).toBeVisible();
  });
});
