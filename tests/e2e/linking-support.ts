import { expect, type Page } from '@playwright/test';
import {
  SANDBOX_ACCOUNTS,
  SANDBOX_BANKS,
  SANDBOX_CARDS,
  type TAccountScenario,
  type TSandboxAccount,
} from '../../src/server/sandbox/fixtures';

// The account-linking panel's steps as a payer takes them, shared by the panel's own tests and
// the consent flow's.

export function account(scenario: TAccountScenario, index = 0) {
  const found = SANDBOX_ACCOUNTS.filter((a) => a.scenario === scenario)[index];
  if (!found) throw new Error(`No sandbox account for ${scenario}`);
  return found;
}

export const panel = (page: Page) => page.getByRole('region', { name: 'Link Account' });

/**
 * Opens the panel and finds the account by its number (manual entry). The panel opens from
 * '+ Link repayment account', or '+ Link different account' once the payer has an account.
 */
export async function findAccount(
  page: Page,
  accountNumber: string,
  opener = '+ Link repayment account',
) {
  await page.getByRole('button', { name: opener }).click();
  const title = opener === '+ Link repayment account' ? 'Add Account' : 'Add Another Account';
  await expect(panel(page).getByRole('heading', { name: title, exact: true })).toBeVisible();
  await panel(page).getByLabel('Account number').fill(accountNumber);
  await expect(panel(page).getByRole('heading', { name: 'Select an account:' })).toBeVisible({
    timeout: 10_000,
  });
}

/** The search result at the account's own bank (a number may pass other banks' check digits). */
export const resultAt = (page: Page, target: TSandboxAccount) => {
  const bank = SANDBOX_BANKS.find((b) => b.institutionCode === target.institutionCode);
  return panel(page).getByRole('radio', { name: new RegExp(bank?.name ?? '') });
};
export const chooseResult = (page: Page, target: TSandboxAccount) => resultAt(page, target).click();

/** Finds the card-only account and chooses it: the panel asks for a card ('Link Account with Card'). */
export async function openCardLinking(page: Page) {
  const target = account('links_by_card');
  await findAccount(page, target.accountNumber);
  await chooseResult(page, target);
  await expect(panel(page).getByRole('heading', { name: 'Link Account with Card' })).toBeVisible();
}

/**
 * The bank of `from` sends the amount the payment step asks to the account it names. Only the
 * account being linked proves it (credited); any other account's transfer is returned.
 */
export async function sendTestTransfer(
  page: Page,
  from: TSandboxAccount,
  outcome: 'credited' | 'returned_not_from_account' = 'credited',
) {
  const valueOf = (label: string) =>
    panel(page).locator('.detail-row', { hasText: label }).locator('.detail-value').innerText();
  const accountNumber = (await valueOf('Account number')).trim();
  const amount = Math.round(Number((await valueOf('Amount')).replace(/[^\d.]/g, '')) * 100);
  const sent = await page.request.post('/api/sandbox/transfers', {
    data: {
      accountNumber,
      amount,
      from: { institutionCode: from.institutionCode, accountNumber: from.accountNumber },
    },
  });
  expect(await sent.json()).toMatchObject({ outcome });
}

/** The alternate service's check of the chosen account: its card's last 4 digits and an OTP. */
export async function verifyByAuthParams(page: Page, target: TSandboxAccount) {
  await panel(page)
    .getByPlaceholder('Last 4 digits')
    .fill(target.authParams?.cardLast4 ?? '');
  await panel(page)
    .getByPlaceholder('Enter OTP')
    .fill(target.authParams?.otp ?? '');
  await panel(page).getByRole('button', { name: 'Verify Account' }).click();
  await linked(page);
}

export const linked = (page: Page) =>
  expect(panel(page).getByRole('heading', { name: 'Account Linked Successfully!' })).toBeVisible({
    timeout: 15_000,
  });

/** Pays the open consent's immediate payment with the PIN-only sandbox card, 'Save this card' ticked. */
export async function payWithCardSavingIt(page: Page) {
  await page.getByRole('button', { name: /Pay with Card/ }).click({ timeout: 15_000 });
  const card = SANDBOX_CARDS.find((c) => c.scenario === 'pin_only');
  if (!card) throw new Error('No PIN-only sandbox card');
  await page.getByLabel('Card Number').fill(card.number);
  await page.getByLabel('Expiry date').fill(card.expiry);
  await page.getByLabel('CVV').fill(card.cvv);
  await page.getByLabel('Save this card for future payments').check();
  await page.getByRole('button', { name: 'Continue to PIN' }).click();
  await page.getByLabel('Card PIN').fill(card.pin);
  await page.getByRole('button', { name: 'Complete Payment' }).click();
}
