import { expect, type Page, type TestInfo } from '@playwright/test';
import {
  SANDBOX_ACCOUNTS,
  SANDBOX_BANKS,
  SANDBOX_CARDS,
  type TAccountScenario,
  type TSandboxAccount,
} from '../../src/server/sandbox/fixtures';
import {
  addVirtualAuthenticator,
  signUpThroughPanel,
  storedSession,
  uniquePhone,
} from './auth-support';
import { expectNoViolations } from './axe';
import { consentPath, createConsent, settledPage, snap } from './merchant';
import {
  mintPerson,
  personAccount,
  personCard,
  verifyBvnByCalls,
  type TMintedPerson,
} from './sandbox-people';

// The account-linking panel's steps as a payer takes them, shared by the panel's own tests and
// the consent flow's.

/** A bank account by its bank and number: the sandbox's fixtures and minted people's alike. */
export type TAccountKey = { institutionCode: string; accountNumber: string };

/** A fixture account of the sandbox: someone else's, for a payer who minted their own person. */
export function account(scenario: TAccountScenario, index = 0) {
  const found = SANDBOX_ACCOUNTS.filter((a) => a.scenario === scenario)[index];
  if (!found) throw new Error(`No sandbox account for ${scenario}`);
  return found;
}

// The person each test's payer verified the BVN of: one BVN belongs to one payer, so each payer
// mints their own (sandbox-people.ts) and links that person's accounts.
const people = new WeakMap<Page, TMintedPerson>();

/**
 * The signed-in payer verifies a new person's BVN through the calls the BVN form makes (the code
 * read from the person's own phone, which is not the payer's): accounts of that person then link.
 */
export async function verifyOwnBvn(page: Page, minted?: TMintedPerson): Promise<TMintedPerson> {
  // `minted`: a person minted before the payer signed in (e.g. whose card they paid with).
  const person = minted ?? (await mintPerson(page.request, { fullName: 'Kemi Adewale' }));
  const { token } = await storedSession(page);
  await verifyBvnByCalls(page.request, person, { authorization: `Bearer ${token ?? ''}` });
  people.set(page, person);
  return person;
}

/** The payer's verified person, verifying one first when the payer has none yet. */
export async function ownPerson(page: Page): Promise<TMintedPerson> {
  return people.get(page) ?? verifyOwnBvn(page);
}

/**
 * The payer's own account of a scenario (under their verified BVN), with the alternate service's
 * answers of the scenario.
 */
export async function ownAccount(page: Page, scenario: TAccountScenario) {
  const found = personAccount(await ownPerson(page), scenario);
  return { ...found, authParams: account(scenario).authParams };
}

/** The payer's own card of a scenario, issued on one of their accounts. */
export async function ownCard(page: Page, scenario: Parameters<typeof personCard>[1]) {
  return personCard(await ownPerson(page), scenario);
}

const futurePayments = {
  payments: [1, 2, 3].map((month) => ({
    type: 'future',
    amount: 1_500_000,
    amountType: 'fixed',
    narration: 'Gym dues',
    frequency: 'monthly',
    interval: 1,
    dueDate: new Date(Date.UTC(2027, month, 1, 9)).toISOString(),
  })),
  requirements: { requiresAuth: true },
};

/**
 * A new payer, signed in, on a consent with future payments: the panel's way in. Their BVN is
 * verified first (a person minted for them) unless the test is about verifying it.
 */
export async function payerOnFutureConsent(
  page: Page,
  { bvn = 'verified' }: { bvn?: 'verified' | 'unverified' } = {},
) {
  await addVirtualAuthenticator(page);
  await page.goto('/login');
  await signUpThroughPanel(page, page.request, { fullName: 'Kemi Adewale', phone: uniquePhone() });
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
  if (bvn === 'verified') await verifyOwnBvn(page);
  const consentId = await createConsent(page.request, futurePayments);
  await page.goto(consentPath(consentId));
  // The schedule first (spec §2 Future Payment step); its Confirm shows the repayment accounts.
  await page.getByRole('button', { name: 'Confirm' }).click();
  // The consent, then the section's own chunk: on a busy machine this takes more than 5 s.
  await expect(
    page.getByRole('heading', { name: "Select what accounts you'd like to use for repayment:" }),
  ).toBeVisible();
  return consentId;
}

/**
 * Starts a link for each account through the page's own call, as the panel does when the payer
 * chooses it: each becomes one of the payer's accounts, still waiting for its proof.
 */
export async function startLinks(
  page: Page,
  targets: ReadonlyArray<TAccountKey & { accountName: string }>,
) {
  const { token } = await storedSession(page);
  for (const target of targets) {
    const bank = SANDBOX_BANKS.find((b) => b.institutionCode === target.institutionCode);
    const started = await page.request.post('/api/account-links/create', {
      headers: { Authorization: `Bearer ${token ?? ''}` },
      data: {
        accountNumber: target.accountNumber,
        accountName: target.accountName,
        bankName: bank?.name ?? '',
        institutionCode: target.institutionCode,
      },
    });
    expect(started.ok(), await started.text()).toBe(true);
  }
}

/** A screenshot to look at and an axe pass, on each panel step the tests reach. */
export async function look(page: Page, testInfo: TestInfo, name: string) {
  await snap(page, testInfo, `linking-${name}`);
  await expectNoViolations(page);
}

export const panel = (page: Page) => page.getByRole('region', { name: 'Link Account' });

/**
 * Opens the panel and finds the account by its number (manual entry, from the select step's list
 * of the accounts under the payer's BVN). The panel opens from '+ Link repayment account', or
 * '+ Link different account' once the payer has an account.
 */
export async function findAccount(
  page: Page,
  accountNumber: string,
  opener = '+ Link repayment account',
) {
  await page.getByRole('button', { name: opener }).click();
  // The accounts under the payer's BVN are listed first: the number is typed in manual entry.
  await expect(
    panel(page).getByRole('heading', { name: 'Select an account to link' }),
  ).toBeVisible();
  await panel(page).getByRole('button', { name: '+ Add another account' }).click();
  await expect(
    panel(page).getByRole('heading', { name: 'Add Another Account', exact: true }),
  ).toBeVisible();
  await panel(page).getByLabel('Account number').fill(accountNumber);
  await expect(panel(page).getByRole('heading', { name: 'Select an account:' })).toBeVisible();
}

/** The search result at the account's own bank (a number may pass other banks' check digits). */
export const resultAt = (page: Page, target: TAccountKey) => {
  const bank = SANDBOX_BANKS.find((b) => b.institutionCode === target.institutionCode);
  return panel(page).getByRole('radio', { name: new RegExp(bank?.name ?? '') });
};
export const chooseResult = (page: Page, target: TAccountKey) => resultAt(page, target).click();

/** Finds the card-only account and chooses it: the panel asks for a card ('Link Account with Card'). */
export async function openCardLinking(page: Page) {
  const target = await ownAccount(page, 'links_by_card');
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
  from: TAccountKey,
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
export async function verifyByAuthParams(
  page: Page,
  target: { authParams: TSandboxAccount['authParams'] },
) {
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
  expect(panel(page).getByRole('heading', { name: 'Account Linked Successfully!' })).toBeVisible();

/**
 * Pays the open consent's immediate payment with a PIN-only card, 'Save this card' ticked: the
 * sandbox's fixture card unless `own` names the payer's own (e.g. ownCard(page, 'pin_only')).
 */
export async function payWithCardSavingIt(
  page: Page,
  own?: { number: string; expiry: string; cvv: string; pin: string },
) {
  await settledPage(page);
  await page.getByRole('button', { name: /Pay with Card/ }).click();
  const card = own ?? SANDBOX_CARDS.find((c) => c.scenario === 'pin_only');
  if (!card) throw new Error('No PIN-only sandbox card');
  await page.getByLabel('Card Number').fill(card.number);
  await page.getByLabel('Expiry date').fill(card.expiry);
  await page.getByLabel('CVV').fill(card.cvv);
  await page.getByLabel('Save this card for future payments').check();
  await page.getByRole('button', { name: 'Continue to PIN' }).click();
  await page.getByLabel('Card PIN').fill(card.pin);
  await page.getByRole('button', { name: 'Complete Payment' }).click();
}

/**
 * Links the signed-in payer's own account of a scenario through the API the panel calls, their
 * BVN verified first when it is not yet.
 */
export async function linkByApi(page: Page, scenario: TAccountScenario) {
  const target = await ownAccount(page, scenario);
  const { token } = await storedSession(page);
  const created = await page.request.post('/api/account-links/create', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      accountNumber: target.accountNumber,
      institutionCode: target.institutionCode,
      accountName: target.accountName,
      bankName: 'Any Bank',
    },
  });
  expect(created.status()).toBe(200);
  const { payInDetails } = (await created.json()).accountLink;
  // From the account being linked: the only sender whose test transfer proves it.
  const sent = await page.request.post('/api/sandbox/transfers', {
    data: {
      accountNumber: payInDetails.accountNumber,
      amount: payInDetails.amount,
      from: { institutionCode: target.institutionCode, accountNumber: target.accountNumber },
    },
  });
  expect(await sent.json()).toMatchObject({ outcome: 'credited' });
  return target;
}
