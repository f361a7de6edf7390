import { expect, test, type Page } from '@playwright/test';
import { expectNoViolations } from './axe';
import {
  addVirtualAuthenticator,
  latestCode,
  signUpThroughPanel,
  uniquePhone,
} from './auth-support';
import { linkByApi } from './linking-support';
import { consentPath, createConsent, snap } from './merchant';

// issue 43 part 2: the last dead ends of the page about who the payer is (their passkey, their
// session), each in real Chromium against the real server at 390 px, and 1280 px where tagged.

/** A payer signed up with a passkey on this page's device, signed in. */
async function signedUpPayer(page: Page, fullName: string, phone = uniquePhone()) {
  await addVirtualAuthenticator(page);
  await page.goto('/login');
  await signUpThroughPanel(page, page.request, { fullName, phone });
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
}

const futureOnly = {
  payments: [
    {
      type: 'future',
      amount: 1_500_000,
      amountType: 'fixed',
      narration: 'Gym dues',
      frequency: 'monthly',
      interval: 1,
      dueDate: new Date(Date.UTC(2027, 1, 1, 9)).toISOString(),
    },
  ],
};

// A mandate needs a trusted passkey, and no transfer or card can stand in for it: the modal that
// says until when had no control at all (only Escape or a reload left it).
test("a passkey that must wait before it signs a mandate: the modal's 'Close' leads back to the consent", async ({
  browser,
  page,
}, testInfo) => {
  // Two devices, two sign-ins, a link and the grant: more than one payer's usual test.
  const phone = uniquePhone();
  const first = await browser.newPage();
  await signedUpPayer(first, 'Tunde Bakare', phone);
  const saved = await linkByApi(first, 'links_by_test_transfer');
  await first.close();

  // This device: a code sign-in, "Not now" to the passkey offer.
  await addVirtualAuthenticator(page);
  await page.goto('/login');
  await page.getByRole('button', { name: 'Use a code sent by SMS instead' }).click();
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
  await page.getByLabel('6-digit code').fill(await latestCode(page.request, phone));
  await page.getByRole('button', { name: 'Verify code' }).click();
  await page.getByRole('button', { name: 'Not now' }).click();
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();

  const consentId = await createConsent(page.request, futureOnly);
  await page.goto(consentPath(consentId));
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  const last4 = saved.accountNumber.slice(-4);
  await page.getByRole('checkbox', { name: new RegExp(`\\*{4}${last4}`) }).check();
  const consentButton = page.getByRole('button', { name: 'Consent', exact: true });
  await consentButton.click();

  // No passkey here approved: one is created, without approval, so it must wait.
  const modal = page.getByRole('dialog', { name: 'Consent Error' });
  await modal.getByRole('button', { name: 'Create passkey' }).click();
  await modal.getByRole('button', { name: 'Continue without approval' }).click();
  await modal.getByRole('button', { name: 'Continue' }).click();
  await expect(modal.getByRole('alert')).toHaveText(
    /^Added without approval, this passkey can approve payments and mandates from \d{1,2} \w{3} \d{4}/,
  );
  // Nothing to pay without a signature, no 'Try Again' that fails the same: 'Close'.
  await expect(modal.getByRole('button', { name: 'Try Again' })).toHaveCount(0);
  await expect(modal.getByRole('button', { name: 'Pay by Transfer or Card' })).toHaveCount(0);
  const close = modal.getByRole('button', { name: 'Close', exact: true });
  await expect(close).toBeVisible();
  // The focus is in the modal, whose page behind it is inert.
  expect(await modal.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
  await expectNoViolations(page);
  await snap(page, testInfo, 'passkey-wait-close');

  // Reached by keyboard, like every control.
  await close.focus();
  await page.keyboard.press('Enter');
  await expect(modal).toBeHidden();
  // Back on the consent, its choice kept, the focus on the button that opened the modal.
  await expect(consentButton).toBeFocused();
  await expect(page.getByRole('checkbox', { name: new RegExp(`\\*{4}${last4}`) })).toBeChecked();
  await expectNoViolations(page);
  await snap(page, testInfo, 'passkey-wait-closed');
  const read = await page.request.get(`/api/consent/${consentId}?clientId=cli_e2e`);
  expect((await read.json()).consent.status).toBe('pending');
});
