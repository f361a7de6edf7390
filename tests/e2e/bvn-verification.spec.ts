import { expect, test } from '@playwright/test';
import {
  bvnCodeResentMessage,
  bvnCodeSentMessage,
  bvnMethodsIntro,
} from '../../src/domain/bvn-code-texts';
import { latestCode, storedSession } from './auth-support';
import {
  linkByApi,
  linked,
  look,
  ownPerson,
  panel,
  payerOnFutureConsent,
  resultAt,
  sendTestTransfer,
  verifyOwnBvn,
} from './linking-support';
import { consentPath } from './merchant';
import { mintPerson, personAccount } from './sandbox-people';

// The BVN step of the account-linking panel (docs/identity.md "The BVN"): a payer with no
// verified BVN is asked for it the first time the panel opens, picks among the registry's masked
// hints where its code goes (the sandbox registry's one way: the phone the BVN is registered
// with, not their own), and then links the accounts the bank holds under it; another person's
// account, found by its number, says why it cannot be linked.

test.describe('BVN verification in the linking panel', () => {
  test('a new payer verifies their BVN, links an account listed under it, and cannot link a stranger’s', async ({
    page,
  }, testInfo) => {
    await payerOnFutureConsent(page, { bvn: 'unverified' });
    // The person whose BVN this is: their BVN's phone is a number of its own.
    const person = await mintPerson(page.request, { fullName: 'Tolu Bakare' });

    await page.getByRole('button', { name: '+ Link repayment account' }).click();
    const heading = panel(page).getByRole('heading', { name: 'Verify your BVN' });
    await expect(heading).toBeVisible();
    await expect(heading).toBeFocused();
    await look(page, testInfo, 'bvn');

    // Too few digits: the field says what it needs, and no registry is asked.
    await panel(page).getByLabel('BVN', { exact: true }).fill('2233');
    await panel(page).getByRole('button', { name: 'Continue' }).click();
    await expect(panel(page).getByRole('alert')).toHaveText('Enter your 11-digit BVN');
    await look(page, testInfo, 'bvn-invalid');

    await panel(page).getByLabel('BVN', { exact: true }).fill(person.bvn);
    await panel(page).getByRole('button', { name: 'Continue' }).click();
    // The ways the registry can send the code, by its masked hints, under who sends it: the
    // sandbox registry's one way, the BVN's phone (not the payer's), already picked.
    const ways = panel(page).getByRole('group', { name: 'Where should the code go?' });
    await expect(ways).toBeVisible();
    await expect(ways).toContainText(bvnMethodsIntro('sandbox'));
    const hint = `SMS to 0${person.phoneNumber.slice(-10, -7)}***${person.phoneNumber.slice(-4)}`;
    await expect(ways.getByRole('radio')).toHaveCount(1);
    await expect(ways.getByRole('radio', { name: hint })).toBeChecked();
    await expect(panel(page).getByRole('button', { name: 'Use another way' })).toHaveCount(0);
    await look(page, testInfo, 'bvn-ways');

    await panel(page).getByRole('button', { name: 'Send code' }).click();
    await expect(panel(page).getByRole('status')).toHaveText(bvnCodeSentMessage('sandbox', hint));
    const codeField = panel(page).getByLabel('6-digit code');
    await expect(codeField).toBeFocused();
    await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
    await expect(codeField).toHaveAttribute('inputmode', 'numeric');
    await look(page, testInfo, 'bvn-code');

    // 'Send again': the registry sends a new code the same way, and only the newest is right.
    const first = await latestCode(page.request, person.phoneNumber);
    await panel(page).getByRole('button', { name: 'Send again' }).click();
    await expect(panel(page).getByRole('status')).toHaveText(bvnCodeResentMessage('sandbox'));
    await look(page, testInfo, 'bvn-code-again');

    // The code went to the BVN's phone; the first one, now wrong, says how many tries are left.
    const code = await latestCode(page.request, person.phoneNumber);
    const wrong =
      first !== code ? first : code.startsWith('0') ? `1${code.slice(1)}` : `0${code.slice(1)}`;
    await codeField.fill(wrong);
    await panel(page).getByRole('button', { name: 'Verify' }).click();
    await expect(panel(page).getByRole('alert')).toHaveText(
      'That code is not correct. 4 tries left.',
    );
    await look(page, testInfo, 'bvn-wrong-code');

    await codeField.fill(code);
    await panel(page).getByRole('button', { name: 'Verify' }).click();

    // The accounts under the BVN, listed to link.
    await expect(
      panel(page).getByRole('heading', { name: 'Select an account to link' }),
    ).toBeVisible();
    const target = personAccount(person, 'links_by_test_transfer');
    const row = panel(page).getByRole('radio', {
      name: new RegExp(`\\*\\*\\*\\*${target.accountNumber.slice(-4)}`),
    });
    await expect(row).toBeEnabled();
    await look(page, testInfo, 'bvn-accounts');
    await row.click();
    await expect(
      panel(page).getByRole('heading', { name: 'Complete Account Linking' }),
    ).toBeVisible();
    await sendTestTransfer(page, target);
    await linked(page);
    await expect(
      page.getByRole('checkbox', {
        name: new RegExp(`\\*\\*\\*\\*${target.accountNumber.slice(-4)}`),
      }),
    ).toBeVisible();

    // A stranger's account, by its number: found, not theirs, not to be chosen. The BVN is
    // not asked again.
    const stranger = await mintPerson(page.request, { fullName: 'Sade Ogun' });
    const theirs = personAccount(stranger, 'links_by_test_transfer');
    await page.getByRole('button', { name: '+ Link different account' }).click();
    await expect(
      panel(page).getByRole('heading', { name: 'Select an account to link' }),
    ).toBeVisible();
    await panel(page).getByRole('button', { name: '+ Add another account' }).click();
    await panel(page).getByLabel('Account number').fill(theirs.accountNumber);
    await expect(panel(page).getByRole('heading', { name: 'Select an account:' })).toBeVisible();
    await expect(resultAt(page, theirs)).toBeDisabled();
    await expect(
      panel(page).getByText('This account is not registered to your BVN.'),
    ).toBeVisible();
    await look(page, testInfo, 'bvn-not-yours');
  });

  test('the row of an account linked before BVNs were checked says to verify the BVN, and is chosen once it is', async ({
    page,
  }, testInfo) => {
    const consentId = await payerOnFutureConsent(page);
    const target = await linkByApi(page, 'links_by_test_transfer');
    const person = await ownPerson(page);
    // As the BVN migration left the links made before it: no BVN on the link, none verified.
    const { token } = await storedSession(page);
    const forgotten = await page.request.post('/__e2e/payer/links-before-bvn', {
      headers: { authorization: `Bearer ${token ?? ''}` },
    });
    expect(forgotten.status(), await forgotten.text()).toBe(200);

    const repayment = async () => {
      await page.goto(consentPath(consentId));
      await page.getByRole('button', { name: 'Confirm' }).click();
      const row = page.locator('.account-row', {
        hasText: new RegExp(`\\*\\*\\*\\*${target.accountNumber.slice(-4)}`),
      });
      await expect(row).toBeVisible();
      return row;
    };
    const held = await repayment();
    await expect(held).toContainText('Verify your BVN to pay from this account');
    await expect(held).not.toContainText('Not authorized yet');
    await expect(held.getByRole('checkbox')).toBeDisabled();
    await look(page, testInfo, 'row-before-bvn');

    await verifyOwnBvn(page, person);
    const adopted = await repayment();
    await expect(adopted.getByRole('checkbox')).toBeEnabled();
    await expect(adopted).not.toContainText('Verify your BVN to pay from this account');
  });
});
