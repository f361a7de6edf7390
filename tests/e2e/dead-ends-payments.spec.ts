import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { signedUpSession, storeInFrame } from './auth-support';
import { expectNoViolations } from './axe';
import { E2E } from './e2e-env';
import {
  consentPath,
  createConsent,
  createForm,
  DELIVERY_FORM,
  embedHostUrl,
  printFramesOnFailure,
  receivedMessages,
  snap,
} from './merchant';
import { card, payWithCard, shownAccountNumber } from './pay-now-support';

printFramesOnFailure();

// The payment screens' last dead ends, in real Chromium against the real server, its sandbox bank
// and card network: each ends on something the payer can read and do.

const payment = { type: 'immediate', amount: 250_000, narration: 'Order #1042 groceries' };

async function open(page: Page) {
  const consentId = await createConsent(page.request, { payments: [payment] });
  await page.goto(consentPath(consentId));
  await expect(page.getByRole('heading', { name: 'Immediate Payment' })).toBeVisible();
  return consentId;
}

const transfer = (page: Page, accountNumber: string, amount: number) =>
  page.request.post(`${E2E.appOrigin}/api/sandbox/transfers`, { data: { accountNumber, amount } });

/** The failure's words, one entry per line as the payer reads them. */
const failureLines = async (page: Page) =>
  (await page.locator('.failure p').innerText()).split('\n').map((line) => line.trim());

/** A failed payment's ring: whole, in the failure colour, and no figure read or shown. */
async function expectEndedRing(page: Page) {
  await expect(page.locator('.progress-ring')).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(page.locator('.progress-ring')).not.toContainText('%');
  await expect(page.locator('.ring-value.failed')).toHaveAttribute('stroke-dashoffset', '0');
}

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  await snap(page, testInfo, `dead-ends-${name}`);
}

test.describe('payment dead ends', () => {
  test("a failed card payment's ring is whole, in the failure colour, with no figure", async ({
    page,
  }, testInfo) => {
    await open(page);
    await payWithCard(page, 'declined');
    await expect(page.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();
    await expect(page.getByText('✗ Payment Failed')).toBeVisible();
    await expectEndedRing(page);
    // Nothing ticked either: the money was never received.
    await expect(page.locator('.progress-steps li.done')).toHaveCount(0);
    await shoot(page, testInfo, 'card-failed-ring');
    await expectNoViolations(page);

    // Retry Payment starts the ring again from 0, with its figure. The card is declined again at
    // once, so the retried charge is held at the browser until the ring has been seen: on a
    // loaded machine its answer could otherwise come between two looks.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/payments\/card(\/public)?$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Retry Payment' }).click();
    await expect(page.getByRole('progressbar', { name: 'Payment progress' })).toBeVisible();
    release();
    await expect(page.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();
  });

  test("after 'Insufficient funds', Try Another Method does not offer the card that failed", async ({
    page,
  }, testInfo) => {
    await open(page);
    await payWithCard(page, 'insufficient_funds');
    await expect(page.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();
    await expect(page.locator('.failure p')).toContainText('Insufficient funds');
    await expectEndedRing(page);

    await page.getByRole('button', { name: 'Try Another Method' }).click();
    const methods = page.getByRole('group', { name: 'Payment methods' });
    await expect(methods.getByRole('button', { name: /Pay by Transfer/ })).toBeVisible();
    // A card may still be entered afresh, but the one that just failed is not offered again.
    await expect(methods.getByRole('button', { name: /Pay with Card/ })).toHaveCount(1);
    await expect(methods.getByRole('button', { name: /Pay with Card \|/ })).toHaveCount(0);
    await expect(methods).not.toContainText(card('insufficient_funds').number.slice(-4));
    await shoot(page, testInfo, 'methods-after-card-failed');
    await expectNoViolations(page);
  });

  test('a wrong amount, the account ended, then a late transfer: each return said in order, with the way on', async ({
    page,
  }, testInfo) => {
    await open(page);
    await page.getByRole('button', { name: /Pay by Transfer/ }).click();
    const accountNumber = await shownAccountNumber(page);
    await page.getByRole('button', { name: 'I have made the transfer' }).click();
    expect((await transfer(page, accountNumber, 100_000)).ok()).toBe(true);

    await expect(page.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();
    await expect
      .poll(() => failureLines(page))
      .toEqual([
        'Your transfer of ₦1,000.00 was sent back to you: it was not the amount due (₦2,500.00).',
        'Retry Payment to send exactly ₦2,500.00 to the same account, or try another method.',
      ]);
    await expectEndedRing(page);

    // The bank ends the account, and money sent to it anyway comes back: both are said, in order.
    const expired = await page.request.post(
      `${E2E.appOrigin}/api/sandbox/virtual-accounts/${accountNumber}/expire`,
    );
    expect(expired.ok()).toBe(true);
    await expect
      .poll(async () => (await failureLines(page)).at(-1))
      .toBe('That account is closed: Retry Payment gives you a new one, or try another method.');
    expect((await transfer(page, accountNumber, payment.amount)).ok()).toBe(true);
    await expect
      .poll(() => failureLines(page))
      .toEqual([
        'Your transfer of ₦1,000.00 was sent back to you: it was not the amount due (₦2,500.00).',
        'Your transfer of ₦2,500.00 was sent back to you: it reached the one-time account after the account expired.',
        'That account is closed: Retry Payment gives you a new one, or try another method.',
      ]);
    await expect(page.getByRole('alert').filter({ hasText: 'Payment Failed' })).toBeVisible();
    await expectEndedRing(page);
    await shoot(page, testInfo, 'transfers-returned');
    await expectNoViolations(page);

    // The way on, by keyboard: Retry Payment gives a new account, which takes the amount due.
    await page.getByRole('button', { name: 'Retry Payment' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText(/^\d+m : \d{2}s$/)).toBeVisible();
    const fresh = await shownAccountNumber(page);
    expect(fresh).not.toBe(accountNumber);
    await page.getByRole('button', { name: 'I have made the transfer' }).click();
    expect((await transfer(page, fresh, payment.amount)).ok()).toBe(true);
    await expect(page.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();
  });

  test('a declined form-only consent says so plainly, and Close goes back to where the payer came from', async ({
    page,
  }, testInfo) => {
    const session = await signedUpSession(page);
    await page.evaluate(({ token, user }) => {
      localStorage.setItem('paymonaToken', token);
      localStorage.setItem('paymonaUser', user);
    }, session);
    const formId = await createForm(page.request, DELIVERY_FORM);
    const consentId = await createConsent(page.request, { formId });
    // The payer comes from the merchant's page.
    await page.goto(`${E2E.hostOrigin}/health`);
    await page.goto(consentPath(consentId));
    await page.getByRole('button', { name: 'Decline' }).click();

    await expect(page.getByRole('heading', { name: 'Consent Declined' })).toBeVisible();
    await expect(
      page.getByText(/^You declined this request from .+\. Nothing was granted to them\.$/),
    ).toBeVisible();
    await expect(page.getByText('Consent was rejected by user')).toHaveCount(0);
    await shoot(page, testInfo, 'declined-standalone');
    await expectNoViolations(page);

    // The browser keeps a window it did not open by script: Close goes back instead.
    await page.getByRole('button', { name: 'Close' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`${E2E.hostOrigin}/health`);
  });

  test('a declined form-only consent, embedded: Close tells the parent, in the spec words', async ({
    page,
  }, testInfo) => {
    const session = await signedUpSession(page);
    const formId = await createForm(page.request, DELIVERY_FORM);
    const consentId = await createConsent(page.request, { formId });
    await page.goto(embedHostUrl(consentPath(consentId, 'embed=true')));
    const frame = page.frameLocator('#consent');
    await expect(frame.getByRole('button', { name: 'Authenticate' })).toBeVisible();
    await storeInFrame(page, session);
    await page.reload();
    await frame.getByRole('button', { name: 'Decline' }).click();
    await expect(frame.getByRole('heading', { name: 'Consent Declined' })).toBeVisible();
    await expect(
      frame.getByText(/^You declined this request from .+\. Nothing was granted to them\.$/),
    ).toBeVisible();
    await shoot(page, testInfo, 'declined-embedded');
    await expectNoViolations(page);

    const failedMessages = async () =>
      (await receivedMessages(page)).filter((m) => m.data.type === 'oya-money-consent-failed');
    await expect.poll(async () => (await failedMessages()).length).toBe(1);
    await frame.getByRole('button', { name: 'Close' }).click();
    await expect(frame.getByRole('button', { name: 'Closing...' })).toBeDisabled();
    await expect
      .poll(async () => (await failedMessages()).map((m) => m.data))
      .toEqual([
        { type: 'oya-money-consent-failed', consentId, error: 'Consent was rejected by user' },
        { type: 'oya-money-consent-failed', consentId, error: 'Consent was rejected by user' },
      ]);
  });
});
