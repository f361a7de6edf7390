import { expect, test, type Page } from '@playwright/test';
import { expectNoViolations } from './axe';
import {
  addVirtualAuthenticator,
  signInByCodeAlone,
  signUpThroughPanel,
  uniquePhone,
} from './auth-support';
import { linkByApi } from './linking-support';
import { consentPath, createConsent, snap, takenOver } from './merchant';

// Every state has an exit: the last dead ends of the page about who the payer is (their passkey,
// their session), each in real Chromium against the real server at 390 px, and 1280 px where
// tagged.

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
  await signInByCodeAlone(page, phone);

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

const withData = { dataSharing: { bvnData: true }, requirements: { requiresAuth: true } };
const paymentAlone = { payments: [{ type: 'immediate', amount: 250_000, narration: 'Order #43' }] };

// A signed-in payer's consent led nowhere near their own page, where they see and withdraw what
// they granted: 'Your consents' is in the header, or atop the screen where there is none.
test("a signed-in payer's consent links 'Your consents', in the header or atop a payment alone @both-widths", async ({
  page,
}, testInfo) => {
  // Signed out: no link.
  const consentId = await createConsent(page.request, withData);
  await page.goto(consentPath(consentId));
  await expect(page.getByRole('button', { name: 'Authenticate' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Your consents' })).toHaveCount(0);

  await signedUpPayer(page, 'Ngozi Eze');
  await page.goto(consentPath(consentId));
  const inHeader = page.getByRole('banner').getByRole('link', { name: 'Your consents' });
  await expect(inHeader).toBeVisible();
  await expect(inHeader).toHaveAttribute('href', '/consents');
  // Beside the consent, which keeps its place, as the withdraw line's link (consent-record.spec.ts).
  await expect(inHeader).toHaveAttribute('target', '_blank');
  // The header keeps one row: the link beside the merchant, nothing past the card.
  const header = await page.getByRole('banner').boundingBox();
  const link = await inHeader.boundingBox();
  expect(link && header && link.y + link.height <= header.y + header.height).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 0,
  );
  await expectNoViolations(page);
  await snap(page, testInfo, 'consents-link-header');

  // A payment alone has no header: the link atop its screen.
  const alone = await createConsent(page.request, paymentAlone);
  await page.goto(consentPath(alone));
  await expect(page.getByRole('heading', { name: 'Immediate Payment' })).toBeVisible();
  const atop = page.getByRole('main').getByRole('link', { name: 'Your consents' });
  await expect(atop).toBeVisible();
  await expect(atop).toHaveAttribute('target', '_blank');
  // In the page's own link colour, not the browser's default blue.
  expect(await atop.evaluate((link) => getComputedStyle(link).color)).not.toBe('rgb(0, 0, 238)');
  await expectNoViolations(page);
  await snap(page, testInfo, 'consents-link-payment-alone');

  // Embedded: in the merchant's byline, opening beside the merchant's page; the frame's page
  // keeps its width.
  await page.goto(consentPath(consentId, 'embed=true'));
  const inByline = page.locator('.merchant-byline').getByRole('link', { name: 'Your consents' });
  await expect(inByline).toBeVisible();
  await expect(inByline).toHaveAttribute('target', '_blank');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 0,
  );
  await expectNoViolations(page);
  await snap(page, testInfo, 'consents-link-embedded');

  // Standalone, it opens the payer's page beside the consent, which stays where it was.
  await page.goto(consentPath(consentId));
  const [opened] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('banner').getByRole('link', { name: 'Your consents' }).click(),
  ]);
  await expect(opened.getByRole('heading', { name: 'Your consents' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirm', exact: true })).toBeVisible();
  await opened.close();
});

// README sent a payer with a saved account to /login by hand: the payment alone now offers the
// sign-in where a signed-in payer chooses a saved account, and returns to this consent signed in.
test('a signed-out payer on a payment alone signs in where the saved accounts would be, and pays with OneTap', async ({
  page,
}, testInfo) => {
  // A payer with a saved account and a passkey on this device, signed out.
  await signedUpPayer(page, 'Chidi Nwosu');
  const saved = await linkByApi(page, 'links_by_test_transfer');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Create an account' })).toBeVisible();

  const consentId = await createConsent(page.request, paymentAlone);
  const path = consentPath(consentId);
  await page.goto(path);
  await takenOver(page);
  // Above the ways to pay, where a signed-in payer's saved accounts are.
  const offer = page.getByRole('region', { name: 'Pay from a saved account' });
  const signIn = offer.getByRole('button', { name: 'Sign In to Pay with OneTap' });
  await expect(signIn).toBeVisible();
  const methods = page.getByRole('group', { name: 'Payment methods' });
  const offerBox = await offer.boundingBox();
  const methodsBox = await methods.boundingBox();
  expect(offerBox && methodsBox && offerBox.y < methodsBox.y).toBe(true);
  await expectNoViolations(page);
  await snap(page, testInfo, 'saved-account-sign-in-offer');

  // By keyboard: the auth prompt, focused, and a way back to paying without it.
  await signIn.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: /^Sign in for / })).toBeFocused();
  const authenticate = page.getByRole('button', { name: 'Authenticate' });
  await page.keyboard.press('Tab');
  await expect(authenticate).toBeFocused();
  await expect(page.getByText(/Collect ₦2,500\.00 immediately/)).toBeVisible();
  const back = page.getByRole('button', { name: 'Continue without signing in' });
  await expect(back).toBeVisible();
  await expectNoViolations(page);
  await snap(page, testInfo, 'saved-account-sign-in-prompt');
  await back.click();
  await expect(signIn).toBeFocused();
  await expect(methods).toBeVisible();

  // Signed in with the passkey: the same consent, its saved account, OneTap.
  await signIn.click();
  await authenticate.click();
  const last4 = saved.accountNumber.slice(-4);
  const radio = page.getByRole('radio', { name: new RegExp(`\\*{4}${last4}`) });
  await expect(radio).toBeVisible();
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(path);
  await expect(offer.getByRole('button', { name: 'Sign In to Pay with OneTap' })).toHaveCount(0);
  await radio.check();
  await snap(page, testInfo, 'saved-account-signed-in');
  await page.getByRole('button', { name: `OneTap ****${last4}` }).click();
  await expect(page.getByText(/You have successfully granted consent to/)).toBeVisible();
  const read = await page.request.get(`/api/consent/${consentId}?clientId=cli_e2e`);
  expect((await read.json()).consent.status).toBe('granted');
});
