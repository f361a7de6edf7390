import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { secretsInCopy } from '../../src/domain/test-support/copy-secrets';
import { SANDBOX_CARDS } from '../../src/server/sandbox/fixtures';
import { expectNoViolations } from './axe';
import {
  addVirtualAuthenticator,
  signUpThroughPanel,
  storedSession,
  uniquePhone,
} from './auth-support';
import { E2E } from './e2e-env';
import {
  chooseResult,
  findAccount,
  linked,
  ownAccount,
  ownPerson,
  sendTestTransfer,
} from './linking-support';
import { consentPath, createConsent, snap } from './merchant';

// The payer's rights on /consents (docs/payer-rights.md, docs/payer-consents.md "Who looked at
// your BVN", "Complaints") in real Chromium against the real server: a payer who paid by card
// raises a complaint about the payment and sees its reference, targets and state, downloads a
// copy of their data (every consent version, no card number, PIN, code or BVN in it) and opens
// its printable page, then asks for their data to be erased, confirming it with the passkey, and
// reads what is kept and why once signed out; a payer who linked an account for a
// consent sharing their BVN sees every lookup made with it.

const other = { clientId: E2E.otherClientId, secret: E2E.otherClientSecret };
const basic = ({ clientId, secret }: { clientId: string; secret: string }) =>
  `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;

async function look(page: Page, testInfo: TestInfo, name: string) {
  await snap(page, testInfo, `payer-rights-${name}`);
  await expectNoViolations(page);
}

/** Every SMS the sandbox holds for a number, newest first. */
async function messagesTo(request: APIRequestContext, phone: string): Promise<string[]> {
  const response = await request.get(`/api/sandbox/messages?phone=${encodeURIComponent(phone)}`);
  const body = (await response.json()) as { messages: Array<{ body: string }> };
  return body.messages.map((message) => message.body);
}

/**
 * How long a request's job may take to show on the page: queued with the request, the server's
 * worker takes it at once (woken by the queue) or at its 2 s poll, and the page reads the
 * requests again every 2 s while one is being answered.
 */
const JOB_ANSWERED_MS = 20_000;

/**
 * Download my data on /consents: the copy being prepared, then ready with its link's expiry; the
 * link read from the payer's SMS. Answers the SMS link's token and the file it opens.
 */
async function downloadCopy(page: Page, phone: string) {
  const data = page.getByRole('region', { name: 'Your data' });
  await data.getByRole('button', { name: 'Download my data' }).click();
  // Being prepared until the copy's job, which the server runs by itself, has answered.
  await expect(data.getByText(/^Ready\. We sent the link to your phone by SMS/)).toBeVisible({
    timeout: JOB_ANSWERED_MS,
  });
  await expect(data).toContainText(/it opens your copy until \d{1,2} \w{3} \d{4}/);
  // Ready is the one word on the copy: nothing left beside it says it is still being made.
  await expect(data.getByText(/prepar/i)).toHaveCount(0);
  await expect(data.getByRole('listitem').filter({ hasText: 'Copy of your data' })).toContainText(
    /received \d{1,2} \w{3} \d{4}, done \d{1,2} \w{3} \d{4}/,
  );
  let token = '';
  await expect
    .poll(async () => {
      const ready = (await messagesTo(page.request, phone)).find((body) =>
        body.startsWith('Oya Money: the copy of your data you asked for is ready.'),
      );
      token = /[?&]my-data=(\S+)$/.exec(ready ?? '')?.[1] ?? '';
      return token;
    })
    .not.toBe('');
  // The list keeps the ready copy's link, the SMS's, with how long it lasts.
  const listed = data.getByRole('listitem').filter({ hasText: 'Copy of your data' });
  await expect(listed).toContainText(/it opens your copy until \d{1,2} \w{3} \d{4}/);
  const escaped = token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(listed.getByRole('link', { name: 'Open your copy' })).toHaveAttribute(
    'href',
    new RegExp(`/consents\\?my-data=${escaped}$`),
  );
  const file = await page.request.get(`/my-data/${token}`);
  expect(file.status()).toBe(200);
  expect(file.headers()['content-disposition']).toMatch(/^attachment; filename="oya-money-my-data/);
  const text = await file.text();
  return { token, text, copy: JSON.parse(text) as TCopy };
}

type TCopy = {
  profile: { fullName: string; phoneNumber: string; bvn: { last4: string } | null };
  consents: Array<{
    consentId: string;
    recordVersions: Array<{ record: unknown }>;
    history: Array<{ type: string }>;
  }>;
};

/** Every version of each consent's record is in the copy, one for each grant in its history. */
function expectEveryVersion(copy: TCopy, consentIds: string[]) {
  expect(copy.consents.map((c) => c.consentId).sort()).toEqual([...consentIds].sort());
  for (const consent of copy.consents) {
    const grants = consent.history.filter((event) => event.type === 'consent.granted');
    expect(grants.length).toBeGreaterThan(0);
    expect(consent.recordVersions).toHaveLength(grants.length);
    for (const version of consent.recordVersions) expect(version.record).toBeTruthy();
  }
}

/** No code the payer was sent by SMS is in the copy. */
async function expectNoCodes(request: APIRequestContext, phone: string, text: string) {
  const codes = (await messagesTo(request, phone)).flatMap((body) =>
    [...body.matchAll(/code is (\d{6})/g)].map((match) => match[1]),
  );
  expect(codes.length).toBeGreaterThan(0);
  for (const code of codes) expect(text).not.toContain(code);
}

test.describe('the payer’s data rights', () => {
  test('a complaint, a copy of the data and its erasure @both-widths', async ({
    page,
  }, testInfo) => {
    // One journey through sign-up, a card payment, a complaint, a copy and an erasure.
    test.slow();
    const phone = uniquePhone();
    await addVirtualAuthenticator(page);
    await page.goto('/login');
    await signUpThroughPanel(page, page.request, { fullName: 'Chiamaka Obi', phone });
    await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();

    // Paid by card while signed in: the consent and its payment are the payer's.
    const consentId = await createConsent(page.request, {
      payments: [{ type: 'immediate', amount: 320_000, narration: 'Order #4471' }],
    });
    await page.goto(consentPath(consentId));
    const card = SANDBOX_CARDS.find((c) => c.scenario === 'pin_only');
    if (!card) throw new Error('No PIN-only sandbox card');
    await page.getByRole('button', { name: /Pay with Card/ }).click();
    await page.getByLabel('Card Number').fill(card.number);
    await page.getByLabel('Expiry date').fill(card.expiry);
    await page.getByLabel('CVV').fill(card.cvv);
    await page.getByRole('button', { name: 'Continue to PIN' }).click();
    await page.getByLabel('Card PIN').fill(card.pin);
    await page.getByRole('button', { name: 'Complete Payment' }).click();
    await expect(page.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();

    // Raise a complaint about the payment: its reference at once, its targets and its state.
    await page.goto('/consents');
    const complaints = page.getByRole('region', { name: 'Complaints' });
    await complaints.getByRole('button', { name: 'Raise a complaint' }).click();
    await expect(complaints.getByLabel('Payment')).toBeFocused();
    await complaints.getByRole('button', { name: 'Send complaint' }).click();
    await expect(complaints.locator('p', { hasText: 'Choose a payment' })).toBeVisible();
    await expect(complaints.getByLabel('Payment')).toHaveAttribute('aria-invalid', 'true');
    const choices = complaints.getByLabel('Payment').getByRole('option');
    await expect(choices).toHaveCount(2);
    await expect(choices.nth(1)).toHaveText(/^Tola Stores · ₦3,200\.00 · Order #4471 · /);
    await complaints.getByLabel('Payment').selectOption({ index: 1 });
    await complaints.getByLabel('What went wrong').selectOption('charged_twice');
    await complaints
      .getByLabel('Tell us what happened')
      .fill('My bank statement shows this order twice.');
    await look(page, testInfo, 'complaint-form');
    await complaints.getByRole('button', { name: 'Send complaint' }).click();
    const raised = complaints.getByRole('status');
    await expect(raised).toContainText(/Its reference is CP-[0-9A-Z]{8}/);
    await expect(raised).toBeFocused();
    const reference = /CP-[0-9A-Z]{8}/.exec((await raised.textContent()) ?? '')?.[0] ?? '';
    const listed = complaints.getByRole('article', { name: `Complaint ${reference}` });
    await expect(listed).toContainText('Received');
    await expect(listed).toContainText('Tola Stores');
    await expect(listed).toContainText('₦3,200.00');
    await expect(listed).toContainText('I was charged twice');
    await expect(listed).toContainText(/To be acknowledged by \d{1,2} \w{3} \d{4}/);
    await expect(listed).toContainText(/To be resolved by \d{1,2} \w{3} \d{4}/);
    await look(page, testInfo, 'complaint-raised');
    // Seen again after a reload: the payer's list is the server's.
    await page.reload();
    await expect(listed).toContainText('Received');

    // Download my data: the file holds the consent's every version and no secret in clear.
    const { token, text, copy } = await downloadCopy(page, phone);
    expectEveryVersion(copy, [consentId]);
    expect(copy.profile.fullName).toBe('Chiamaka Obi');
    expect(text).not.toContain(card.number);
    expect(text).not.toContain(card.number.slice(0, 12));
    // No PIN, card number, CVV or BVN under a key of any shape, nor as long digits in any text.
    expect(secretsInCopy(copy, [copy.profile.phoneNumber])).toEqual([]);
    await expectNoCodes(page.request, phone, text);
    await look(page, testInfo, 'copy-ready');

    // Its printable page: the same content, laid out to print, with the file to keep.
    await page.goto(`/consents?my-data=${encodeURIComponent(token)}`);
    await expect(page.getByRole('heading', { name: 'Your copy', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Print this page' })).toBeVisible();
    const profile = page.getByRole('region', { name: 'Profile' });
    await expect(profile).toContainText('Chiamaka Obi');
    const consents = page.getByRole('region', {
      name: 'Consents, every version of their record, and their history',
    });
    await expect(consents).toContainText(consentId);
    await expect(consents).toContainText('consent.granted');
    // The complaint raised above, and the section of who looked at the BVN.
    await expect(page.getByRole('region', { name: 'Complaints', exact: true })).toContainText(
      reference,
    );
    await expect(page.getByRole('region', { name: 'Who looked at your BVN' })).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download the file (JSON)' }).click();
    expect((await download).suggestedFilename()).toMatch(/^oya-money-my-data-.*\.json$/);
    await look(page, testInfo, 'copy-page');
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('button', { name: 'Print this page' })).toBeHidden();
    await snap(page, testInfo, 'payer-rights-copy-print');
    await page.emulateMedia({ media: 'screen' });

    // A made-up link opens nothing, and says how to get a copy.
    await page.goto(`/consents?my-data=${encodeURIComponent(`${token.slice(0, -4)}AAAA`)}`);
    await expect(page.getByRole('alert')).toContainText('This link has expired or is not right.');

    // Erase my data: what is kept and why before confirming, then the request with its dates.
    await page.goto('/consents');
    const data = page.getByRole('region', { name: 'Your data' });
    await data.getByRole('button', { name: 'Erase my data' }).click();
    const confirm = data.getByRole('group', { name: 'Erase my data' });
    await expect(confirm).toContainText('What we keep, and why');
    await expect(confirm).toContainText('Money Laundering (Prevention and Prohibition) Act 2022');
    await expect(confirm).toContainText('You will confirm with your passkey.');
    await look(page, testInfo, 'erasure-confirm');
    const { token: bearer } = await storedSession(page);
    // Confirmed with the passkey at the moment of asking (the virtual authenticator signs it).
    const signed = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/users/data-erasures') &&
        response.request().method() === 'POST',
    );
    await confirm.getByRole('button', { name: 'Erase my data' }).click();
    const erasure = await signed;
    expect(erasure.status()).toBe(202);
    expect(erasure.request().postDataJSON()).toMatchObject({
      nonce: expect.any(String),
      response: { response: { signature: expect.any(String) } },
    });
    // The answer on asking: when, by when, and what we keep and why; it outlives the session.
    const answer = page.getByRole('region', { name: 'We are erasing your data' });
    await expect(answer).toContainText(/We received your request on \d{1,2} \w{3} \d{4}/);
    await expect(answer.getByRole('list', { name: 'What we keep, and why' })).toContainText(
      'Money Laundering (Prevention and Prohibition) Act 2022',
    );

    // The erasure's job, run by the server by itself, ends the payer's sessions: the page, which
    // reads the requests while the erasure waits, shows itself signed out, with the way to sign
    // in, and so after a reload.
    const signedOut = page.getByText(
      'Sign in to see the consents you have granted, and to revoke them.',
    );
    await expect(signedOut).toBeVisible({ timeout: JOB_ANSWERED_MS });
    await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Your data', exact: true })).toBeHidden();
    await expect(answer).toContainText('Money Laundering (Prevention and Prohibition) Act 2022');
    await look(page, testInfo, 'erased-signed-out');
    await page.reload();
    await expect(signedOut).toBeVisible();
    await expect(page.getByText(/could not be loaded/)).toBeHidden();
    const after = await page.request.get('/api/users/data-requests', {
      headers: { authorization: `Bearer ${bearer ?? ''}` },
    });
    expect(after.status()).toBe(401);
  });

  test('every lookup made with the payer’s BVN, after a link and a merchant’s read @both-widths', async ({
    page,
  }, testInfo) => {
    const phone = uniquePhone();
    await addVirtualAuthenticator(page);
    await page.goto('/login');
    await signUpThroughPanel(page, page.request, { fullName: 'Kemi Adewale', phone });
    await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
    // Their own account, under the BVN of a person minted for them and verified first.
    const target = await ownAccount(page, 'links_by_test_transfer');
    const consentId = await createConsent(
      page.request,
      {
        payments: [1, 2].map((month) => ({
          type: 'future',
          amount: 450_000,
          amountType: 'fixed',
          narration: 'Meal box',
          frequency: 'monthly',
          interval: 1,
          dueDate: new Date(Date.UTC(2027, month, 1, 9)).toISOString(),
        })),
        dataSharing: { bvnData: true },
        requirements: { requiresAuth: true },
      },
      other,
    );
    await page.goto(`/r/${consentId}?clientId=${other.clientId}`);
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(page.getByText(/would like to collect 2 payments totalling/)).toBeVisible();
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await findAccount(page, target.accountNumber);
    await chooseResult(page, target);
    await sendTestTransfer(page, target);
    await linked(page);
    await page.getByRole('button', { name: 'Consent', exact: true }).click();
    await expect(
      page.getByText('You have successfully granted consent to Other Merchant'),
    ).toBeVisible();

    // The merchant reads the BVN the consent shares.
    const shared = await page.request.get(`/api/v1/consents/${consentId}/shared-data/bvn`, {
      headers: { authorization: basic(other) },
    });
    expect(shared.status(), await shared.text()).toBe(200);

    await page.goto('/consents');
    const lookups = page.getByRole('region', { name: 'Who looked at my BVN' });
    const items = lookups.getByRole('list', { name: 'Who looked at my BVN' }).getByRole('listitem');
    await expect(
      items.filter({ hasText: /^Your BVN was sent to the BVN registry through/ }),
    ).toHaveCount(1);
    await expect(items.filter({ hasText: /^Other Merchant received your BVN/ })).toHaveCount(1);
    await expect(items.filter({ hasText: /^Other Merchant received/ })).toContainText(
      /\d{1,2} \w{3} \d{4}, \d{1,2}:\d{2} (am|pm)/,
    );
    const owner = items.filter({ hasText: /was looked up through/ });
    if ((await owner.count()) > 0) {
      await expect(owner.first()).toContainText(`****${target.accountNumber.slice(-4)}`);
    }
    await look(page, testInfo, 'bvn-lookups');

    // The copy of this payer's data: the verified BVN's last 4 digits, never all of it.
    const person = await ownPerson(page);
    const { text, copy } = await downloadCopy(page, phone);
    expectEveryVersion(copy, [consentId]);
    expect(copy.profile.bvn?.last4).toBe(person.bvn.slice(-4));
    expect(text).not.toContain(person.bvn);
    expect(text).not.toContain(target.accountNumber);
    expect(secretsInCopy(copy, [copy.profile.phoneNumber])).toEqual([]);
    await expectNoCodes(page.request, phone, text);
  });
});
