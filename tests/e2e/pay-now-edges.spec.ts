import { expect, test, type Page } from '@playwright/test';
import { expectNoViolations } from './axe';
import { E2E } from './e2e-env';
import { consentPath, createConsent, snap } from './merchant';
import { card, payWithCard, shownAccountNumber } from './pay-now-support';

// The pay-now screen's edges, in real Chromium against the real server, its sandbox bank and card
// network: every state has a way forward and says what is true.

const payment = { type: 'immediate', amount: 250_000, narration: 'Order #1042 groceries' };

async function open(page: Page) {
  const consentId = await createConsent(page.request, { payments: [payment] });
  await page.goto(consentPath(consentId));
  await expect(page.getByRole('heading', { name: 'Immediate Payment' })).toBeVisible();
  return consentId;
}

const progress = (page: Page) => page.getByRole('progressbar', { name: 'Payment progress' });

test.describe('pay-now edges', () => {
  test("item 3: 'I have made the transfer' is in progress at 33% 'Payment Received', no longer 'due now'", async ({
    page,
  }, testInfo) => {
    await open(page);
    await expect(page.getByText('₦2,500.00 due now')).toBeVisible();
    await page.getByRole('button', { name: /Pay by Transfer/ }).click();
    const accountNumber = await shownAccountNumber(page);
    await page.getByRole('button', { name: 'I have made the transfer' }).click();

    await expect(page.getByText('Waiting for transfer confirmation...')).toBeVisible();
    await expect(progress(page)).toHaveAttribute('aria-valuenow', '33');
    // 'Payment Received' ticked, 'Payment Processed' not yet (spec §2: done from 33 and 66).
    await expect(page.locator('.progress-steps li.done')).toHaveText([/Payment Received/]);
    await expect(page.getByText('In progress', { exact: true })).toBeVisible();
    await expect(page.getByText('₦2,500.00 being paid')).toBeVisible();
    await expect(page.getByText(/due now/)).toHaveCount(0);
    // The payer can still see where to send the money, or cancel.
    await expect(page.getByRole('button', { name: 'View Transfer Details' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'cancel' })).toBeVisible();
    await snap(page, testInfo, 'pay-now-edge-transfer-in-progress');
    await expectNoViolations(page);

    // A reload keeps it a transfer (item 12: the source never drops to 'Card').
    await page.reload();
    await expect(progress(page)).toHaveAttribute('aria-valuenow', '33');
    await expect(page.locator('.payment-source')).toContainText('Bank transfer');

    const sent = await page.request.post(`${E2E.appOrigin}/api/sandbox/transfers`, {
      data: { accountNumber, amount: payment.amount },
    });
    expect(sent.ok()).toBe(true);
    // Paid: the header says so (the page then moves on to Consent Granted).
    await expect(page.getByText('₦2,500.00 paid')).toBeVisible();
  });

  test('item 5: a wrong OTP ends that attempt: no boxes, no Verify OTP, Retry Payment', async ({
    page,
  }, testInfo) => {
    await open(page);
    await payWithCard(page, 'pin_otp');
    await expect(page.getByText('Verify Payment')).toBeVisible();
    for (const [index, digit] of [...'111111'].entries()) {
      await page.getByLabel(`Digit ${index + 1} of 6`).fill(digit);
    }
    await page.getByRole('button', { name: 'Verify OTP' }).click();

    await expect(page.getByRole('alert')).toContainText('OTP verification failed');
    await expect(page.getByLabel('Digit 1 of 6')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Verify OTP' })).toHaveCount(0);
    await expect(page.getByText('No OTP data available')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Retry Payment' })).toBeVisible();
    await snap(page, testInfo, 'pay-now-edge-otp-refused');
    await expectNoViolations(page);

    // Retry Payment: a new charge (its PIN asked again: the page keeps none), a new OTP screen
    // with empty boxes, and the right OTP pays.
    await page.getByRole('button', { name: 'Retry Payment' }).click();
    await page.getByLabel('Card PIN').fill(card('pin_otp').pin);
    await page.getByRole('button', { name: 'Complete Payment' }).click();
    await expect(page.getByLabel('Digit 1 of 6')).toHaveValue('');
    for (const [index, digit] of [...card('pin_otp').otp].entries()) {
      await page.getByLabel(`Digit ${index + 1} of 6`).fill(digit);
    }
    await page.getByRole('button', { name: 'Verify OTP' }).click();
    await expect(page.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();
  });

  test('item 4: a bank that does not answer: still answering, a reload resumes it, then nothing was charged', async ({
    page,
  }, testInfo) => {
    await open(page);
    await payWithCard(page, 'timeout');
    // The charge call answers after CARD_ANSWER_WAIT_MS that the bank is still answering.
    await expect(page.getByText('Your bank is still answering...').first()).toBeVisible();
    // Nothing is paid while the bank answers: no success, not even for a moment.
    await expect(page.getByText('✓ Payment Successful')).toHaveCount(0);
    await expect(page.getByRole('progressbar', { name: 'Payment progress' })).toHaveAttribute(
      'aria-valuenow',
      '0',
    );
    await snap(page, testInfo, 'pay-now-edge-bank-answering');
    // A reload while the bank is silent comes back to the same wait, not to the methods.
    await page.reload();
    await expect(page.getByText('Your bank is still answering...').first()).toBeVisible();
    await expect(page.getByRole('button', { name: /Pay with Card/ })).toHaveCount(0);
    // The network gives up: the page says plainly that nothing was taken, and offers a way on.
    await expect(page.getByText('Your bank did not answer. Nothing was charged.')).toBeVisible();
    await expect(page.getByText('✗ Payment Failed')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Try Another Method' })).toBeVisible();
    await snap(page, testInfo, 'pay-now-edge-nothing-charged');
    await expectNoViolations(page);
    // Another card pays at once: the ended charge no longer blocks the payment.
    await page.getByRole('button', { name: 'Try Another Method' }).click();
    await payWithCard(page, 'pin_only');
    await expect(page.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();
  });

  test('item 1: waiting on 3-D Secure offers Reconnect (the challenge again) and cancel', async ({
    page,
    context,
  }, testInfo) => {
    await open(page);
    await payWithCard(page, 'three_ds');
    const [first] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: 'Continue to Authentication' }).click(),
    ]);
    const challengeUrl = first.url();
    // The payer closes the bank's tab without answering.
    await first.close();

    await expect(page.getByText('Awaiting 3D Secure authentication...')).toBeVisible();
    await expect(
      page.getByRole('heading', { name: 'Awaiting 3D Secure Authentication' }),
    ).toBeVisible();
    await expect(
      page.getByText('Please complete the authentication in the new tab, then return here...'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'cancel' })).toBeVisible();
    await snap(page, testInfo, 'pay-now-edge-awaiting-3ds');
    await expectNoViolations(page);

    const [again] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: 'Reconnect' }).click(),
    ]);
    expect(again.url()).toBe(challengeUrl);
    await again.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();
  });

  // Sent again, the same card meets the same refusal: after one the issuer gave for the money
  // itself, the main button is another way to pay, and the retry stays beside it.
  for (const scenario of ['insufficient_funds', 'declined'] as const) {
    test(`refused for ${scenario}: 'Try Another Method' is the main action, 'Retry Payment' beside it`, async ({
      page,
    }, testInfo) => {
      await open(page);
      await payWithCard(page, scenario);
      const failure = page.getByRole('alert').filter({ hasText: 'Payment Failed' });
      await expect(failure.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();
      await expect(failure.getByRole('button')).toHaveText(['Try Another Method', 'Retry Payment']);
      await expect(failure.getByRole('button', { name: 'Try Another Method' })).toHaveClass(
        /\bprimary\b/,
      );
      await expect(failure.getByRole('button', { name: 'Retry Payment' })).toHaveClass(
        /\bsecondary\b/,
      );
      await snap(page, testInfo, `pay-now-edge-refused-${scenario}`);
      await expectNoViolations(page);

      await failure.getByRole('button', { name: 'Try Another Method' }).click();
      const methods = page.getByRole('group', { name: 'Payment methods' });
      await expect(methods.getByRole('button', { name: /Pay by Transfer/ })).toBeVisible();
    });
  }

  test("a 3-D Secure check declined may pass another time: 'Retry Payment' stays the main action", async ({
    page,
    context,
  }) => {
    await open(page);
    await payWithCard(page, 'three_ds');
    const [challenge] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: 'Continue to Authentication' }).click(),
    ]);
    await challenge.getByRole('button', { name: 'Decline' }).click();
    const failure = page.getByRole('alert').filter({ hasText: 'Payment Failed' });
    await expect(failure.getByText('3DS authentication failed')).toBeVisible();
    await expect(failure.getByRole('button')).toHaveText(['Retry Payment', 'Try Another Method']);
    await expect(failure.getByRole('button', { name: 'Retry Payment' })).toHaveClass(/\bprimary\b/);
  });

  // Fails today: the server ends the attempt (the sweep answers ended: 1), but a page still on
  // '3D Secure Authentication Required' (the payer never opened the challenge) does not move on.
  test('item 1: a 3-D Secure challenge unanswered for 10 minutes ends the attempt, and the page says it failed', async ({
    page,
  }, testInfo) => {
    const consentId = await open(page);
    await payWithCard(page, 'three_ds');
    await expect(
      page.getByRole('heading', { name: '3D Secure Authentication Required' }),
    ).toBeVisible();
    const read = await page.request.get(`/api/consent/${consentId}?clientId=${E2E.clientId}`);
    const { paymentId } = (await read.json()).consent.payments[0];
    // Its 10 minutes pass (the test server's clock hand), and the reconciler's sweep ends it.
    const swept = await page.request.post(`/__e2e/payments/${paymentId}/3ds-unanswered`);
    expect(await swept.json()).toMatchObject({ ended: 1 });

    await expect(page.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();
    await expect(page.getByText('3DS authentication failed')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Continue to Authentication' })).toHaveCount(0);
    await snap(page, testInfo, 'pay-now-edge-3ds-expired');
    await expectNoViolations(page);
  });

  test('item 2: a transfer of the wrong amount is said to be sent back, with a way on', async ({
    page,
  }, testInfo) => {
    await open(page);
    await page.getByRole('button', { name: /Pay by Transfer/ }).click();
    const accountNumber = await shownAccountNumber(page);
    await page.getByRole('button', { name: 'I have made the transfer' }).click();
    const wrong = await page.request.post(`${E2E.appOrigin}/api/sandbox/transfers`, {
      data: { accountNumber, amount: 100_000 },
    });
    expect(wrong.ok()).toBe(true);

    await expect(page.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();
    await expect(
      page.getByText(
        'Your transfer of ₦1,000.00 was sent back to you: it was not the amount due (₦2,500.00).',
      ),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Try Another Method' })).toBeVisible();
    await snap(page, testInfo, 'pay-now-edge-transfer-returned');
    await expectNoViolations(page);

    // Retry Payment: the account, still open, takes the right amount.
    await page.getByRole('button', { name: 'Retry Payment' }).click();
    expect(await shownAccountNumber(page)).toBe(accountNumber);
    await page.getByRole('button', { name: 'I have made the transfer' }).click();
    await page.request.post(`${E2E.appOrigin}/api/sandbox/transfers`, {
      data: { accountNumber, amount: payment.amount },
    });
    await expect(page.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();
  });

  test('item 2: an account the bank expired shows expired; money sent to it is said returned', async ({
    page,
  }, testInfo) => {
    await open(page);
    await page.getByRole('button', { name: /Pay by Transfer/ }).click();
    const first = await shownAccountNumber(page);
    // The bank ends the account early: the page's own countdown has not run out.
    const expired = await page.request.post(
      `${E2E.appOrigin}/api/sandbox/virtual-accounts/${first}/expire`,
    );
    expect(expired.ok()).toBe(true);
    await expect(page.getByText('This account has expired. Do not transfer to it.')).toBeVisible();
    await expect(page.getByText(/^\d+m : \d{2}s$/)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'I have made the transfer' })).toBeDisabled();
    await snap(page, testInfo, 'pay-now-edge-account-ended');

    // A transfer to it anyway goes back, and the page says so.
    await page.request.post(`${E2E.appOrigin}/api/sandbox/transfers`, {
      data: { accountNumber: first, amount: payment.amount },
    });
    await expect(
      page.getByText(
        'Your transfer of ₦2,500.00 was sent back to you: it reached the one-time account after the account expired.',
      ),
    ).toBeVisible();
    await snap(page, testInfo, 'pay-now-edge-expired-returned');
    await expectNoViolations(page);

    // Retry Payment: a fresh account with its countdown.
    await page.getByRole('button', { name: 'Retry Payment' }).click();
    await expect(page.getByText(/^\d+m : \d{2}s$/)).toBeVisible();
    expect(await shownAccountNumber(page)).not.toBe(first);
  });
});

test.describe('a part of the page whose code does not come', () => {
  test("says so in its place; 'Try Again' waits for the server, then opens the page again", async ({
    page,
  }, testInfo) => {
    await open(page);
    // The connection drops: the page's own files fail (never our API, which is not cut here).
    let online = false;
    await page.route(/\/(assets\/transfer-details-view-[^/]*\.js|favicon\.svg)$/, (route) =>
      online ? route.fallback() : route.abort('internetdisconnected'),
    );
    await page.getByRole('button', { name: /Pay by Transfer/ }).click();
    const failed = page.getByRole('alert').filter({ hasText: 'Something went wrong' });
    await expect(failed).toHaveText(/^Something went wrong\. Please try again\./);
    // The rest of the page stays: the payment's header and its amount.
    await expect(page.getByRole('heading', { name: 'Immediate Payment' })).toBeVisible();
    await expect(page.getByText('₦2,500.00 due now')).toBeVisible();
    await snap(page, testInfo, 'pay-now-part-failed');
    await expectNoViolations(page);

    // Still offline: the page stays as it is, not the browser's offline page.
    const tryAgain = failed.getByRole('button', { name: 'Try Again' });
    await tryAgain.click();
    await expect(tryAgain).toBeEnabled();
    await expect(failed).toBeVisible();

    // Back online: the page opens again, and the transfer's details come.
    online = true;
    await Promise.all([page.waitForEvent('load'), tryAgain.click()]);
    await expect(page.getByRole('heading', { name: 'Immediate Payment' })).toBeVisible();
    await page.getByRole('button', { name: /Pay by Transfer/ }).click();
    await expect(page.getByText('Account name')).toBeVisible();
    await shownAccountNumber(page);
  });

  test("the calling code: the call says 'API request failed', and its next try gets on once the server answers", async ({
    page,
  }, testInfo) => {
    let online = false;
    await page.route(/\/(assets\/call-[^/]*\.js|favicon\.svg)$/, (route) =>
      online ? route.fallback() : route.abort('internetdisconnected'),
    );
    await open(page);
    await page.getByRole('button', { name: /Pay by Transfer/ }).click();
    const failed = page.getByRole('alert').filter({ hasText: 'API request failed' });
    await expect(failed).toBeVisible();
    await snap(page, testInfo, 'pay-now-call-code-failed');

    // Back online: the try goes through, or, where the browser kept the failed code (Chromium
    // may), the page opens again and the payer chooses again.
    online = true;
    await failed.getByRole('button', { name: 'Try Again' }).click();
    const methods = page.getByRole('button', { name: /Pay by Transfer/ });
    await expect(methods.or(page.getByText('Account name'))).toBeVisible();
    if (await methods.isVisible()) await methods.click();
    await expect(page.getByText('Account name')).toBeVisible();
  });
});
