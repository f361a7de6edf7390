import { expect, test, type Page, type TestInfo } from '@playwright/test';
import jsQR from 'jsqr';
import { shareConsentUrl } from '../../src/domain/share-url';
import { expectNoViolations } from './axe';
import {
  addVirtualAuthenticator,
  signUpThroughPanel,
  storedSession,
  uniquePhone,
} from './auth-support';
import { DEMO_FORM } from '../../src/server/services/demo/demo-form';
import { E2E } from './e2e-env';
import { fillDemoForm } from './form-support';
import {
  chooseResult,
  findAccount,
  linkByApi,
  ownAccount,
  ownCard,
  payWithCardSavingIt,
  verifyByAuthParams,
  verifyOwnBvn,
} from './linking-support';
import { consentPath, createConsent, readMerchantConsent, snap } from './merchant';

// The main consent flow (spec §2 Main consent flow, §4) in real Chromium against the real server
// and the sandbox bank: a payer who signs up on the spot goes through each step, links a repayment
// account in the flow, pays from a saved account ('OneTap') and grants with their passkey.

const dueDates = [1, 2].map((month) => new Date(Date.UTC(2027, month, 1, 9)).toISOString());

const everything = {
  payments: [
    { type: 'immediate', amount: 400_000, narration: 'Registration fee' },
    ...dueDates.map((dueDate) => ({
      type: 'future',
      amount: 1_500_000,
      amountType: 'fixed',
      narration: 'Gym dues',
      frequency: 'monthly',
      interval: 1,
      dueDate,
    })),
  ],
  dataSharing: { bvnData: true, bankAccounts: true },
  requirements: { requiresAuth: true },
};

async function look(page: Page, testInfo: TestInfo, name: string) {
  await snap(page, testInfo, `flow-${name}`);
  await expectNoViolations(page);
}

async function newPayer(page: Page) {
  await addVirtualAuthenticator(page);
  await page.goto('/login');
  await signUpThroughPanel(page, page.request, { fullName: 'Kemi Adewale', phone: uniquePhone() });
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
  // Only accounts under the payer's verified BVN link: a person minted for them, verified.
  await verifyOwnBvn(page);
}

const stepHeader = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(`^${name} (Pending|Completed)`) });

async function consentRead(page: Page, consentId: string) {
  const response = await page.request.get(`/api/consent/${consentId}?clientId=cli_e2e`);
  return (await response.json()).consent;
}

test.describe('the consent flow', () => {
  test('data sharing, repayment account linked in the flow, OneTap, the signed grant', async ({
    page,
  }, testInfo) => {
    await newPayer(page);
    const consentId = await createConsent(page.request, everything);
    await page.goto(consentPath(consentId));

    // 1. Data Sharing: open, later steps disabled.
    await expect(stepHeader(page, 'Data Sharing')).toHaveAttribute('aria-expanded', 'true');
    await expect(stepHeader(page, 'Future Payments')).toBeDisabled();
    await expect(page.getByText(/2 data points being shared/)).toBeVisible();
    await look(page, testInfo, 'data-sharing');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();

    // 2. Future Payments: the summary, a row's explanation, then the repayment accounts.
    await expect(stepHeader(page, 'Data Sharing')).toContainText('Completed');
    await expect(page.getByText(/would like to collect 2 payments totalling/)).toBeVisible();
    await page.getByRole('button', { name: /Gym dues/ }).click();
    await expect(page.getByText('What this means')).toBeVisible();
    await look(page, testInfo, 'future-schedule');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(
      page.getByRole('heading', { name: "Select what accounts you'd like to use for repayment:" }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Confirm', exact: true })).toBeDisabled();

    // Linking in the flow: the header reads 'Link Account' while the panel is open.
    const target = await ownAccount(page, 'links_by_auth_params');
    await findAccount(page, target.accountNumber);
    await expect(page.locator('.consent-header')).toContainText('Link Account');
    await chooseResult(page, target);
    await verifyByAuthParams(page, target);
    const last4 = target.accountNumber.slice(-4);
    // The account just linked is chosen for the payer (spec §4).
    await expect(page.getByRole('checkbox', { name: new RegExp(`\\*{4}${last4}`) })).toBeChecked();
    await expect(page.locator('.consent-header')).toContainText('Consent Request');
    await look(page, testInfo, 'repayment-accounts');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();

    // 3. Immediate Payment: the merchant named, a saved account makes the button OneTap.
    await expect(stepHeader(page, 'Immediate Payment')).toHaveAttribute('aria-expanded', 'true');
    await expect(page.locator('.pay-to')).toContainText('To');
    await page.getByRole('radio', { name: new RegExp(`\\*{4}${last4}`) }).check();
    const oneTap = page.getByRole('button', { name: `OneTap ****${last4}` });
    await expect(oneTap).toBeVisible();
    await look(page, testInfo, 'onetap');
    await oneTap.click();

    await expect(page.getByText(/You have successfully granted consent to/)).toBeVisible();
    // 'Consent Granted', scanned in accessibility.spec.ts. A debit of the saved account is not
    // called a bank transfer; the signed-in payer has a registered contact.
    await expect(page.getByText('Saved bank account', { exact: true })).toBeVisible();
    await expect(page.getByText('Confirmations sent to your registered contact.')).toBeVisible();
    await snap(page, testInfo, 'flow-granted');
    const consent = await consentRead(page, consentId);
    expect(consent.status).toBe('granted');
    // Whoever holds the link reads how it was paid (a saved account's debit: no bank), not the
    // account (docs/payments.md "Who reads a payment"); the merchant, the account whole.
    const immediate = (p: { type: string }) => p.type === 'immediate';
    const paid = consent.payments.find(immediate);
    expect(paid).toMatchObject({
      status: 'executed',
      origin: { paymentMethod: 'bank_transfer', bankId: null },
    });
    expect(paid?.origin).not.toHaveProperty('accountNumber');
    expect(paid?.origin).not.toHaveProperty('accountName');
    const merchantRead = await readMerchantConsent(page.request, consentId);
    expect(merchantRead.payments.find(immediate)).toMatchObject({
      origin: { accountNumber: target.accountNumber, accountName: target.accountName },
    });
  });

  test('a direct debit the account cannot cover: the Consent Error modal, nothing granted', async ({
    page,
  }, testInfo) => {
    await newPayer(page);
    const poor = await linkByApi(page, 'insufficient_funds');
    const consentId = await createConsent(page.request, {
      payments: [{ type: 'immediate', amount: 900_000, narration: 'Order #1042' }],
    });
    await page.goto(consentPath(consentId));
    const last4 = poor.accountNumber.slice(-4);
    await page.getByRole('radio', { name: new RegExp(`\\*{4}${last4}`) }).check();
    await page.getByRole('button', { name: `OneTap ****${last4}` }).click();
    const modal = page.getByRole('dialog', { name: 'Consent Error' });
    await expect(modal).toBeVisible();
    await expect(modal).toContainText('Some payments failed. Please try again.');
    await look(page, testInfo, 'error-modal');
    await modal.getByRole('button', { name: 'Try Again' }).click();
    await expect(modal).toBeHidden();
    const consent = await consentRead(page, consentId);
    expect(consent.status).toBe('pending');
    expect(consent.payments[0].status).toBe('pending');
  });

  test('a payer not signed in is asked to sign in before granting', async ({ page }, testInfo) => {
    const consentId = await createConsent(page.request, {
      payments: [],
      dataSharing: { ninData: true },
    });
    await page.goto(consentPath(consentId));
    await expect(page.getByText('Please sign in to grant consent')).toBeVisible();
    // Scanned in accessibility.spec.ts.
    await snap(page, testInfo, 'flow-sign-in-to-grant');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('button', { name: 'Authenticate' })).toBeVisible();
  });

  test(
    'standalone at 1280 px: the side panel, and its QR code opens the same consent on a phone',
    { tag: '@desktop' },
    async ({ browser, page }, testInfo) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      const consentId = await createConsent(page.request, everything);
      await page.goto(consentPath(consentId));
      const aside = page.getByRole('complementary', { name: 'Consent summary' });
      await expect(aside).toBeVisible();
      await expect(aside.getByRole('heading', { name: 'Share Consent' })).toBeVisible();
      await expect(aside).toContainText('₦34,000.00');
      await expect(aside).toContainText(
        'if you wish to change any info here, contact your representative',
      );
      // The side panel is scanned in accessibility.spec.ts, at 1280 px.
      await snap(page, testInfo, 'flow-side-panel');

      // The QR code, read back by a QR decoder from the pixels the page draws.
      const drawn = await aside.locator('svg').evaluate(async (svg) => {
        const image = new Image();
        image.src = `data:image/svg+xml;base64,${btoa(new XMLSerializer().serializeToString(svg))}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.width * 2;
        canvas.height = image.height * 2;
        const context = canvas.getContext('2d');
        if (!context) throw new Error('no 2d canvas');
        context.drawImage(image, 0, 0, canvas.width, canvas.height);
        const { data, width, height } = context.getImageData(0, 0, canvas.width, canvas.height);
        let binary = '';
        for (let i = 0; i < data.length; i += 0x8000) {
          binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
        }
        return { pixels: btoa(binary), width, height };
      });
      const pixels = new Uint8ClampedArray(Buffer.from(drawn.pixels, 'base64'));
      const decoded = jsQR(pixels, drawn.width, drawn.height)?.data ?? null;
      expect(decoded).toBe(shareConsentUrl(page.url(), 'cli_e2e'));
      expect(new URL(decoded ?? '').searchParams.get('embed')).toBe('false');
      expect(new URL(decoded ?? '').searchParams.get('bg')).toBe('FFFFFF');

      // On a phone: the same consent, one column.
      const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await phone.goto(decoded ?? '');
      await expect(
        phone
          .getByRole('heading', { name: 'Authentication Required' })
          .or(phone.getByRole('button', { name: 'Authenticate' })),
      ).toBeVisible();
      await expect(phone.getByRole('complementary', { name: 'Consent summary' })).toHaveCount(0);
      await phone.close();
    },
  );

  test('Save Your Card: a card paid with "Save this card" goes on the account, then the grant', async ({
    page,
  }, testInfo) => {
    await newPayer(page);
    const consentId = await createConsent(page.request, {
      payments: [{ type: 'immediate', amount: 250_000, narration: 'Order #1042' }],
    });
    await page.goto(consentPath(consentId));
    await payWithCardSavingIt(page, await ownCard(page, 'pin_only'));

    await expect(page.getByRole('heading', { name: 'Save Your Card' })).toBeVisible();
    await look(page, testInfo, 'save-card');
    const target = await ownAccount(page, 'links_by_card');
    await page.getByLabel('Account number').fill(target.accountNumber);
    await page
      .getByRole('radio', { name: new RegExp(target.accountName) })
      .first()
      .check();
    await page.getByRole('button', { name: 'Save Card' }).click();
    await expect(page.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();
    // The card is on the account now: the payer's accounts say so.
    const { token } = await storedSession(page);
    const accounts = await page.request.get('/api/accounts/user', {
      headers: { authorization: `Bearer ${token}` },
    });
    const saved = (await accounts.json()).accounts.find(
      (a: { accountNumber: string | null }) => a.accountNumber === target.accountNumber,
    );
    expect(saved?.integrations.card).toMatchObject({ active: true });
  });

  test('everything: data sharing, the form, future payments and the immediate payment, granted', async ({
    page,
  }, testInfo) => {
    await newPayer(page);
    const saved = await linkByApi(page, 'links_by_test_transfer');
    const created = await page.request.post('/api/v1/forms', {
      headers: {
        authorization: `Basic ${Buffer.from(`${E2E.clientId}:${E2E.clientSecret}`).toString('base64')}`,
      },
      data: DEMO_FORM,
    });
    expect(created.status()).toBe(201);
    const { formId } = await created.json();
    const consentId = await createConsent(page.request, { ...everything, formId });
    await page.goto(consentPath(consentId));

    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    // 2. The Form, in the flow.
    await fillDemoForm(page, 'Kemi Adewale');
    await look(page, testInfo, 'form');
    await page.getByRole('button', { name: 'Next Step' }).click();

    // 3. Future Payments from the saved account; 4. OneTap.
    await expect(stepHeader(page, 'Form')).toContainText('Completed');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    const last4 = saved.accountNumber.slice(-4);
    await page.getByRole('checkbox', { name: new RegExp(`\\*{4}${last4}`) }).check();
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await page.getByRole('radio', { name: new RegExp(`\\*{4}${last4}`) }).check();
    await page.getByRole('button', { name: `OneTap ****${last4}` }).click();
    await expect(page.getByText(/You have successfully granted consent to/)).toBeVisible();
    expect((await consentRead(page, consentId)).status).toBe('granted');
  });

  test('paid already from an account linked and approved: the page jumps to the final step', async ({
    page,
  }, testInfo) => {
    await newPayer(page);
    const saved = await linkByApi(page, 'links_by_test_transfer');
    const consentId = await createConsent(page.request, {
      payments: everything.payments,
      requirements: { requiresAuth: true },
    });
    // The immediate payment is paid by a transfer from that account (another device, the bank's
    // app), before this page opens.
    const { paymentId } = (await consentRead(page, consentId)).payments.find(
      (p: { type: string }) => p.type === 'immediate',
    );
    const { token } = await storedSession(page);
    const opened = await page.request.post(`/api/payments/${paymentId}/transfer`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(opened.status()).toBe(200);
    const { transferDetails } = await opened.json();
    const sent = await page.request.post('/api/sandbox/transfers', {
      data: {
        accountNumber: transferDetails.accountNumber,
        amount: 400_000,
        from: { institutionCode: saved.institutionCode, accountNumber: saved.accountNumber },
      },
    });
    expect(await sent.json()).toMatchObject({ outcome: 'credited' });

    await page.goto(consentPath(consentId));
    // The account it came from repays the future payments, and the last step, paid, asks the
    // passkey for the grant at once: nobody chose a repayment account or pressed a button.
    await expect(page.getByText(/You have successfully granted consent to/)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Future Payments Authorized' })).toContainText(
      '2 payments',
    );
    // 'Consent Granted', scanned in accessibility.spec.ts.
    await snap(page, testInfo, 'flow-jumped-to-final-granted');
    const consent = await consentRead(page, consentId);
    expect(consent.status).toBe('granted');
    expect(
      consent.payments.filter((p: { status: string }) => p.status === 'executed'),
    ).toHaveLength(1);
  });
});
