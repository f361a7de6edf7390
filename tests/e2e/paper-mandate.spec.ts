import { expect, test } from '@playwright/test';
import { expectNoViolations } from './axe';
import {
  chooseResult,
  findAccount,
  ownAccount,
  panel,
  payerOnFutureConsent,
} from './linking-support';
import { snap } from './merchant';
import { PANEL_RESET_AFTER_SUCCESS_MS, SUCCESS_UI_MS } from '../../src/domain/constants';

// A paper mandate (docs/accounts.md "Paper mandates"): the sandbox bank approves the signed form
// 2 minutes after it was issued. The panel's success step says what happens next and keeps the
// form until Done; the account's row then offers the form while the bank has not approved it.

test('a paper mandate: what happens next, the form kept on the success step and on the row', async ({
  page,
}, testInfo) => {
  // The page's timers run on a clock the test moves (time still flows by itself until then).
  await page.clock.install();
  await payerOnFutureConsent(page);
  const target = await ownAccount(page, 'paper_mandate');
  await findAccount(page, target.accountNumber);
  await chooseResult(page, target);

  const success = panel(page);
  await expect(success.getByRole('heading', { name: 'Sign Your Mandate Form' })).toBeVisible();
  await expect(
    success.getByText('Print the form, sign it and give it to your bank within 7 days.'),
  ).toBeVisible();
  await expect(
    success.getByText(
      "Your account is linked once your bank approves the signed form; until then it shows 'Not authorized yet'.",
    ),
  ).toBeVisible();
  await expect(success.getByRole('heading', { name: 'Account Linked Successfully!' })).toHaveCount(
    0,
  );
  const form = success.getByRole('link', { name: 'Print the mandate form' });
  await expect(form).toHaveAttribute('href', /\/mandates\/alk_/);
  const formUrl = await form.getAttribute('href');
  // Past the 2 s after which other successes reset and close (PANEL_RESET_AFTER_SUCCESS_MS,
  // SUCCESS_UI_MS), every timer due by then fired at once: the form is still there.
  await page.clock.runFor(PANEL_RESET_AFTER_SUCCESS_MS + SUCCESS_UI_MS);
  // What those timers set is drawn by the next frame.
  await page.evaluate(() => new Promise<void>((drawn) => requestAnimationFrame(() => drawn())));
  await expect(form).toBeVisible();
  await expect(success.getByRole('heading', { name: 'Sign Your Mandate Form' })).toBeVisible();
  await snap(page, testInfo, 'paper-mandate-success');
  await expectNoViolations(page);

  await success.getByRole('button', { name: 'Done' }).click();
  await expect(panel(page)).toHaveCount(0);
  const accounts = page.getByRole('group', { name: 'Repayment accounts' });
  await expect(accounts.getByText('Not authorized yet')).toBeVisible();
  const rowForm = accounts.getByRole('link', { name: 'Print the mandate form' });
  await expect(rowForm).toHaveAttribute('href', formUrl ?? '');
  await snap(page, testInfo, 'paper-mandate-row');
  await expectNoViolations(page);
});
