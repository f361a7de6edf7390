import { expect, test } from '@playwright/test';
import { signedUpSession } from './auth-support';
import { expectNoViolations } from './axe';
import { E2E } from './e2e-env';
import { consentPath, createConsent, createForm, DELIVERY_FORM, snap } from './merchant';
import { payWithCard } from './pay-now-support';

// A standalone consent with the merchant's return URL (docs/merchant-clients.md "Return URL"):
// after Consent Granted or Consent Declined, the payer is sent back with the consent's id and
// status, or stays if they ask to.

const returnUrl = `${E2E.hostOrigin}/orders/1042?from=shop`;

test.describe('the return URL', () => {
  test('sends the payer back after Consent Granted, with the consent id and status', async ({
    page,
  }, testInfo) => {
    test.slow(); // a card payment, its completion delay and the countdown
    const consentId = await createConsent(page.request, {
      payments: [{ type: 'immediate', amount: 150_000, narration: 'Order 1042' }],
      reference: `ORD-${Date.now()}`,
      returnUrl,
    });
    await page.goto(consentPath(consentId));
    await payWithCard(page, 'pin_only');
    await expect(page.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();
    await expect(page.getByText(/Taking you back to .+ in \d seconds?\./)).toBeVisible();
    await expect(page.getByRole('link', { name: /^Return to / })).toHaveAttribute(
      'href',
      `${E2E.hostOrigin}/orders/1042?from=shop&consentId=${consentId}&status=granted`,
    );
    await snap(page, testInfo, 'return-url-granted');
    await expectNoViolations(page);

    await page.waitForURL((url) => url.origin === E2E.hostOrigin);
    const back = new URL(page.url());
    expect(back.pathname).toBe('/orders/1042');
    expect(Object.fromEntries(back.searchParams)).toEqual({
      from: 'shop',
      consentId,
      status: 'granted',
    });
  });

  test('lets the payer stay after Consent Declined, and go back when they choose', async ({
    page,
  }, testInfo) => {
    const session = await signedUpSession(page);
    await page.evaluate(({ token, user }) => {
      localStorage.setItem('paymonaToken', token);
      localStorage.setItem('paymonaUser', user);
    }, session);
    const formId = await createForm(page.request, DELIVERY_FORM);
    const consentId = await createConsent(page.request, { formId, returnUrl });
    await page.goto(consentPath(consentId));
    await page.getByRole('button', { name: 'Decline' }).click();
    await expect(page.getByRole('heading', { name: 'Consent Declined' })).toBeVisible();

    await page.getByRole('button', { name: 'Stay on this page' }).click();
    await expect(page.getByText(/You can go back to .+ when you are ready\./)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Stay on this page' })).toHaveCount(0);
    await snap(page, testInfo, 'return-url-declined-stayed');
    await expectNoViolations(page);

    await page.getByRole('link', { name: /^Return to / }).click();
    await page.waitForURL((url) => url.origin === E2E.hostOrigin);
    expect(new URL(page.url()).searchParams.get('status')).toBe('declined');
    expect(new URL(page.url()).searchParams.get('consentId')).toBe(consentId);
  });
});
