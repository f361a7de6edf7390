import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoViolations } from './axe';
import { SANDBOX_CARDS } from '../../src/server/sandbox/fixtures';
import { addVirtualAuthenticator, signUpThroughPanel, uniquePhone } from './auth-support';
import { openCardLinking, ownCard, panel } from './linking-support';
import { consentPath, createConsent, snap } from './merchant';

// The card form (spec §2 Card screens, §5) says what is wrong at the field, when the payer leaves
// it, before the PIN: in real Chromium against the real server, on the pay-now screen and in the
// account-linking panel (the same form).

const pinOnly = SANDBOX_CARDS.find((c) => c.scenario === 'pin_only');
if (!pinOnly) throw new Error('No PIN-only sandbox card');

/**
 * A day whose month is not January and is at most a month past (the 1st of this month, or of last
 * December in January), so the month before it is an expired card of its own year.
 */
function aDayAfterJanuary() {
  const now = new Date();
  const january = now.getUTCMonth() === 0;
  return new Date(
    Date.UTC(now.getUTCFullYear() - (january ? 1 : 0), january ? 11 : now.getUTCMonth(), 1, 0, 30),
  );
}

/**
 * Types a value into a field in place of what it held. In the field first: the card number shows
 * whole only there (masked after blur, spec §5), so the typing replaces the whole number.
 */
async function retype(field: Locator, value: string) {
  await field.focus();
  await field.fill(value);
}

/** Types a value into a field of the card form and leaves it (Tab), as a payer does. */
async function typeAndLeave(field: Locator, value: string) {
  await retype(field, value);
  await field.press('Tab');
}

/** The message under a field: the field is invalid and describes itself by it. */
async function expectFieldSays(field: Locator, message: string) {
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(message);
  await expect(field.page().getByRole('alert').filter({ hasText: message })).toBeVisible();
}

async function expectFieldRight(field: Locator) {
  await expect(field).not.toHaveAttribute('aria-invalid', 'true');
  await expect(field).not.toHaveAttribute('aria-describedby');
}

const fields = (scope: Page | Locator) => ({
  number: scope.getByLabel('Card Number'),
  expiry: scope.getByLabel('Expiry date'),
  cvv: scope.getByLabel('CVV'),
  pinStep: scope.getByRole('heading', { name: 'Enter Card PIN' }),
  continueToPin: scope.getByRole('button', { name: 'Continue to PIN' }),
});

test.describe('the card form says what is wrong at the field', () => {
  test('pay now: a 19-digit number, a bad month, a past year, an expired card and a short CVV, each on leaving the field; Continue to PIN goes to the first', async ({
    page,
  }, testInfo) => {
    const today = aDayAfterJanuary();
    const yy = String(today.getUTCFullYear()).slice(-2);
    const lastMonth = String(today.getUTCMonth()).padStart(2, '0');

    const consentId = await createConsent(page.request, {
      payments: [{ type: 'immediate', amount: 250_000, narration: 'Order #2210 shoes' }],
    });
    await page.goto(consentPath(consentId));
    await page.getByRole('button', { name: /Pay with Card/ }).click();
    const form = fields(page);
    // The form's calendar from here: the month before is an expired card of the same year.
    await page.clock.setFixedTime(today);

    // A card number of no known brand, 19 digits long: the form's 16–19, but cards are 16.
    await typeAndLeave(form.number, '6011 0000 0000 0000 004');
    await expectFieldSays(form.number, 'Card number must be 16 digits');
    // A brand's own length.
    await typeAndLeave(form.number, '4084 0800 0000 003');
    await expectFieldSays(form.number, 'Visa cards should have 16 digits');

    await typeAndLeave(form.expiry, '13/30');
    await expectFieldSays(form.expiry, 'Please select a valid month');
    // Said once, the message follows the typing.
    await retype(form.expiry, '12/20');
    await expectFieldSays(form.expiry, 'Please select a valid year');
    await typeAndLeave(form.expiry, `${lastMonth}/${yy}`);
    await expectFieldSays(form.expiry, 'Card has expired');

    await typeAndLeave(form.cvv, '12');
    await expectFieldSays(form.cvv, 'CVV must be 3 or 4 digits');
    await snap(page, testInfo, 'card-form-errors');
    await expectNoViolations(page);

    // Continue to PIN does not go on: focus moves to the first field that says why.
    await form.continueToPin.click();
    await expect(form.number).toBeFocused();
    await expect(form.pinStep).toHaveCount(0);

    // Put right, each field's message goes as it is typed.
    await retype(form.number, pinOnly.number);
    await expectFieldRight(form.number);
    await retype(form.expiry, pinOnly.expiry);
    await expectFieldRight(form.expiry);
    await form.continueToPin.click();
    await expect(form.cvv).toBeFocused();
    await expect(form.pinStep).toHaveCount(0);
    await form.cvv.fill(pinOnly.cvv);
    await expectFieldRight(form.cvv);
    await expect(page.getByRole('alert')).toHaveCount(0);

    await form.continueToPin.click();
    await expect(form.pinStep).toBeVisible();
  });

  test('pay now: Continue to PIN on an empty form says every field is needed', async ({
    page,
  }, testInfo) => {
    const consentId = await createConsent(page.request, {
      payments: [{ type: 'immediate', amount: 120_000, narration: 'Order #2211 socks' }],
    });
    await page.goto(consentPath(consentId));
    await page.getByRole('button', { name: /Pay with Card/ }).click();
    const form = fields(page);
    // Leaving an empty field says nothing yet.
    await form.number.focus();
    await form.number.press('Tab');
    await expectFieldRight(form.number);

    await form.continueToPin.click();
    await expect(form.number).toBeFocused();
    await expectFieldSays(form.number, 'Card number must be between 16 and 19 digits');
    await expectFieldSays(form.expiry, 'Please select a valid month');
    await expectFieldSays(form.cvv, 'CVV must be 3 or 4 digits');
    await expect(form.pinStep).toHaveCount(0);
    await snap(page, testInfo, 'card-form-empty-continue');
  });

  test('linking a card: the same messages at the field in the panel', async ({
    page,
  }, testInfo) => {
    await addVirtualAuthenticator(page);
    await page.goto('/login');
    await signUpThroughPanel(page, page.request, { fullName: 'Tunde Bello', phone: uniquePhone() });
    await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
    const consentId = await createConsent(page.request, {
      payments: [
        {
          type: 'future',
          amount: 900_000,
          amountType: 'fixed',
          narration: 'School fees',
          frequency: 'monthly',
          interval: 1,
          dueDate: new Date(Date.UTC(2027, 2, 1, 9)).toISOString(),
        },
      ],
      requirements: { requiresAuth: true },
    });
    await page.goto(consentPath(consentId));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await openCardLinking(page);
    // The payer's own card, issued on the account being linked.
    const own = await ownCard(page, 'pin_only');
    const form = fields(panel(page));

    // A Verve card of 19 digits: Verve cards are 16 (spec §5).
    await typeAndLeave(form.number, '5061 4604 1012 0223 210');
    await expectFieldSays(form.number, 'Verve cards should have 16 digits');
    await typeAndLeave(form.expiry, '00/30');
    await expectFieldSays(form.expiry, 'Please select a valid month');
    await form.cvv.fill(own.cvv);
    await form.continueToPin.click();
    await expect(form.number).toBeFocused();
    await expect(form.pinStep).toHaveCount(0);
    await snap(page, testInfo, 'card-form-linking-errors');
    await expectNoViolations(page);

    await retype(form.number, own.number);
    await retype(form.expiry, own.expiry);
    await form.continueToPin.click();
    await expect(form.pinStep).toBeVisible();
  });
});
