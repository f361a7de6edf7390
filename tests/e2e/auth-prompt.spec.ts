import { expect, test, type Page } from '@playwright/test';
import {
  addVirtualAuthenticator,
  signUpThroughPanel,
  storedSession,
  uniquePhone,
} from './auth-support';
import { consentPath, createConsent, embedHostUrl, printFramesOnFailure, snap } from './merchant';

printFramesOnFailure();

/** Asks for an immediate payment, future payments and every data category, and requires auth. */
const requiresAuth = {
  payments: [
    { type: 'immediate', amount: 500_000, narration: 'Registration fee' },
    {
      type: 'future',
      amount: 1_500_000,
      amountType: 'fixed',
      narration: 'Dues',
      frequency: 'monthly',
      interval: 1,
    },
    {
      type: 'future',
      amount: 1_500_000,
      amountType: 'fixed',
      narration: 'Dues',
      frequency: 'monthly',
      interval: 1,
    },
  ],
  dataSharing: { bvnData: true, ninData: true, userImages: true, bankAccounts: true },
  requirements: { requiresAuth: true },
};

/** A payer with a passkey on this page's authenticator, signed out again. */
async function payerWithPasskey(page: Page) {
  await page.goto('/login');
  await signUpThroughPanel(page, page.request, { fullName: 'Funmi Balogun', phone: uniquePhone() });
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
}

test.describe('auth prompt (spec §2, §6)', () => {
  test('shows on a consent that requires auth and signs in with a passkey', async ({
    page,
  }, testInfo) => {
    await addVirtualAuthenticator(page);
    await payerWithPasskey(page);
    const consentId = await createConsent(page.request, requiresAuth);
    await page.goto(consentPath(consentId));

    await expect(page.getByText('uses Oya Money to authenticate users')).toBeVisible();
    await expect(page.getByText('Tola Stores').first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'They would like to:' })).toBeVisible();
    for (const item of [
      'Collect ₦5,000.00 immediately',
      'Schedule 2 future payments',
      'Access your BVN data',
      'Access your NIN data',
      'Access your user images',
      'Access your bank account information',
    ]) {
      await expect(page.getByRole('listitem').filter({ hasText: item })).toBeVisible();
    }
    await snap(page, testInfo, 'auth-prompt');

    // Hold the login answer back long enough to see the overlay; nothing is faked.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/login', async (route) => {
      await released;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Authenticate' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Authenticating...' })).toBeVisible();
    await expect(page.getByText('Please wait while we verify your identity')).toBeVisible();
    await snap(page, testInfo, 'auth-prompt-authenticating');
    release();

    await expect(page.getByRole('button', { name: 'Authenticate' })).toHaveCount(0);
    await expect(page.getByText('uses Oya Money to authenticate users')).toHaveCount(0);
    expect((await storedSession(page)).token).toBeTruthy();
    // The consent now names the authentication session the payer signed in through.
    const read = await page.request.get(`/api/consent/${consentId}?clientId=cli_e2e`);
    expect((await read.json()).consent.attestDiscoveryId).toMatch(/^dsc_/);
  });

  test('is not shown in public mode, nor on a consent that does not require auth', async ({
    page,
  }) => {
    const consentId = await createConsent(page.request, requiresAuth);
    await page.goto(consentPath(consentId, 'public=true'));
    await expect(
      page.getByText('Registration fee').or(page.getByText('They would like to:')).first(),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Authenticate' })).toHaveCount(0);

    // A payment without sign-in: the payer pays it straight away (spec §6).
    const open = await createConsent(page.request, { payments: [requiresAuth.payments[0]] });
    await page.goto(consentPath(open));
    await expect(page.getByRole('heading', { name: 'Immediate Payment' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Authenticate' })).toHaveCount(0);
  });

  test('says Authentication Required for a consent that asks only for a form', async ({ page }) => {
    const consentId = await createConsent(page.request, { formId: 'form_kyc' });
    await page.goto(consentPath(consentId));
    await expect(page.getByRole('heading', { name: 'Authentication Required' })).toBeVisible();
    await expect(page.getByText('This consent requires authentication to proceed')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Authenticate' })).toBeVisible();
  });

  test("signs in with a passkey inside the merchant's iframe", async ({ page }, testInfo) => {
    await addVirtualAuthenticator(page);
    await payerWithPasskey(page);
    const consentId = await createConsent(page.request, requiresAuth);
    await page.goto(embedHostUrl(consentPath(consentId, 'embed=true')));
    const frame = page.frameLocator('#consent');
    await expect(frame.getByText('uses Oya Money to authenticate users')).toBeVisible();
    await frame.getByRole('button', { name: 'Authenticate' }).click();
    await expect(frame.getByRole('button', { name: 'Authenticate' })).toHaveCount(0);
    // Signed in: the consent flow, its first step open.
    await expect(frame.getByRole('button', { name: /^Data Sharing Pending/ })).toBeVisible();
    await snap(page, testInfo, 'auth-prompt-iframe-signed-in');
  });

  test("signs up inside the merchant's iframe (code, then a passkey)", async ({ page }) => {
    await addVirtualAuthenticator(page);
    const consentId = await createConsent(page.request, requiresAuth);
    await page.goto(embedHostUrl(consentPath(consentId, 'embed=true')));
    const frame = page.frameLocator('#consent');
    await expect(frame.getByRole('button', { name: 'Authenticate' })).toBeVisible();
    await signUpThroughPanel(frame, page.request, { fullName: 'Sade Bello', phone: uniquePhone() });
    await expect(frame.getByRole('button', { name: 'Authenticate' })).toHaveCount(0);
    await expect(frame.getByRole('button', { name: /^Data Sharing Pending/ })).toBeVisible();
  });
});
