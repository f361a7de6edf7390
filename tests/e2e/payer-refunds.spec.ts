import { expect, test } from '@playwright/test';
import { SANDBOX_CARDS } from '../../src/server/sandbox/fixtures';
import { expectNoViolations } from './axe';
import { addVirtualAuthenticator, signUpThroughPanel, uniquePhone } from './auth-support';
import { E2E } from './e2e-env';
import { consentPath, createConsent, snap } from './merchant';

// A merchant's refunds seen by the payer (docs/payer-consents.md "Refunds"), in real Chromium
// against the real server and the sandbox card network: a signed-in payer pays a consent's
// immediate payment by card, the merchant refunds part of it and then the rest through the API,
// and /consents shows each refund with its amount in naira and its state, on a phone and on a
// desktop.

const authorization = `Basic ${Buffer.from(`${E2E.clientId}:${E2E.clientSecret}`).toString('base64')}`;

test.describe('refunds on the payer’s consents', () => {
  test('a paid payment refunded in two parts shows both on /consents @both-widths', async ({
    page,
  }, testInfo) => {
    await addVirtualAuthenticator(page);
    await page.goto('/login');
    await signUpThroughPanel(page, page.request, { fullName: 'Ngozi Eze', phone: uniquePhone() });
    await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();

    // Paid by card while signed in: the consent is the payer's.
    const consentId = await createConsent(page.request, {
      payments: [{ type: 'immediate', amount: 250_000, narration: 'Order #2210' }],
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

    // The merchant gives ₦1,000.00 back, then the rest.
    const read = await page.request.get(`/api/v1/consents/${consentId}`, {
      headers: { authorization },
    });
    const paymentId: string = (await read.json()).consent.payments[0].paymentId;
    const refund = (data: object) =>
      page.request.post(`/api/v1/payments/${paymentId}/refunds`, {
        headers: { authorization },
        data,
      });
    const part = await refund({ amount: 100_000, reason: 'One item out of stock' });
    expect(part.status()).toBe(201);
    expect((await part.json()).refund).toMatchObject({ amount: 100_000, status: 'processed' });

    await page.goto('/consents');
    const listed = page.getByRole('article', { name: 'Tola Stores' });
    const refunds = listed.getByRole('region', { name: 'Refunds from Tola Stores' });
    await expect(refunds.getByRole('listitem')).toHaveCount(1);
    await expect(refunds.getByRole('listitem')).toContainText('₦1,000.00');
    await expect(refunds.getByRole('listitem')).toContainText('Refunded');
    await expect(listed).toContainText('₦2,500.00');

    const rest = await refund({});
    expect((await rest.json()).refund).toMatchObject({ amount: 150_000, status: 'processed' });
    await page.reload();
    await expect(refunds.getByRole('listitem')).toHaveCount(2);
    await expect(refunds.getByRole('listitem').filter({ hasText: '₦1,500.00' })).toContainText(
      'Refunded',
    );
    await expect(refunds.getByRole('listitem').filter({ hasText: '₦1,000.00' })).toContainText(
      'Refunded',
    );
    await snap(page, testInfo, 'payer-consents-refunds');
    await expectNoViolations(page);
  });
});
