import { expect, test } from '@playwright/test';
import { DEMO_FORM, DEMO_FORM_ID } from '../../src/server/services/demo/demo-form';
import { expectNoViolations } from './axe';
import { E2E } from './e2e-env';
import { consentPath, createConsent, createForm, shopUrl, snap } from './merchant';

// axe-core (axe.ts: WCAG 2.x A and AA rules and axe's best practices) once on every screen, here,
// at 390 px; at 1280 px too where the layout changes (@both-widths: the embed script's modal). A
// screen joins this list when it is built.
//
// A screen another test already opens is scanned there, once:
// - the consent page (consent-page.spec.ts): Missing Client ID, Loading consent..., Consent Not
//   Found, a pending consent asking for everything (both widths: the side panel at 1280 px), the
//   same inside the merchant's iframe, and Consent Granted;
// - the account-linking panel (account-linking.spec.ts): manual entry, search results, the
//   test-transfer payment step, 'Payment not yet confirmed', 'Account Linked Successfully!',
//   the alternate service's verification with its errors, a wrong number's alert, a
//   not-supported account, 'Account Linking Failed', 'Awaiting 3D Secure Authentication',
//   'Card Linking Error', the account list and its 'Delete Account' dialog (both widths);
// - after a payment (after-payment.spec.ts): the link-account sign-in prompt, the link-origin
//   prompt, 'Save Your Card' signed out, and its card link;
// - the Chip Card Terminal (chip-terminal.spec.ts): disconnected, connected, waiting for the
//   card, PIN entry, failed, 'Failed to load QPOS SDK', the Bluetooth reader choice and
//   'Bluetooth characteristics not properly set up';
// - the consent flow (consent-flow.spec.ts): the Data Sharing step, the future-payment schedule,
//   the repayment accounts, OneTap, the Consent Error modal, the Form step in the flow, and
//   'Save Your Card' signed in;
// - embedded (consent-embedded.spec.ts): a form-only consent's Consent or Decline, and
//   'Consent Declined';
// - the Form page (forms.spec.ts): a field's error, and every section complete;
// - pay now (pay-now.spec.ts, pay-now-card.spec.ts): the transfer details, the processing view,
//   the expired transfer account, the card form, its PIN, the OTP, 3-D Secure, 'Payment Failed',
//   the card form after 'No stored card details found for retry', and the methods naming the
//   card entered before;
// - the payer's consents (payer-consents.spec.ts): none yet, the list, the revoke dialog,
//   revoked, and 'Consent Revoked' on the consent page;
// - a passkey added after a code (payer-devices.spec.ts): 'Approve your new passkey', 'Passkey
//   created' with when it may approve payments, 'Your devices', its Remove dialog, and removed
//   (both widths);
// - the quickstart's demo shop (quickstart.spec.ts).

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

  test('Please sign in to grant consent', async ({ page }) => {
    const consentId = await createConsent(page.request, { dataSharing: { ninData: true } });
    await page.goto(consentPath(consentId));
    await expect(page.getByText('Please sign in to grant consent')).toBeVisible();
    await expectNoViolations(page);
  });

  test('Immediate Payment: the amount due and the ways to pay', async ({ page }) => {
    const consentId = await createConsent(page.request, {
      payments: [{ type: 'immediate', amount: 250_000, narration: 'Order #1042 groceries' }],
    });
    await page.goto(consentPath(consentId));
    await expect(page.getByText('₦2,500.00 due now')).toBeVisible();
    await expect(page.getByRole('button', { name: /Pay by Transfer/ })).toBeVisible();
    await expectNoViolations(page);
  });

  test("the full-screen card in the merchant's bg colour (fs=true)", async ({ page }) => {
    const consentId = await createConsent(page.request, { dataSharing: { ninData: true } });
    await page.goto(consentPath(consentId, 'fs=true&bg=FFF7E6'));
    await expect(page.getByText('Access your NIN data')).toBeVisible();
    await expectNoViolations(page);
  });

  test("the Form page, a consent's answers read-only, and a form by its formId", async ({
    page,
  }) => {
    const formId = await createForm(page.request, DEMO_FORM);
    const consentId = await createConsent(page.request, { formId });
    const formPath = `/f/${formId}?clientId=${E2E.clientId}&consentId=${consentId}`;
    await page.goto(formPath);
    await expect(page.getByText('Complete all form sections to continue.')).toBeVisible();
    await expectNoViolations(page);

    const saved = await page.request.put(`${E2E.appOrigin}/api/form/sections/about`, {
      data: { consentId, clientId: E2E.clientId, answers: { fullName: 'Ada Obi' } },
    });
    expect(saved.ok()).toBe(true);
    await page.goto(`${formPath}&public=true`);
    await expect(page.getByLabel('Full name')).toHaveValue('Ada Obi');
    await expectNoViolations(page);

    await page.goto(`/f/${DEMO_FORM_ID}?public=true`);
    await expect(page.getByText('Read-only: answers cannot be changed here.')).toBeVisible();
    await expectNoViolations(page);
  });

  test("the payer's consents, signed out", async ({ page }) => {
    await page.goto('/consents');
    await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expectNoViolations(page);
  });

  // The merchant's page with the embed script's modal open: full width at 390 px, 480 px wide
  // and centred at 1280 px.
  test(
    "the embed script's modal on a merchant's shop",
    { tag: '@both-widths' },
    async ({ page }) => {
      await page.goto(shopUrl(await createConsent(page.request, everything)));
      await page.getByRole('button', { name: 'Pay with Oya' }).click();
      await expect(
        page
          .frameLocator('iframe[title="Consent request"]')
          .getByText('Collect ₦5,000.00 immediately'),
      ).toBeVisible();
      await expectNoViolations(page);
    },
  );
});
