import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { expectNoViolations } from './axe';
import { consentPath, createConsent, snap } from './merchant';
import { card, payWithCard } from './pay-now-support';

// The payment screens' last dead ends (issue 43, part 2), in real Chromium against the real
// server, its sandbox bank and card network: each ends on something the payer can read and do.

const payment = { type: 'immediate', amount: 250_000, narration: 'Order #1042 groceries' };

async function open(page: Page) {
  const consentId = await createConsent(page.request, { payments: [payment] });
  await page.goto(consentPath(consentId));
  await expect(page.getByRole('heading', { name: 'Immediate Payment' })).toBeVisible();
  return consentId;
}

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

    // Retry Payment starts the ring again from 0, with its figure.
    await page.getByRole('button', { name: 'Retry Payment' }).click();
    await expect(page.getByRole('progressbar', { name: 'Payment progress' })).toBeVisible();
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
});
