import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import {
  chooseResult,
  linked,
  look,
  ownAccount,
  ownCard,
  panel,
  payerOnFutureConsent,
  startLinks,
} from './linking-support';

// The account-linking panel's layout and its ways back: the account list at its 330 px with many
// accounts, one back or cancel control on every step, and the error step after too many wrong
// verification answers.

/** Every control on the page that goes back or cancels, wherever it is drawn. */
const waysBack = (page: Page) => page.getByRole('button', { name: /^(back|cancel)$/i });

/** The step shows exactly one way back, and is looked at. */
async function oneWayBack(page: Page, testInfo: TestInfo, name: string) {
  await expect(waysBack(page)).toHaveCount(1);
  await look(page, testInfo, name);
}

/**
 * The rows of an account list keep the height their content needs, none drawn over another, and
 * the list itself stays within 330 px and scrolls to its last row (spec §2 Account list row).
 */
async function expectRowsApartAndScrolling(list: Locator, rows: number) {
  const boxes = await list.locator('label').evaluateAll((labels) =>
    labels.map((label) => {
      const box = label.getBoundingClientRect();
      return { top: box.top, bottom: box.bottom, fits: label.scrollHeight <= label.clientHeight };
    }),
  );
  expect(boxes).toHaveLength(rows);
  for (const [index, box] of boxes.entries()) {
    expect(box.fits, `row ${index + 1} holds its content`).toBe(true);
    const next = boxes[index + 1];
    if (next)
      expect(next.top, `row ${index + 2} starts below row ${index + 1}`).toBeGreaterThanOrEqual(
        box.bottom,
      );
  }
  const sizes = await list.evaluate((node) => ({
    height: node.getBoundingClientRect().height,
    scrollHeight: node.scrollHeight,
    clientHeight: node.clientHeight,
  }));
  expect(sizes.height).toBeLessThanOrEqual(330);
  expect(sizes.scrollHeight).toBeGreaterThan(sizes.clientHeight);
  const last = list.locator('label').last();
  await last.scrollIntoViewIfNeeded();
  await expect(last).toBeInViewport();
}

/** On 'Link Account with Card': types the payer's own card of `scenario` up to its PIN, and submits. */
async function enterCard(page: Page, scenario: 'pin_only' | 'pin_otp') {
  const card = await ownCard(page, scenario);
  await panel(page).getByLabel('Card Number').fill(card.number);
  await panel(page).getByLabel('Expiry date').fill(card.expiry);
  await panel(page).getByLabel('CVV').fill(card.cvv);
  await panel(page).getByRole('button', { name: 'Continue to PIN' }).click();
  await panel(page).getByLabel('Card PIN').fill(card.pin);
  await panel(page).getByRole('button', { name: 'Complete Payment' }).click();
}

/** The payer's accounts the consent page lists, and the panel's list of accounts to link. */
const repaymentList = (page: Page) => page.getByRole('group', { name: 'Repayment accounts' });
const panelList = (page: Page) => panel(page).getByRole('group', { name: 'Your accounts' });

test.describe('the account-linking panel', () => {
  test('six accounts under the payer’s BVN: every row keeps its height, none overlaps, and the lists scroll @both-widths', async ({
    page,
  }, testInfo) => {
    // Two panel lists and the repayment list measured and looked at, a card linked, four links
    // started.
    await payerOnFutureConsent(page);
    // The panel's list: the six accounts under the payer's BVN (one of them not supported).
    await page.getByRole('button', { name: '+ Link repayment account' }).click();
    await expect(
      panel(page).getByRole('heading', { name: 'Select an account to link' }),
    ).toBeVisible();
    await expectRowsApartAndScrolling(panelList(page), 6);
    await look(page, testInfo, 'panel-six-accounts-select');

    // The card-only account, linked by the payer's own card through the panel.
    const cardAccount = await ownAccount(page, 'links_by_card');
    await panel(page).getByRole('button', { name: '+ Add another account' }).click();
    await panel(page).getByLabel('Account number').fill(cardAccount.accountNumber);
    await chooseResult(page, cardAccount);
    await enterCard(page, 'pin_only');
    await linked(page);
    await expect(repaymentList(page).getByRole('checkbox')).toHaveCount(1);
    // Every other account of theirs that links, each link started and waiting for its proof.
    await startLinks(page, [
      await ownAccount(page, 'links_by_test_transfer'),
      await ownAccount(page, 'links_by_auth_params'),
      await ownAccount(page, 'paper_mandate'),
      await ownAccount(page, 'insufficient_funds'),
    ]);
    await page.reload();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(repaymentList(page).getByRole('checkbox')).toHaveCount(5);
    await expectRowsApartAndScrolling(repaymentList(page), 5);
    await look(page, testInfo, 'panel-six-accounts');

    // The panel's own list: the five not linked yet (four waiting, one not supported).
    await page.getByRole('button', { name: '+ Link different account' }).click();
    await expect(
      panel(page).getByRole('heading', { name: 'Select an account to link' }),
    ).toBeVisible();
    await expectRowsApartAndScrolling(panelList(page), 5);
    await look(page, testInfo, 'panel-six-accounts-select-after');
  });

  test('every step has one way back: the panel’s own, never the step’s under it', async ({
    page,
  }, testInfo) => {
    // Eight steps, each looked at with axe.
    await payerOnFutureConsent(page);
    // The repayment accounts themselves: the Future Payments step's 'back' to its schedule.
    await expect(waysBack(page)).toHaveCount(1);

    // The panel opens at the list of the accounts under the payer's BVN.
    await page.getByRole('button', { name: '+ Link repayment account' }).click();
    await expect(
      panel(page).getByRole('heading', { name: 'Select an account to link' }),
    ).toBeVisible();
    await oneWayBack(page, testInfo, 'panel-select-bvn');
    await panel(page).getByRole('button', { name: '+ Add another account' }).click();
    await expect(panel(page).getByRole('heading', { name: 'Add Another Account' })).toBeVisible();
    await oneWayBack(page, testInfo, 'panel-add-account');

    const transfer = await ownAccount(page, 'links_by_test_transfer');
    await panel(page).getByLabel('Account number').fill(transfer.accountNumber);
    await chooseResult(page, transfer);
    await expect(
      panel(page).getByRole('heading', { name: 'Complete Account Linking' }),
    ).toBeVisible();
    await oneWayBack(page, testInfo, 'panel-payment');
    await panel(page).getByRole('button', { name: 'cancel' }).click();
    await expect(panel(page)).toHaveCount(0);
    await expect(repaymentList(page).getByRole('checkbox')).toHaveCount(1);

    // Now the payer has an account: the panel opens at its list.
    await page.getByRole('button', { name: '+ Link different account' }).click();
    await expect(
      panel(page).getByRole('heading', { name: 'Select an account to link' }),
    ).toBeVisible();
    await oneWayBack(page, testInfo, 'panel-select');
    await panel(page).getByRole('button', { name: '+ Add another account' }).click();
    await expect(panel(page).getByRole('heading', { name: 'Add Another Account' })).toBeVisible();
    await oneWayBack(page, testInfo, 'panel-add-another-account');

    const auth = await ownAccount(page, 'links_by_auth_params');
    await panel(page).getByLabel('Account number').fill(auth.accountNumber);
    await chooseResult(page, auth);
    await expect(
      panel(page).getByRole('heading', { name: 'Complete Account Verification' }),
    ).toBeVisible();
    await oneWayBack(page, testInfo, 'panel-verification');
    // Back returns to the manual entry it came from.
    await panel(page).getByRole('button', { name: 'Back' }).click();
    await expect(panel(page).getByRole('heading', { name: 'Add Another Account' })).toBeVisible();
    // The same account again while its attempt is open: the error step, and its Back.
    await panel(page).getByLabel('Account number').fill(auth.accountNumber);
    await chooseResult(page, auth);
    await expect(
      panel(page).getByRole('heading', { name: 'Account Linking Failed' }),
    ).toBeVisible();
    await oneWayBack(page, testInfo, 'panel-error');
    await panel(page).getByRole('button', { name: 'Back' }).click();
    await expect(panel(page).getByRole('heading', { name: 'Add Another Account' })).toBeVisible();

    const card = await ownAccount(page, 'links_by_card');
    await panel(page).getByLabel('Account number').fill(card.accountNumber);
    await chooseResult(page, card);
    await expect(
      panel(page).getByRole('heading', { name: 'Link Account with Card' }),
    ).toBeVisible();
    await oneWayBack(page, testInfo, 'panel-card-form');
    await enterCard(page, 'pin_otp');
    await expect(panel(page).getByRole('button', { name: 'Verify OTP' })).toBeVisible();
    await oneWayBack(page, testInfo, 'panel-card-otp');
    // Its cancel closes the panel: the repayment accounts again, their 'back' the only one.
    await panel(page).getByRole('button', { name: 'cancel' }).click();
    await expect(panel(page)).toHaveCount(0);
    await expect(waysBack(page)).toHaveCount(1);
  });
});
