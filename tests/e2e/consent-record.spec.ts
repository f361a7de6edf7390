import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { RECEIPT_PARAM, WITHDRAW_LINE, WITHDRAW_NOTE } from '../../src/domain/consent-record';
import { expectNoViolations } from './axe';
import { addVirtualAuthenticator, signUpThroughPanel, uniquePhone } from './auth-support';
import { E2E } from './e2e-env';
import { createConsent, snap } from './merchant';
import { payWithCard } from './pay-now-support';

// A consent record that proves itself and is withdrawn as easily as it was given
// (docs/payer-consents.md): the line before 'Consent' says where it is withdrawn; the grant sends
// an SMS receipt whose link opens that one consent with no sign-in, where the passkey withdraws it;
// and withdrawing takes no more of the payer's steps than granting did. The record, its hash, the
// audit and the expiry are checked by the server's tests (consent-records.test.ts).

const merchant = { clientId: E2E.otherClientId, secret: E2E.otherClientSecret };
const MERCHANT = 'Other Merchant';

async function look(page: Page, testInfo: TestInfo, name: string) {
  await snap(page, testInfo, `consent-record-${name}`);
  await expectNoViolations(page);
}

test('the withdraw line, the SMS receipt’s link, and withdrawing in no more steps than granting', async ({
  page,
}, testInfo) => {
  // Each thing the payer does: a press, or an approval by their passkey.
  let grantSteps = 0;
  let withdrawSteps = 0;

  await addVirtualAuthenticator(page);
  await page.goto('/login');
  const phone = uniquePhone();
  await signUpThroughPanel(page, page.request, { fullName: 'Tunde Bello', phone });
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
  const consentId = await createConsent(
    page.request,
    { payments: [], dataSharing: { bvnData: true }, requirements: { requiresAuth: true } },
    merchant,
  );
  const url = `/r/${consentId}?clientId=${merchant.clientId}`;
  // The server's first screen draws the line wherever it draws the Consent button.
  const html = await (await page.request.get(url)).text();
  expect(html.includes(WITHDRAW_NOTE.before)).toBe(/>Consent<\/button>/.test(html));

  await page.goto(url);
  const grant = page.getByRole('button', { name: 'Consent', exact: true });
  for (;;) {
    // The data-sharing step's Confirm, then the grant's button.
    const confirm = page.getByRole('button', { name: 'Confirm', exact: true });
    await expect(grant.or(confirm).first()).toBeVisible();
    if (await grant.isVisible()) break;
    await confirm.click();
    grantSteps += 1;
  }
  const line = page.getByText(WITHDRAW_LINE);
  await expect(line).toBeVisible();
  const withdrawLink = line.getByRole('link', { name: WITHDRAW_NOTE.link });
  await expect(withdrawLink).toHaveAttribute('href', WITHDRAW_NOTE.href);
  // As the header's 'Your consents': beside the consent, in the page's colour, not default blue.
  await expect(withdrawLink).toHaveAttribute('target', '_blank');
  expect(await withdrawLink.evaluate((link) => getComputedStyle(link).color)).not.toBe(
    'rgb(0, 0, 238)',
  );
  await look(page, testInfo, 'withdraw-line');
  await grant.click();
  grantSteps += 2; // the press, and the passkey's approval
  await expect(
    page.getByText(`You have successfully granted consent to ${MERCHANT}`),
  ).toBeVisible();

  // The receipt: an SMS to the payer with the link to this consent.
  let link = '';
  await expect
    .poll(async () => {
      const answer = await page.request.get(
        `/api/sandbox/messages?phone=${encodeURIComponent(phone)}`,
      );
      const { messages } = (await answer.json()) as { messages: Array<{ body: string }> };
      link = /You granted .* (https?:\/\/\S+)$/.exec(messages[0]?.body ?? '')?.[1] ?? '';
      return link;
    })
    .toContain(`${RECEIPT_PARAM}=`);

  // On their list: how long the data sharing lasts, confirmed again with one press.
  await page.goto('/consents');
  const listed = page.getByRole('article', { name: MERCHANT });
  await expect(listed.getByText(/^Data sharing until \d+ \w+ \d{4}\./)).toBeVisible();
  await listed.getByRole('button', { name: 'Confirm data sharing' }).click();
  await expect(listed.getByRole('status')).toContainText('Confirmed.');
  await listed.getByText('Record of this consent').click();
  await expect(listed.getByText(/^[0-9a-f]{64}$/)).toBeVisible();
  await look(page, testInfo, 'list');

  // The link works with no session on this browser: only the passkey proves the payer.
  await page.evaluate(() => localStorage.clear());
  const path = new URL(link);
  await page.goto(`${path.pathname}${path.search}`);
  await expect(page.getByRole('heading', { name: 'Your consent' })).toBeVisible();
  const receipt = page.getByRole('article', { name: MERCHANT });
  await receipt.getByText('Record of this consent').click();
  await expect(receipt.getByText('Data sharing confirmed again')).toBeVisible();
  await look(page, testInfo, 'receipt');
  await receipt.getByRole('button', { name: `Revoke consent to ${MERCHANT}` }).click();
  withdrawSteps += 1;
  await page.getByRole('button', { name: 'Revoke consent', exact: true }).click();
  withdrawSteps += 2; // the press, and the passkey's approval
  await expect(receipt.getByRole('status')).toContainText('Revoked.');
  await expect(receipt.getByText('Revoked', { exact: true })).toBeVisible();
  await look(page, testInfo, 'receipt-revoked');

  expect(withdrawSteps).toBeLessThanOrEqual(grantSteps);
});

// The history says what happened in words, every entry: a payment made read as the code it is
// kept under ('payment executed').
test("the record's history words a payment made, as every other entry", async ({
  page,
}, testInfo) => {
  await addVirtualAuthenticator(page);
  await page.goto('/login');
  await signUpThroughPanel(page, page.request, { fullName: 'Bisi Okafor', phone: uniquePhone() });
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
  const consentId = await createConsent(
    page.request,
    { payments: [{ type: 'immediate', amount: 180_000, narration: 'Order #310 shoes' }] },
    merchant,
  );
  await page.goto(`/r/${consentId}?clientId=${merchant.clientId}`);
  await payWithCard(page, 'pin_only');
  await expect(
    page.getByText(`You have successfully granted consent to ${MERCHANT}`),
  ).toBeVisible();

  await page.goto('/consents');
  const listed = page.getByRole('article', { name: MERCHANT });
  await listed.getByText('Record of this consent').click();
  await expect(listed.getByRole('listitem').filter({ hasText: 'Payment made' })).toHaveCount(1);
  await expect(listed.getByText(/payment executed/i)).toHaveCount(0);
  await look(page, testInfo, 'history-payment');
});
