import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { expectNoViolations } from './axe';
import {
  addVirtualAuthenticator,
  latestCode,
  signUpThroughPanel,
  storedSession,
  uniquePhone,
} from './auth-support';
import {
  account,
  linkByApi,
  panel,
  payWithCardSavingIt,
  type TAccountKey,
  verifyOwnBvn,
} from './linking-support';
import { E2E } from './e2e-env';
import { consentPath, createConsent, readMerchantConsent, snap } from './merchant';
import { mintPerson, personAccount, personCard } from './sandbox-people';

// The prompts after a payment (spec §2, §4), in real Chromium against the real server and the
// sandbox bank and card network: the account a transfer came from is offered for linking (after
// signing in, for an anonymous payer), and a card the payer asked to save is offered for saving.

const payment = { type: 'immediate', amount: 250_000, narration: 'Order #1042 groceries' };
const sender = account('links_by_test_transfer');

async function look(page: Page, testInfo: TestInfo, name: string) {
  await snap(page, testInfo, `after-payment-${name}`);
  await expectNoViolations(page);
}

/** An anonymous payer pays a fresh payment-only consent by transfer from `from` (`sender`). */
async function payByTransferFromSender(
  page: Page,
  from: TAccountKey & { accountName: string } = sender,
) {
  const consentId = await createConsent(page.request, { payments: [payment] });
  await page.goto(consentPath(consentId));
  await page.getByRole('button', { name: /Pay by Transfer/ }).click();
  const row = page.locator('.detail-row', {
    has: page.getByText('Account number', { exact: true }),
  });
  const accountNumber = ((await row.locator('.detail-value').textContent()) ?? '').trim();
  await page.getByRole('button', { name: 'I have made the transfer' }).click();
  const sent = await page.request.post('/api/sandbox/transfers', {
    data: {
      accountNumber,
      amount: payment.amount,
      from: { institutionCode: from.institutionCode, accountNumber: from.accountNumber },
    },
  });
  expect(await sent.json()).toMatchObject({ outcome: 'credited' });
  return consentId;
}

const question = (page: Page) =>
  page.getByRole('heading', { name: 'Link this account for future payments?' });
const granted = (page: Page) =>
  expect(page.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();

test.describe('after a payment', () => {
  test('an anonymous payer is offered to link the account they paid from, and may skip', async ({
    page,
  }, testInfo) => {
    await payByTransferFromSender(page);
    await expect(question(page)).toBeVisible();
    // Paid without signing in, the payer is anyone holding the link: the bank and the last four
    // digits, never the account name or the whole number (docs/payments.md "Who sees the origin").
    await expect(
      page.locator('.detail-row', { hasText: 'Account' }).locator('.detail-value'),
    ).toHaveText(`****${sender.accountNumber.slice(-4)}`);
    await expect(page.getByText(sender.accountName)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Sign In to Save Account' })).toBeVisible();
    await look(page, testInfo, 'link-account-sign-in');
    await page.getByRole('button', { name: 'Skip for Now' }).click();
    await granted(page);
  });

  test('the prompt after paying is an offer: the tab closed at it leaves the consent granted', async ({
    page,
    context,
  }, testInfo) => {
    const consentId = await payByTransferFromSender(page);
    await expect(question(page)).toBeVisible();
    // The payment granted the consent: the merchant has it granted while the prompt is open.
    expect((await readMerchantConsent(page.request, consentId)).status).toBe('granted');

    // Opened again in this tab, which keeps the transfer's token, the payer is still offered the
    // link; skipping it shows what was granted.
    await page.reload();
    await expect(question(page)).toBeVisible();
    await look(page, testInfo, 'offer-after-grant');
    await page.getByRole('button', { name: 'Skip for Now' }).click();
    await granted(page);
    await expect(page.getByText('Payment Collected')).toBeVisible();
    await expect(page.getByText('Bank transfer', { exact: true })).toBeVisible();
    await expect(page.getByText('Confirmations sent to your registered contact.')).toHaveCount(0);
    await look(page, testInfo, 'granted-after-offer');
    await page.close();
    expect((await readMerchantConsent(context.request, consentId)).status).toBe('granted');

    // Another tab holds no token of the payment (docs/payments.md "Who reads a payment"): it is
    // not offered to link an account it cannot name, and shows what was granted.
    const again = await context.newPage();
    await again.goto(consentPath(consentId));
    await granted(again);
    await expect(again.getByText('Payment Collected')).toBeVisible();
    await expect(question(again)).toHaveCount(0);
  });

  test('signs in to save the account, links it from the payment with no second transfer, and grants with the passkey', async ({
    page,
  }, testInfo) => {
    await addVirtualAuthenticator(page);
    // The payer's own account: a person of their own, whose BVN they verify once signed in.
    const person = await mintPerson(page.request, { fullName: 'Kemi Adewale' });
    const own = personAccount(person, 'links_by_test_transfer');
    await payByTransferFromSender(page, own);
    await expect(question(page)).toBeVisible();
    await page.getByRole('button', { name: 'Sign In to Save Account' }).click();
    // The auth prompt says the payment is paid, not that it is still to collect.
    const prompt = page.getByRole('region', { name: 'Sign in for Tola Stores' });
    await expect(prompt.getByText('₦2,500.00 paid')).toBeVisible();
    await expect(prompt.getByText('Collect ₦2,500.00 immediately')).toHaveCount(0);
    await look(page, testInfo, 'sign-in-prompt-paid');
    await signUpThroughPanel(page, page.request, {
      fullName: own.accountName,
      phone: uniquePhone(),
    });

    // Signed in: the link-origin prompt, with the amount paid and the bank it came from.
    await expect(question(page)).toBeVisible();
    await expect(page.locator('.detail-row', { hasText: 'Amount paid' })).toContainText(
      '₦2,500.00',
    );
    await expect(page.getByRole('button', { name: 'Maybe later' })).toBeVisible();
    // The account links only under the payer's verified BVN: the person's, verified now.
    await verifyOwnBvn(page, person);
    await look(page, testInfo, 'link-origin');
    // The payment is the proof: no panel, no test transfer to send, no other call to link.
    const linkCalls: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/account-links\/(create|confirm-payment)/.test(request.url())) {
        linkCalls.push(request.url());
      }
    });
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await granted(page);
    // Signed in, the payer has a registered contact for the confirmations.
    await expect(page.getByText('Confirmations sent to your registered contact.')).toBeVisible();
    await expect(panel(page)).toHaveCount(0);
    expect(linkCalls).toEqual([]);

    const { token } = await storedSession(page);
    const accounts = await page.request.get('/api/accounts/user', {
      headers: { authorization: `Bearer ${token}` },
    });
    const listed = (await accounts.json()) as {
      accounts: Array<{ accountNumber: string; isAlreadyLinked?: boolean; bankId?: string }>;
    };
    const mine = listed.accounts.find((a) => a.accountNumber === own.accountNumber);
    expect(mine?.bankId).toBeTruthy();
    expect(mine?.isAlreadyLinked).toBe(true);
  });

  test('linking the account paid from asks for the BVN once, then links it from the payment and grants', async ({
    page,
  }, testInfo) => {
    await addVirtualAuthenticator(page);
    // The payer's own account, under a BVN they have not verified yet; its codes go to the
    // BVN's registered phone, not the number they sign in with.
    const person = await mintPerson(page.request, { fullName: 'Kemi Adewale' });
    const own = personAccount(person, 'links_by_test_transfer');
    const consentId = await payByTransferFromSender(page, own);
    await page.getByRole('button', { name: 'Sign In to Save Account' }).click();
    // The consent read after the sign-in answers only once the prompt shows: the page draws the
    // signed-in screen from the consent it read before the payment, and still offers the link
    // (the payment's read names the account), rather than granting at once.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/consent/${consentId}?*`, async (route) => {
      await released;
      await route.continue();
    });
    await signUpThroughPanel(page, page.request, {
      fullName: own.accountName,
      phone: uniquePhone(),
    });
    await expect(question(page)).toBeVisible();
    release();
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();

    // Asked once, where the payer is: the prompt becomes the BVN step.
    const bvnStep = page.getByRole('heading', { name: 'Verify your BVN' });
    await expect(bvnStep).toBeVisible();
    await expect(
      page.getByText(/To link the account you paid from, verify your BVN first/),
    ).toBeVisible();
    await look(page, testInfo, 'bvn-step');
    await page.getByLabel('BVN', { exact: true }).fill(person.bvn);
    await page.getByRole('button', { name: 'Continue' }).click();
    // The sandbox registry's one way, the BVN's phone, is already picked.
    const ways = page.getByRole('group', { name: 'Where should the code go?' });
    await expect(ways.getByRole('radio', { checked: true })).toHaveCount(1);
    await look(page, testInfo, 'bvn-step-ways');
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(
      page.getByText(/^The sandbox BVN registry sent a 6-digit code the way you chose: SMS to /),
    ).toBeVisible();
    await page.getByLabel('6-digit code').fill(await latestCode(page.request, person.phoneNumber));
    await look(page, testInfo, 'bvn-code');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();

    // Then it carries on where the payer was: the account links from the payment, the consent
    // is granted, and the BVN is not asked again.
    await granted(page);
    await expect(bvnStep).toHaveCount(0);
    await look(page, testInfo, 'bvn-granted');
    const { token } = await storedSession(page);
    const accounts = await page.request.get('/api/accounts/user', {
      headers: { authorization: `Bearer ${token}` },
    });
    const listed = (await accounts.json()) as {
      accounts: Array<{
        accountNumber: string;
        isAlreadyLinked?: boolean;
        bvnHold?: string | null;
      }>;
    };
    expect(listed.accounts.find((a) => a.accountNumber === own.accountNumber)).toMatchObject({
      isAlreadyLinked: true,
      bvnHold: null,
    });
  });

  test('@desktop the side panel says the payment is paid once it is', async ({
    page,
  }, testInfo) => {
    await payByTransferFromSender(page);
    await expect(question(page)).toBeVisible();
    const summary = page.getByRole('complementary', { name: 'Consent summary' });
    const line = summary.getByRole('listitem').filter({ hasText: payment.narration });
    await expect(line).toContainText('Paid');
    await expect(line.getByText('Due now')).toHaveCount(0);
    await look(page, testInfo, 'side-panel-paid');
  });

  test("a saved account chosen to pay shows the Immediate Payment step's 'linked' badge", async ({
    page,
  }, testInfo) => {
    await addVirtualAuthenticator(page);
    await page.goto('/login');
    await signUpThroughPanel(page, page.request, {
      fullName: 'Ifeoma Nwosu',
      phone: uniquePhone(),
    });
    await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
    const saved = await linkByApi(page, 'links_by_test_transfer');
    const consentId = await createConsent(page.request, {
      payments: [payment],
      dataSharing: { bvnData: true },
    });
    await page.goto(consentPath(consentId));
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    const step = page.getByRole('button', { name: /^Immediate Payment/ });
    await expect(step).toHaveAttribute('aria-expanded', 'true');
    // Not before: nothing linked pays it yet.
    await expect(step.getByText('linked', { exact: true })).toHaveCount(0);
    const last4 = saved.accountNumber.slice(-4);
    await page.getByRole('radio', { name: new RegExp(`\\*{4}${last4}`) }).check();
    await expect(step.getByText('linked', { exact: true })).toBeVisible();
    await expect(step).toHaveAccessibleName(/^Immediate Payment .*linked Pending$/);
    // Dots and badges wrap under the title: no step reaches past the list's width at 390 px.
    const overflowing = await page.locator('.flow-steps').evaluate((list) => {
      const { right } = list.getBoundingClientRect();
      return [...list.children].filter((step) => step.getBoundingClientRect().right > right + 0.5)
        .length;
    });
    expect(overflowing).toBe(0);
    await look(page, testInfo, 'step-linked-badge');
  });

  test('a signed-in payer who paid and comes back sees the account they paid from in full', async ({
    page,
  }) => {
    await addVirtualAuthenticator(page);
    await page.goto('/login');
    await signUpThroughPanel(page, page.request, {
      fullName: 'Kemi Adewale',
      phone: uniquePhone(),
    });
    await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
    const { token } = await storedSession(page);
    // Paid by transfer while signed in (the bank's app, another tab), before this page opens.
    const consentId = await createConsent(page.request, { payments: [payment] });
    const read = await page.request.get(`/api/consent/${consentId}?clientId=${E2E.clientId}`);
    const { paymentId } = (await read.json()).consent.payments[0];
    const opened = await page.request.post(`/api/payments/${paymentId}/transfer`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { transferDetails } = await opened.json();
    const sent = await page.request.post('/api/sandbox/transfers', {
      data: {
        accountNumber: transferDetails.accountNumber,
        amount: payment.amount,
        from: { institutionCode: sender.institutionCode, accountNumber: sender.accountNumber },
      },
    });
    expect(await sent.json()).toMatchObject({ outcome: 'credited' });

    // The consent read shows the account masked to anyone with the link; the payer who paid
    // reads it whole from the payment.
    await page.goto(consentPath(consentId));
    await expect(question(page)).toBeVisible();
    await expect(page.getByText(`${sender.accountNumber} · ${sender.accountName}`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Maybe later' })).toBeVisible();
  });

  test('an anonymous payer who ticked Save this card signs in and saves the card that paid, typing it no more', async ({
    page,
  }, testInfo) => {
    await addVirtualAuthenticator(page);
    const consentId = await createConsent(page.request, { payments: [payment] });
    await page.goto(consentPath(consentId));
    // The payer's own card: a person of their own, whose BVN they verify once signed in.
    const person = await mintPerson(page.request, { fullName: 'Funmilayo Adebayo' });
    const card = personCard(person, 'pin_only');
    await payWithCardSavingIt(page, card);

    await expect(page.getByRole('heading', { name: 'Save Your Card' })).toBeVisible();
    await look(page, testInfo, 'save-card-sign-in');
    await page.getByRole('button', { name: 'Sign In & Save Card' }).click();
    const cardCalls: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/payments\/card/.test(request.url())) cardCalls.push(request.url());
    });
    await signUpThroughPanel(page, page.request, {
      fullName: 'Funmilayo Adebayo',
      phone: uniquePhone(),
    });

    // Straight to the account the card goes on: no card form, no PIN, no test charge.
    await expect(page.getByRole('heading', { name: 'Save Your Card' })).toBeVisible();
    // The card is saved only to an account under the payer's verified BVN: the person's.
    await verifyOwnBvn(page, person);
    await expect(page.getByLabel('Card Number')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Enter Account Number' })).toHaveCount(0);
    const cardAccount = person.accounts.find((a) => a.accountNumber === card.account.accountNumber);
    if (!cardAccount) throw new Error('No account of the person the card is issued on');
    await page.getByLabel('Account number').fill(cardAccount.accountNumber);
    await page
      .getByRole('radio', { name: new RegExp(cardAccount.accountName) })
      .first()
      .check();
    await look(page, testInfo, 'save-card');
    await page.getByRole('button', { name: 'Save Card' }).click();
    await granted(page);
    expect(cardCalls).toEqual([]);

    const { token } = await storedSession(page);
    const accounts = await page.request.get('/api/accounts/user', {
      headers: { authorization: `Bearer ${token}` },
    });
    const listed = (await accounts.json()) as {
      accounts: Array<{ accountNumber: string; integrations?: { card?: object } }>;
    };
    const saved = listed.accounts.find((a) => a.accountNumber === cardAccount.accountNumber);
    expect(saved?.integrations?.card).toMatchObject({ active: true, linked: true });
  });
});
