import { expect, test } from '@playwright/test';
import { expectNoViolations } from './axe';
import {
  addVirtualAuthenticator,
  credentialCount,
  latestCode,
  signUpThroughPanel,
  uniquePhone,
} from './auth-support';
import { linkByApi } from './linking-support';
import { passkeySkipCost } from '../../src/domain/passkey-offer';
import { consentPath, createConsent, snap } from './merchant';
import { payWithCard } from './pay-now-support';

// A payer who said "Not now" to the passkey is offered one at the grant, which the new passkey then
// signs (a first passkey signs at once), instead of a Try Again that fails.
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
  // The code is read once the page says it was sent: an earlier one may be the latest yet.
  await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
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

// The passkey rules (docs/identity.md "When a passkey is trusted"): a payer whose passkey is on
// another device adds one here at the grant. Nothing approved it, so it must wait before it signs
// money: the page says until when and offers what needs no signature meanwhile, a transfer or a
// card for the payment.
test('a payer whose passkey is elsewhere adds one at the grant; it must wait, and a transfer or card pays meanwhile', async ({
  browser,
  page,
}, testInfo) => {
  // Two devices, two sign-ins, a link and the grant: more than one payer's usual test.
  const phone = uniquePhone();
  // First device: signed up with a passkey (it signs at once), an account linked.
  const first = await browser.newPage();
  await addVirtualAuthenticator(first);
  await first.goto('/login');
  await signUpThroughPanel(first, first.request, { fullName: 'Emeka Obi', phone });
  await expect(first.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
  const saved = await linkByApi(first, 'links_by_test_transfer');
  await first.close();

  // This device: a code sign-in, and "Not now" to the passkey offer.
  const auth = await addVirtualAuthenticator(page);
  await page.goto('/login');
  await page.getByRole('button', { name: 'Use a code sent by SMS instead' }).click();
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  // The code is read once the page says it was sent: an earlier one may be the latest yet.
  await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
  await page.getByLabel('6-digit code').fill(await latestCode(page.request, phone));
  await page.getByRole('button', { name: 'Verify code' }).click();
  await page.getByRole('button', { name: 'Not now' }).click();
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();

  const consentId = await createConsent(page.request, {
    payments: [{ type: 'immediate', amount: 250_000, narration: 'Order #77' }],
  });
  await page.goto(consentPath(consentId));
  const last4 = saved.accountNumber.slice(-4);
  await page.getByRole('radio', { name: new RegExp(`\\*{4}${last4}`) }).check();
  await page.getByRole('button', { name: `OneTap ****${last4}` }).click();

  // The passkey the server asks for is not on this device: the offer to create one here.
  const modal = page.getByRole('dialog', { name: 'Consent Error' });
  await expect(modal.getByRole('alert')).toHaveText(
    'No passkey of yours on this device gave its approval.',
  );
  await expect(
    modal.getByRole('heading', { name: 'Create a passkey on this device' }),
  ).toBeVisible();
  await expectNoViolations(page);
  await snap(page, testInfo, 'grant-passkey-elsewhere-offer');

  await modal.getByRole('button', { name: 'Create passkey' }).click();
  await expect(modal.getByRole('heading', { name: 'Approve your new passkey' })).toBeVisible();
  await modal.getByRole('button', { name: 'Continue without approval' }).click();

  // The wait, on the screen that offers what can be done meanwhile: the debit needs a trusted
  // passkey, so no approval is asked for; it says until when.
  await expect(modal.getByRole('alert')).toHaveText(
    /^Added without approval, this passkey can approve payments and mandates from \d{1,2} \w{3} \d{4}/,
  );
  await expect(modal.getByRole('button', { name: 'Try Again' })).toHaveCount(0);
  await expect(
    modal.getByText(
      'Meanwhile, pay the immediate payment by transfer or card: that needs no passkey.',
    ),
  ).toBeVisible();
  expect(await credentialCount(auth)).toBe(1);
  await expectNoViolations(page);
  await snap(page, testInfo, 'grant-passkey-elsewhere-wait');

  await modal.getByRole('button', { name: 'Pay by Transfer or Card' }).click();
  await expect(modal).toBeHidden();
  await expect(page.getByRole('button', { name: `OneTap ****${last4}` })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Pay with Card/ })).toBeVisible();
  const read = await page.request.get(`/api/consent/${consentId}?clientId=cli_e2e`);
  expect((await read.json()).consent.status).toBe('pending');
});

// A new payer who says 'Not now' to the passkey, links an account, and then makes one at the
// grant finds it cannot approve until the next day: 'Not now' says so beforehand, and the
// screen that says until when offers what pays today, a transfer or a card, which grants the
// consent with no passkey.
test("'Not now' says what skipping the passkey costs; at the grant the wait and a card that pays today share a screen", async ({
  page,
}, testInfo) => {
  const auth = await addVirtualAuthenticator(page);
  await page.goto('/login');
  const phone = uniquePhone();
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Full name').fill('Adaeze Nnamdi');
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
  await page.getByLabel('6-digit code').fill(await latestCode(page.request, phone));
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Create your passkey' })).toBeVisible();

  // What skipping costs, said beside 'Not now' and read with it.
  const cost = passkeySkipCost({ newAccount: true, passkeyCount: 0 }) ?? '';
  await expect(page.getByText(cost)).toBeVisible();
  const notNow = page.getByRole('button', { name: 'Not now' });
  await expect(notNow).toHaveAccessibleDescription(cost);
  await expectNoViolations(page);
  await snap(page, testInfo, 'passkey-skip-cost');
  await notNow.click();
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();

  // An account linked: a passkey made from now on has no passkey of the payer's to approve it.
  const saved = await linkByApi(page, 'links_by_test_transfer');
  const consentId = await createConsent(page.request, {
    payments: [{ type: 'immediate', amount: 250_000, narration: 'Order #88 fabric' }],
  });
  await page.goto(consentPath(consentId));
  const last4 = saved.accountNumber.slice(-4);
  await page.getByRole('radio', { name: new RegExp(`\\*{4}${last4}`) }).check();
  await page.getByRole('button', { name: `OneTap ****${last4}` }).click();

  const modal = page.getByRole('dialog', { name: 'Consent Error' });
  await modal.getByRole('button', { name: 'Create passkey' }).click();
  // One screen: until when it must wait, and what needs no passkey today.
  await expect(modal.getByRole('alert')).toHaveText(
    /^Added without approval, this passkey can approve payments and mandates from \d{1,2} \w{3} \d{4}/,
  );
  await expect(
    modal.getByText(
      'Meanwhile, pay the immediate payment by transfer or card: that needs no passkey.',
    ),
  ).toBeVisible();
  const payInstead = modal.getByRole('button', { name: 'Pay by Transfer or Card' });
  await expect(payInstead).toBeFocused();
  await expect(modal.getByRole('button', { name: 'Try Again' })).toHaveCount(0);
  expect(await credentialCount(auth)).toBe(1);
  await expectNoViolations(page);
  await snap(page, testInfo, 'passkey-wait-pay-today');

  // Paid by card, the consent is granted today.
  await payInstead.click();
  await expect(modal).toBeHidden();
  await payWithCard(page, 'pin_only');
  await expect(page.getByText(/You have successfully granted consent to/)).toBeVisible();
  const read = await page.request.get(`/api/consent/${consentId}?clientId=cli_e2e`);
  expect((await read.json()).consent.status).toBe('granted');
});

// A consent that asks only for its payment is granted by the payment itself: a signed-in payer
// with no passkey at all pays it by card and is asked for none (docs/identity.md (3)).
test('a signed-in payer with no passkey pays a payment alone by card, and no passkey is asked for', async ({
  page,
}) => {
  const auth = await addVirtualAuthenticator(page);
  await page.goto('/login');
  const phone = uniquePhone();
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Full name').fill('Tope Alabi');
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
  await page.getByLabel('6-digit code').fill(await latestCode(page.request, phone));
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('button', { name: 'Not now' }).click();
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();

  const consentId = await createConsent(page.request, {
    payments: [{ type: 'immediate', amount: 120_000, narration: 'Order #91 beads' }],
  });
  await page.goto(consentPath(consentId));
  await payWithCard(page, 'pin_only');
  await expect(page.getByText(/You have successfully granted consent to/)).toBeVisible();
  expect(await credentialCount(auth)).toBe(0);
});
