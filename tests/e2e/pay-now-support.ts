import { expect, type Page } from '@playwright/test';
import { SANDBOX_CARDS } from '../../src/server/sandbox/fixtures';
import { settledPage } from './merchant';

// The Immediate Payment screen as a payer works it: a sandbox card entered, the one-time account
// read off the transfer details.

export function card(scenario: (typeof SANDBOX_CARDS)[number]['scenario']) {
  const found = SANDBOX_CARDS.find((c) => c.scenario === scenario);
  if (!found) throw new Error(`No sandbox card for ${scenario}`);
  return found;
}

/** Whether a sandbox card's issuer asks for its PIN (docs/sandbox.md); the others never do. */
export const asksPin = (scenario: string) => scenario === 'pin_only' || scenario === 'pin_otp';

/**
 * Pays with a sandbox card: its details, then its PIN where its issuer asks for one ('Enter Card
 * PIN'); a card checked by 3-D Secure, or refused at once, goes on without.
 */
export async function payWithCard(page: Page, scenario: Parameters<typeof card>[0]) {
  const { number, expiry, cvv, pin } = card(scenario);
  await settledPage(page);
  await page.getByRole('button', { name: /Pay with Card/ }).click();
  await page.getByLabel('Card Number').fill(number);
  await page.getByLabel('Expiry date').fill(expiry);
  await page.getByLabel('CVV').fill(cvv);
  await page.getByRole('button', { name: 'Continue to PIN' }).click();
  if (!asksPin(scenario)) return;
  await page.getByLabel('Card PIN').fill(pin);
  await page.getByRole('button', { name: 'Complete Payment' }).click();
}

export async function shownAccountNumber(page: Page): Promise<string> {
  const row = page.locator('.detail-row', {
    has: page.getByText('Account number', { exact: true }),
  });
  const text = ((await row.locator('.detail-value').textContent()) ?? '').trim();
  expect(text).toMatch(/^\d{10}$/);
  return text;
}
