import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { expectNoViolations } from './axe';
import { addVirtualAuthenticator, signUpThroughPanel, uniquePhone } from './auth-support';
import { E2E } from './e2e-env';
import { chooseResult, findAccount, linked, ownAccount, sendTestTransfer } from './linking-support';
import { createConsent, snap } from './merchant';

// The payer told before every debit (docs/payer-consents.md) in real Chromium against the real
// server: a payer grants two monthly debits, the runner's notice SMS of the first arrives with its
// link, the link (no session) skips that one debit and the merchant reads it skipped; then on
// /consents the payer pauses the consent's future payments with the passkey and resumes them.

const merchant = { clientId: E2E.otherClientId, secret: E2E.otherClientSecret };
const authorization = `Basic ${Buffer.from(`${merchant.clientId}:${merchant.secret}`).toString('base64')}`;

const HOUR = 60 * 60 * 1_000;

async function look(page: Page, testInfo: TestInfo, name: string) {
  await snap(page, testInfo, `debit-notices-${name}`);
  await expectNoViolations(page);
}

/** A signed-up payer's consent to two debits, the first within the notice's window, granted. */
async function grantedDebits(page: Page, narration: string) {
  const phone = uniquePhone();
  await addVirtualAuthenticator(page);
  await page.goto('/login');
  await signUpThroughPanel(page, page.request, { fullName: 'Ngozi Eze', phone });
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
  const target = await ownAccount(page, 'links_by_test_transfer');
  const now = Date.now();
  const consentId = await createConsent(
    page.request,
    {
      payments: [24.5 * HOUR, 24 * 40 * HOUR].map((dueIn) => ({
        type: 'future',
        amount: 300_000,
        amountType: 'fixed',
        narration,
        dueDate: new Date(now + dueIn).toISOString(),
      })),
      requirements: { requiresAuth: true },
    },
    merchant,
  );
  await page.goto(`/r/${consentId}?clientId=${merchant.clientId}`);
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await findAccount(page, target.accountNumber);
  await chooseResult(page, target);
  await sendTestTransfer(page, target);
  await linked(page);
  await page.getByRole('button', { name: 'Consent', exact: true }).click();
  await expect(
    page.getByText('You have successfully granted consent to Other Merchant'),
  ).toBeVisible();
  return { consentId, phone, last4: target.accountNumber.slice(-4) };
}

test.describe('the notice before each debit @both-widths', () => {
  test('the SMS link skips one debit with no sign-in, and the merchant reads it skipped', async ({
    page,
  }, testInfo) => {
    const narration = `Rent ${testInfo.project.name}`;
    const { consentId, phone, last4 } = await grantedDebits(page, narration);

    // The runner's notice of the first debit, within a run of it (a minute).
    let link = '';
    await expect
      .poll(
        async () => {
          const answer = await page.request.get(
            `/api/sandbox/messages?phone=${encodeURIComponent(phone)}`,
          );
          const { messages } = (await answer.json()) as { messages: Array<{ body: string }> };
          const notice = messages.find((m) => m.body.includes(`for ${narration} `));
          expect(notice?.body ?? '').not.toContain('undefined');
          link = /(https?:\/\/\S+\/debits\/\S+)$/.exec(notice?.body ?? '')?.[1] ?? '';
          return notice?.body ?? '';
        },
        { timeout: 150_000 },
      )
      .toMatch(
        new RegExp(`will debit ₦3,000\\.00 for ${narration} from your account \\*{4}${last4}`),
      );

    // The link, with no session on this browser.
    await page.evaluate(() => localStorage.clear());
    const path = new URL(link);
    await page.goto(path.pathname);
    await expect(
      page.getByRole('heading', { name: 'Other Merchant will debit ₦3,000.00' }),
    ).toBeVisible();
    await expect(page.getByText(`****${last4}`)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Stop all future payments' })).toHaveAttribute(
      'href',
      /\/consents\?receipt=/,
    );
    await look(page, testInfo, 'notice');
    await page.getByRole('button', { name: 'Skip this payment' }).click();
    await expect(page.getByRole('heading', { name: 'Payment skipped' })).toBeFocused();
    await expect(page.getByRole('status')).toContainText('Other Merchant has been told.');
    await expect(page.getByRole('button', { name: 'Skip this payment' })).toHaveCount(0);
    await look(page, testInfo, 'skipped');

    const read = await page.request.get(`/api/v1/consents/${consentId}`, {
      headers: { authorization },
    });
    const { consent } = (await read.json()) as {
      consent: { payments: Array<{ paymentId: string; status: string }> };
    };
    expect(consent.payments.map((p) => p.status)).toEqual(['skipped', 'pending']);
    const payment = await page.request.get(`/api/v1/payments/${consent.payments[0]!.paymentId}`, {
      headers: { authorization },
    });
    expect(await payment.json()).toMatchObject({ payment: { status: 'skipped' } });
  });

  test('pauses a consent’s future payments with the passkey, and resumes them', async ({
    page,
  }, testInfo) => {
    const { consentId } = await grantedDebits(page, `Plan ${testInfo.project.name}`);
    await page.goto('/consents');
    const listed = page.getByRole('article', { name: 'Other Merchant' });
    await listed.getByRole('button', { name: 'Pause payments to Other Merchant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pause your payments to Other Merchant?' });
    await expect(dialog).toContainText('A payment that falls due meanwhile is skipped');
    await expect(dialog.getByRole('button', { name: 'Not now' })).toBeFocused();
    await look(page, testInfo, 'pause-dialog');
    await dialog.getByRole('button', { name: 'Pause payments' }).click();
    await expect(dialog).toBeHidden();
    await expect(listed.getByText('Paused', { exact: true })).toBeVisible();
    await expect(listed.getByRole('status')).toContainText('No payment is collected while paused');
    await expect(
      listed.getByRole('button', { name: 'Resume payments to Other Merchant' }),
    ).toBeFocused();
    await look(page, testInfo, 'paused');
    const paused = await page.request.get(`/api/v1/consents/${consentId}`, {
      headers: { authorization },
    });
    expect(await paused.json()).toMatchObject({ consent: { pausedAt: expect.any(String) } });

    await listed.getByRole('button', { name: 'Resume payments to Other Merchant' }).click();
    const resume = page.getByRole('dialog', { name: 'Resume your payments to Other Merchant?' });
    await resume.getByRole('button', { name: 'Resume payments' }).click();
    await expect(resume).toBeHidden();
    await expect(listed.getByText('Active', { exact: true })).toBeVisible();
    await expect(
      listed.getByRole('button', { name: 'Pause payments to Other Merchant' }),
    ).toBeVisible();
    const resumed = await page.request.get(`/api/v1/consents/${consentId}`, {
      headers: { authorization },
    });
    expect(await resumed.json()).toMatchObject({ consent: { pausedAt: null } });
  });
});
