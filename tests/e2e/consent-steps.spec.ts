import { expect, test, type Page } from '@playwright/test';
import { DEMO_FORM, DEMO_FORM_ID } from '../../src/server/services/demo/demo-form';
import { signedUpSession } from './auth-support';
import { expectNoViolations } from './axe';
import { E2E } from './e2e-env';
import { consentPath, createConsent, createForm, DELIVERY_FORM, snap } from './merchant';

// The consent flow's steps as the spec words them (spec §2 Main consent flow), in real Chromium
// against the real server: a public viewer reads a consent's form; data sharing alone is
// confirmed, then granted, its count and chips telling the same story; a form alone can be
// declined before anything is filled in.

/** Signed up on the app's own page, the session put back: the payer is signed in. */
async function signedIn(page: Page) {
  const session = await signedUpSession(page);
  await page.evaluate(({ token, user }) => {
    localStorage.setItem('paymonaToken', token);
    localStorage.setItem('paymonaUser', user);
  }, session);
}

const chips = (page: Page) =>
  page.getByRole('list', { name: 'Data to share' }).getByRole('listitem');

test.describe('the consent steps', () => {
  test(
    'public mode shows the form of a consent: its title and sections, read-only',
    {
      tag: '@both-widths',
    },
    async ({ page }, testInfo) => {
      // Two pages of a thirteen-field form, each scanned by axe: past 30 s on a loaded machine.
      const formId = await createForm(page.request, DEMO_FORM);
      const consentId = await createConsent(page.request, { formId });
      const saved = await page.request.put(`${E2E.appOrigin}/api/form/sections/about`, {
        data: { consentId, clientId: E2E.clientId, answers: { fullName: 'Ada Obi' } },
      });
      expect(saved.ok()).toBe(true);

      await page.goto(consentPath(consentId, 'public=true'));
      await expect(
        page.getByRole('heading', { name: 'Gym membership questionnaire' }),
      ).toBeVisible();
      for (const title of ['About you', 'Health questionnaire', 'Identity and agreement']) {
        await expect(page.getByRole('region', { name: title })).toBeVisible();
      }
      await expect(page.getByText('Read-only: answers cannot be changed here.')).toBeVisible();
      await expect(page.getByLabel('Full name')).toHaveValue('Ada Obi');
      await expect(page.getByLabel('Full name')).toBeDisabled();
      // Nothing to complete and no way to sign in: read-only.
      await expect(page.getByText('Complete all form sections to continue.')).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Next Step' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Sign In' })).toHaveCount(0);
      await snap(page, testInfo, 'steps-public-consent-form');
      await expectNoViolations(page);

      // The form by its formId alone: neither the status line nor a disabled 'Next Step'.
      await page.goto(`/f/${DEMO_FORM_ID}?public=true`);
      await expect(
        page.getByRole('heading', { name: 'Gym membership questionnaire' }),
      ).toBeVisible();
      await expect(page.getByLabel('Full name')).toBeDisabled();
      await expect(page.getByText('Complete all form sections to continue.')).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Next Step' })).toHaveCount(0);
      await snap(page, testInfo, 'steps-public-form-by-id');
      await expectNoViolations(page);
    },
  );

  test('data sharing alone: the chips and the count agree, Confirm, then Consent grants', async ({
    page,
  }, testInfo) => {
    // A sign-up, two axe passes and the signed grant: past 30 s on a loaded 2-core machine.
    await signedIn(page);
    const consentId = await createConsent(page.request, {
      dataSharing: {
        bvnData: ['fullName', 'dateOfBirth'],
        ninData: true,
        bankAccounts: ['balance'],
      },
      requirements: { requiresAuth: true },
    });
    await page.goto(consentPath(consentId));

    // Three categories, three chips, three data points; the sub-items named on their chips.
    await expect(page.getByText('3 data points being shared')).toBeVisible();
    await expect(chips(page)).toHaveText([
      'BVN data: full name, date of birth',
      'NIN data',
      'Bank account information: balance',
    ]);
    // 'A Confirm button follows' (spec §2): not yet the grant.
    await expect(page.getByRole('button', { name: 'Consent', exact: true })).toHaveCount(0);
    await snap(page, testInfo, 'steps-data-sharing-confirm');
    await expectNoViolations(page);

    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    const consent = page.getByRole('button', { name: 'Consent', exact: true });
    await expect(consent).toBeVisible();
    await expect(page.getByRole('button', { name: 'Confirm', exact: true })).toHaveCount(0);
    await snap(page, testInfo, 'steps-data-sharing-consent');
    await expectNoViolations(page);

    await consent.click();
    await expect(page.getByText(/You have successfully granted consent to/)).toBeVisible();
  });

  test('a form alone: Decline before anything is filled in', async ({ page }, testInfo) => {
    await signedIn(page);
    const formId = await createForm(page.request, DELIVERY_FORM);
    const consentId = await createConsent(page.request, { formId });
    await page.goto(consentPath(consentId));

    await expect(page.getByLabel('Street')).toBeVisible();
    await expect(page.getByLabel('Street')).toHaveValue('');
    await expect(page.getByRole('button', { name: 'Next Step' })).toBeDisabled();
    // 'Consent' only once the form is complete; 'Decline' at once.
    await expect(page.getByRole('button', { name: 'Consent', exact: true })).toHaveCount(0);
    const decline = page.getByRole('button', { name: 'Decline' });
    await expect(decline).toBeEnabled();
    await snap(page, testInfo, 'steps-form-decline-at-once');
    await expectNoViolations(page);

    await decline.click();
    await expect(page.getByRole('heading', { name: 'Consent Declined' })).toBeVisible();
    const read = await page.request.get(`/api/consent/${consentId}?clientId=${E2E.clientId}`);
    expect(((await read.json()) as { consent: { status: string } }).consent.status).toBe(
      'declined',
    );
  });
});
