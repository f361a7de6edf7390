import { expect, test } from '@playwright/test';
import { expectNoViolations } from './axe';
import { GRANTED_CONSENT_BODY, GRANTED_CONSENT_KEY } from './fixtures';
import { consentPath, createConsent, embedHostUrl, snap } from './merchant';

// axe-core on every screen, at 390 px, and at 1280 px too where the layout changes
// (@both-widths): WCAG 2.x A and AA rules and axe's best practices. A screen joins this list when
// it is built.

const everything = {
  payments: [
    { type: 'immediate', amount: 500_000, narration: 'Registration fee' },
    ...[1, 2, 3].map((month) => ({
      type: 'future',
      amount: 1_500_000,
      amountType: 'fixed',
      narration: 'Dues',
      frequency: 'monthly',
      interval: 1,
      dueDate: new Date(Date.UTC(2027, month, 1, 9)).toISOString(),
    })),
  ],
  dataSharing: { bvnData: true, ninData: true, userImages: true, bankAccounts: true },
  actOnBehalfOf: {
    role: { name: 'Director' },
    fullName: 'Amaka Obi',
    name: 'Obi Holdings',
    image: null,
    location: 'Lagos',
  },
};

test.describe('accessibility (axe)', () => {
  test('Missing Client ID', async ({ page }) => {
    await page.goto('/r/cns_anything');
    await expect(page.getByRole('heading', { name: 'Missing Client ID' })).toBeVisible();
    await expectNoViolations(page);
  });

  test('Consent Not Found', async ({ page }) => {
    await page.goto(consentPath('cns_unknown'));
    await expect(page.getByRole('heading', { name: 'Consent Not Found' })).toBeVisible();
    await expectNoViolations(page);
  });

  // At 1280 px beside its side panel (spec §2: two columns from 768 px).
  test('a pending consent asking for everything', { tag: '@both-widths' }, async ({ page }) => {
    await page.goto(consentPath(await createConsent(page.request, everything)));
    await expect(page.getByRole('heading', { name: 'They would like to:' })).toBeVisible();
    if (page.viewportSize()?.width === 1280) {
      await expect(page.getByRole('complementary', { name: 'Consent summary' })).toBeVisible();
    }
    await expectNoViolations(page);
  });

  test('Loading consent...', async ({ page }) => {
    // Measured at 17-19 s alone with the consent read held, and past 30 s once in a full run on
    // the 2-core machine; why it is this slow is not known yet.
    test.slow();
    const consentId = await createConsent(page.request, everything);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // Holds the real answer back while the loading screen is checked; nothing is faked.
    await page.route('**/api/consent/**', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(consentPath(consentId));
    await expect(page.getByRole('status')).toHaveText('Loading consent...');
    await expectNoViolations(page);
    release();
  });

  test("a pending consent inside the merchant's iframe", async ({ page }) => {
    const consentId = await createConsent(page.request, everything);
    await page.goto(embedHostUrl(consentPath(consentId, 'embed=true')));
    const frame = page.frameLocator('#consent');
    await expect(frame.getByText('Collect ₦5,000.00 immediately')).toBeVisible();
    await expectNoViolations(page);
  });

  test('Consent Granted', async ({ page }) => {
    const consentId = await createConsent(page.request, GRANTED_CONSENT_BODY, {
      idempotencyKey: GRANTED_CONSENT_KEY,
    });
    await page.goto(consentPath(consentId));
    await expect(
      page.getByText('You have successfully granted consent to Tola Stores'),
    ).toBeVisible();
    await expectNoViolations(page);
  });

  test('the auth prompt', async ({ page }) => {
    const consentId = await createConsent(page.request, {
      ...everything,
      requirements: { requiresAuth: true },
    });
    await page.goto(consentPath(consentId));
    await expect(page.getByText('uses Oya Money to authenticate users')).toBeVisible();
    await expectNoViolations(page);
  });

  test('the sign-in page and its create-account form', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
    await expectNoViolations(page);
    await page.getByRole('button', { name: 'Create an account' }).click();
    await expect(page.getByLabel('Phone number')).toBeVisible();
    await expectNoViolations(page);
  });

  test('the sandbox network page: cards, chip cards, accounts, banks and readers', async ({
    page,
  }, testInfo) => {
    await page.goto('/sandbox');
    await expect(page.getByRole('heading', { name: 'Sandbox network' })).toBeVisible();
    await expect(page.getByRole('table', { name: /Chip cards for the card reader/ })).toBeVisible();
    await expect(page.getByRole('table', { name: /Card readers/ })).toBeVisible();
    await snap(page, testInfo, 'sandbox-network');
    await expectNoViolations(page);
  });

  test('the sandbox SMS outbox', async ({ page }) => {
    await page.goto('/sandbox/messages');
    await expect(page.getByRole('heading', { name: 'Sandbox SMS messages' })).toBeVisible();
    await expectNoViolations(page);
  });
});
