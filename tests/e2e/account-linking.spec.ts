import { expect, test, type Page } from '@playwright/test';
import {
  account,
  chooseResult,
  findAccount,
  linked,
  look,
  openCardLinking,
  ownAccount,
  ownCard,
  ownPerson,
  panel,
  payerOnFutureConsent,
  resultAt,
  sendTestTransfer,
} from './linking-support';
import { snap } from './merchant';

// The account-linking panel (spec §2, §4, §5) in real Chromium against the real server and the
// sandbox bank: a payer signs up, opens a consent with future payments and links an account by
// each route the sandbox's banks offer.

test.describe('the account-linking panel', () => {
  test('links by test transfer: pay-in details, not yet confirmed, the transfer, linked', async ({
    page,
  }, testInfo) => {
    await payerOnFutureConsent(page);
    const target = await ownAccount(page, 'links_by_test_transfer');
    await page.getByRole('button', { name: '+ Link repayment account' }).click();
    await panel(page).getByRole('button', { name: '+ Add another account' }).click();
    await look(page, testInfo, 'manual-entry');

    // Fewer than 10 digits: Enter says so; the 10th digit starts the search by itself.
    await panel(page).getByLabel('Account number').fill(target.accountNumber.slice(0, 9));
    await panel(page).getByLabel('Account number').press('Enter');
    await expect(
      panel(page).getByText('Please enter a valid account number (minimum 10 digits)'),
    ).toBeVisible();
    await panel(page).getByLabel('Account number').fill(target.accountNumber);
    await expect(panel(page).getByRole('heading', { name: 'Select an account:' })).toBeVisible();
    await expect(panel(page).getByText(target.accountName)).toBeVisible();
    await look(page, testInfo, 'search-results');
    await chooseResult(page, target);

    await expect(
      panel(page).getByRole('heading', { name: 'Complete Account Linking' }),
    ).toBeVisible();
    await expect(panel(page).getByText(`****${target.accountNumber.slice(-4)}`)).toBeVisible();
    await look(page, testInfo, 'payment');

    await panel(page).getByRole('button', { name: "I've made the transfer" }).click();
    await expect(panel(page).getByText('Payment Status')).toBeVisible();
    await expect(
      panel(page).getByText('Payment not yet confirmed. Please wait and try again.'),
    ).toBeVisible();
    await expect(
      panel(page).getByText(
        'Please try again after a few minutes, or contact support if the issue persists.',
      ),
    ).toBeVisible();
    await look(page, testInfo, 'payment-not-confirmed');

    // A transfer from someone else's account proves nothing: returned, the panel still waits.
    await sendTestTransfer(page, account('links_by_test_transfer', 1), 'returned_not_from_account');
    await expect(
      panel(page).getByText('Payment not yet confirmed. Please wait and try again.'),
    ).toBeVisible();
    await panel(page).getByRole('button', { name: "I've made the transfer" }).click();
    await expect(
      panel(page).getByText('Payment not yet confirmed. Please wait and try again.'),
    ).toBeVisible();
    await expect(
      panel(page).getByRole('heading', { name: 'Account Linked Successfully!' }),
    ).toHaveCount(0);

    // The account's own bank sends the test amount: the link's stream completes it on the page.
    await sendTestTransfer(page, target);
    await linked(page);
    await look(page, testInfo, 'success');

    // The panel closes and the account is the payer's repayment account.
    await expect(
      page.getByRole('checkbox', {
        name: new RegExp(`\\*\\*\\*\\*${target.accountNumber.slice(-4)}`),
      }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: '+ Link different account' })).toBeVisible();
  });

  test('links by the alternate service: required fields, a wrong answer, then the right one', async ({
    page,
  }, testInfo) => {
    await payerOnFutureConsent(page);
    const target = await ownAccount(page, 'links_by_auth_params');
    await findAccount(page, target.accountNumber);
    await chooseResult(page, target);
    await expect(
      panel(page).getByRole('heading', { name: 'Complete Account Verification' }),
    ).toBeVisible();
    await expect(panel(page).getByPlaceholder('Last 4 digits')).toHaveAttribute('maxlength', '4');
    await expect(panel(page).getByPlaceholder('Enter OTP')).toHaveAttribute('maxlength', '6');
    await panel(page).getByRole('button', { name: 'Verify Account' }).click();
    await expect(panel(page).getByText('Card last 4 digits is required')).toBeVisible();
    await expect(panel(page).getByText('OTP is required')).toBeVisible();
    await look(page, testInfo, 'verification');

    await panel(page).getByPlaceholder('Last 4 digits').fill('0000');
    await panel(page)
      .getByPlaceholder('Enter OTP')
      .fill(target.authParams?.otp ?? '');
    await panel(page).getByRole('button', { name: 'Verify Account' }).click();
    await expect(panel(page).getByRole('alert')).toBeVisible();
    await panel(page)
      .getByPlaceholder('Last 4 digits')
      .fill(target.authParams?.cardLast4 ?? '');
    await panel(page).getByRole('button', { name: 'Verify Account' }).click();
    await linked(page);
  });

  test('five wrong answers end the link: the error step says so, and Back starts again', async ({
    page,
  }, testInfo) => {
    await payerOnFutureConsent(page);
    const target = await ownAccount(page, 'links_by_auth_params');
    await findAccount(page, target.accountNumber);
    await chooseResult(page, target);
    await expect(
      panel(page).getByRole('heading', { name: 'Complete Account Verification' }),
    ).toBeVisible();
    await panel(page)
      .getByPlaceholder('Enter OTP')
      .fill(target.authParams?.otp ?? '');
    const verify = panel(page).getByRole('button', { name: 'Verify Account' });
    for (const left of ['4 tries', '3 tries', '2 tries', '1 try']) {
      await panel(page).getByPlaceholder('Last 4 digits').fill('0000');
      await verify.click();
      await expect(panel(page).getByRole('alert')).toHaveText(
        `Failed to verify account: the details do not match your bank. ${left} left.`,
      );
    }
    await verify.click();
    await expect(
      panel(page).getByRole('heading', { name: 'Account Linking Failed' }),
    ).toBeVisible();
    await expect(
      panel(page).getByText(
        'Too many wrong tries. This account link was cancelled; please start again.',
      ),
    ).toBeVisible();
    await expect(verify).toHaveCount(0);
    await look(page, testInfo, 'verification-locked');
    // The account was found by its number: Back returns to manual entry, to start again.
    await panel(page).getByRole('button', { name: 'Back' }).click();
    await expect(panel(page).getByLabel('Account number')).toBeVisible();
  });

  test('a wrong number: no bank holds it, and the page says so; a not-supported account cannot be chosen', async ({
    page,
  }, testInfo) => {
    await payerOnFutureConsent(page);
    await page.getByRole('button', { name: '+ Link repayment account' }).click();
    await panel(page).getByRole('button', { name: '+ Add another account' }).click();
    await panel(page).getByLabel('Account number').fill('0000000001');
    await expect(panel(page).getByRole('alert')).toHaveText(
      /Failed to validate account|No bank account was found with this number/,
    );
    await look(page, testInfo, 'wrong-number');

    // Another number, of an account no integration supports: shown, but not to be chosen.
    const target = await ownAccount(page, 'not_supported');
    await panel(page).getByLabel('Account number').fill(target.accountNumber);
    await expect(panel(page).getByRole('heading', { name: 'Select an account:' })).toBeVisible();
    await expect(resultAt(page, target)).toBeDisabled();
    await expect(panel(page).getByText('Not supported').first()).toBeVisible();
    await look(page, testInfo, 'not-supported');
  });

  test('the error step: a refused link says why, and Back returns to manual entry', async ({
    page,
  }, testInfo) => {
    await payerOnFutureConsent(page);
    const target = await ownAccount(page, 'links_by_test_transfer');
    await findAccount(page, target.accountNumber);
    // The account name the bank holds is not what the page sends: the server refuses the link.
    await page.route('**/api/account-links/create', async (route) => {
      const body = route.request().postDataJSON() as Record<string, unknown>;
      await route.continue({ postData: JSON.stringify({ ...body, accountName: 'Someone Else' }) });
    });
    await chooseResult(page, target);
    await expect(
      panel(page).getByRole('heading', { name: 'Account Linking Failed' }),
    ).toBeVisible();
    await expect(
      panel(page).getByText(
        "The account name does not match the bank's name for this account number",
      ),
    ).toBeVisible();
    await look(page, testInfo, 'error');
    await panel(page).getByRole('button', { name: 'Back' }).click();
    await expect(panel(page).getByLabel('Account number')).toBeVisible();
  });

  test('an account already linked is tagged linked when found again', async ({ page }) => {
    await payerOnFutureConsent(page);
    const target = await ownAccount(page, 'links_by_test_transfer');
    await findAccount(page, target.accountNumber);
    await chooseResult(page, target);
    await expect(
      panel(page).getByRole('heading', { name: 'Complete Account Linking' }),
    ).toBeVisible();
    await sendTestTransfer(page, target);
    await linked(page);
    await expect(page.getByRole('button', { name: '+ Link different account' })).toBeVisible();
    await page.getByRole('button', { name: '+ Link different account' }).click();
    // The other accounts under the payer's BVN are listed; the linked one is found by number.
    await panel(page).getByRole('button', { name: '+ Add another account' }).click();
    await expect(panel(page).getByRole('heading', { name: 'Add Another Account' })).toBeVisible();
    await panel(page).getByLabel('Account number').fill(target.accountNumber);
    await expect(panel(page).getByText('linked', { exact: true })).toBeVisible();
    await expect(resultAt(page, target)).toBeDisabled();
  });

  /** Finds the card-only account and types a sandbox card up to its PIN, then submits it. */
  async function linkCard(page: Page, scenario: Parameters<typeof ownCard>[1]) {
    await openCardLinking(page);
    return enterCard(page, await ownCard(page, scenario));
  }

  /** On 'Link Account with Card': types the card up to its PIN, then submits it. */
  async function enterCard(
    page: Page,
    card: { number: string; expiry: string; cvv: string; pin: string; otp: string },
  ) {
    await expect(
      panel(page).getByRole('heading', { name: 'Link Account with Card' }),
    ).toBeVisible();
    await expect(
      panel(page).getByText(
        'A test payment between ₦1.00 and ₦10.00 will be made and refunded immediately.',
      ),
    ).toBeVisible();
    await panel(page).getByLabel('Card Number').fill(card.number);
    await panel(page).getByLabel('Expiry date').fill(card.expiry);
    await panel(page).getByLabel('CVV').fill(card.cvv);
    await panel(page).getByRole('button', { name: 'Continue to PIN' }).click();
    await panel(page).getByLabel('Card PIN').fill(card.pin);
    await panel(page).getByRole('button', { name: 'Complete Payment' }).click();
    return card;
  }

  test('links by card with an OTP: the test charge, the code, linked', async ({
    page,
  }, testInfo) => {
    await payerOnFutureConsent(page);
    const card = await linkCard(page, 'pin_otp');
    await expect(panel(page).getByText('Verify Payment')).toBeVisible();
    // The OTP screen is the pay-now's (ui/card), scanned there.
    await snap(page, testInfo, 'linking-card-otp');
    for (const [index, digit] of [...card.otp].entries()) {
      await panel(page)
        .getByLabel(`Digit ${index + 1} of 6`)
        .fill(digit);
    }
    await panel(page).getByRole('button', { name: 'Verify OTP' }).click();
    await linked(page);
    // spec §4: the OTP's answer resets the panel to choosing an account, the stream's
    // card_linking_success closes it; whichever came first, once it is closed the repayment list
    // shows the card saved to the account.
    const cardAccount = await ownAccount(page, 'links_by_card');
    const saved = page.getByText(`Card & Bank • ****${cardAccount.accountNumber.slice(-4)}`);
    const cancel = panel(page).getByRole('button', { name: 'Cancel' });
    await expect(saved.or(cancel)).toBeVisible();
    if (await cancel.isVisible()) await cancel.click();
    await expect(saved).toBeVisible();
  });

  test('links by card with 3-D Secure approved in the challenge tab', async ({
    page,
    context,
  }, testInfo) => {
    await payerOnFutureConsent(page);
    await linkCard(page, 'three_ds');
    await expect(panel(page).getByText('3D Secure Authentication Required')).toBeVisible();
    // The 3-D Secure screen is the pay-now's (ui/card), scanned there.
    await snap(page, testInfo, 'linking-card-3ds');
    const [challenge] = await Promise.all([
      context.waitForEvent('page'),
      panel(page).getByRole('link', { name: 'Continue to Authentication' }).click(),
    ]);
    await expect(
      panel(page).getByRole('heading', { name: 'Awaiting 3D Secure Authentication' }),
    ).toBeVisible();
    await expect(panel(page).getByRole('button', { name: 'Reconnect' })).toBeVisible();
    await look(page, testInfo, 'card-3ds-waiting');
    await challenge.getByRole('button', { name: 'Approve' }).click();
    await linked(page);
  });

  test('a payer who linked a card before gets the card form again, and links a second card', async ({
    page,
  }, testInfo) => {
    await payerOnFutureConsent(page);
    await linkCard(page, 'pin_only');
    await linked(page);
    const cardAccount = await ownAccount(page, 'links_by_card');
    const first = page.getByText(`Card & Bank • ****${cardAccount.accountNumber.slice(-4)}`);
    await expect(first).toBeVisible();

    // Another account that takes cards: the card-linking stream opens with the form, and
    // nothing the first link said on it comes back as this one's success.
    const second = await ownAccount(page, 'insufficient_funds');
    const person = await ownPerson(page);
    const card = person.cards.find(
      (c) => c.scenario === 'pin_only' && c.account.accountNumber === second.accountNumber,
    );
    if (!card) throw new Error('No PIN-only card of the second account');
    await page.getByRole('button', { name: '+ Link different account' }).click();
    await panel(page).getByRole('button', { name: '+ Add another account' }).click();
    await expect(panel(page).getByRole('heading', { name: 'Add Another Account' })).toBeVisible();
    await panel(page).getByLabel('Account number').fill(second.accountNumber);
    await chooseResult(page, second);
    await expect(
      panel(page).getByRole('heading', { name: 'Link Account with Card' }),
    ).toBeVisible();
    // Each time the panel comes to show a success from now on, and when: the stream delivers
    // what it replays before anything new, so once this link's own success has come (a positive
    // event on the same stream), a success the first link left there would have shown already.
    const typing = await page.evaluate(() => {
      const seen = window as Window & { successes?: number[] };
      seen.successes = [];
      const shown = () =>
        [...document.querySelectorAll('h1, h2, h3')].some(
          (heading) => heading.textContent?.trim() === 'Account Linked Successfully!',
        );
      let was = shown();
      if (was) seen.successes.push(performance.now());
      new MutationObserver(() => {
        const now = shown();
        if (now && !was) seen.successes?.push(performance.now());
        was = now;
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
      return performance.now();
    });
    await expect(panel(page).getByLabel('Card Number')).toBeVisible();
    await look(page, testInfo, 'card-form-again');

    await enterCard(page, card);
    await linked(page);
    const successes = await page.evaluate(
      () => (window as Window & { successes?: number[] }).successes ?? [],
    );
    expect(successes).toHaveLength(1);
    expect(successes[0]).toBeGreaterThan(typing);
    await expect(
      page.getByText(`Card & Bank • ****${second.accountNumber.slice(-4)}`),
    ).toBeVisible();
    await expect(first).toBeVisible();
  });

  test('a declined card: Card Linking Error with Try Again', async ({ page }, testInfo) => {
    await payerOnFutureConsent(page);
    await linkCard(page, 'declined');
    await expect(panel(page).getByText('Card Linking Error')).toBeVisible();
    await look(page, testInfo, 'card-error');
    await panel(page).getByRole('button', { name: 'Try Again' }).click();
    await expect(panel(page).getByText('Card Linking Error')).toHaveCount(0);
    await expect(panel(page).getByLabel('Card Number')).toBeVisible();
  });

  // The account list, whose layout changes with the width.
  test(
    'testers delete an account from the list: right-click, the dialog, Escape, Delete',
    { tag: '@both-widths' },
    async ({ page }, testInfo) => {
      await payerOnFutureConsent(page);
      const target = await ownAccount(page, 'links_by_test_transfer');
      await findAccount(page, target.accountNumber);
      await chooseResult(page, target);
      await panel(page).getByRole('button', { name: 'cancel' }).click();
      // The account is the payer's now, not yet authorized; the panel lists it.
      await page.getByRole('button', { name: '+ Link different account' }).click();
      const last4 = new RegExp(`\\*\\*\\*\\*${target.accountNumber.slice(-4)}`);
      const row = panel(page).getByRole('radio', { name: last4 });
      await expect(row).toBeVisible();
      const rowLabel = panel(page).locator('.account-row', { hasText: last4 });
      await expect(rowLabel.getByText('Not authorized yet')).toBeVisible();
      await look(page, testInfo, 'select');

      await rowLabel.click({ button: 'right' });
      const dialog = page.getByRole('dialog', { name: 'Delete Account' });
      await expect(dialog).toContainText('Are you sure you want to delete this Bank Account?');
      await look(page, testInfo, 'delete-dialog');
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);

      await rowLabel.click({ button: 'right' });
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await expect(dialog).toHaveCount(0);
      // No longer one of the payer's: listed again only as an account under their BVN, which
      // testers cannot delete.
      await expect(row).toBeVisible();
      await rowLabel.click({ button: 'right' });
      await expect(dialog).toHaveCount(0);
    },
  );
});
