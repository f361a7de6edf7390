import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO_FORM, DEMO_FORM_ID } from '../../src/server/services/demo/demo-form';
import { expectNoViolations } from './axe';
import { E2E } from './e2e-env';
import { createConsent, snap } from './merchant';

// The Form step on its own page (docs/forms.md), in real Chromium against the real server: the
// demo's gym questionnaire filled by keyboard, saved as the payer goes, resumed after a reload,
// an ID uploaded, 'Next Step' enabled only once the last section is complete; and the public
// read-only views, of a consent's answers and of a form by its formId alone.

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(600, 1),
]);

/** The demo's form, created as the test merchant's own, and a consent asking for it. */
async function demoFormConsent(request: APIRequestContext) {
  const response = await request.post(`${E2E.appOrigin}/api/v1/forms`, {
    headers: {
      authorization: `Basic ${Buffer.from(`${E2E.clientId}:${E2E.clientSecret}`).toString('base64')}`,
    },
    data: DEMO_FORM,
  });
  expect(response.status()).toBe(201);
  const { formId } = (await response.json()) as { formId: string };
  const consentId = await createConsent(request, { formId });
  return { formId, consentId };
}

const formPath = (formId: string, consentId: string, extra = '') =>
  `/f/${formId}?clientId=${E2E.clientId}&consentId=${consentId}${extra}`;

const section = (page: Page, title: string) => page.getByRole('region', { name: title });
const nextStep = (page: Page) => page.getByRole('button', { name: 'Next Step' });

test.describe('the Form step', () => {
  test('fill the demo form by keyboard, reload halfway and resume, upload an ID, then Next Step', async ({
    page,
  }, testInfo) => {
    // Two axe runs over a form of thirteen fields, on a shared 2-core machine.
    const { formId, consentId } = await demoFormConsent(page.request);
    await page.goto(formPath(formId, consentId));
    await expect(page.getByRole('heading', { name: 'Gym membership questionnaire' })).toBeVisible();
    await expect(page.getByText('Complete all form sections to continue.')).toBeVisible();
    await expect(nextStep(page)).toBeDisabled();
    // The empty form is scanned in accessibility.spec.ts.
    await snap(page, testInfo, 'form-empty');

    // About you, by keyboard: each field's error is tied to it.
    const about = section(page, 'About you');
    await about.getByLabel('Full name').focus();
    await page.keyboard.type('Ada Obi');
    await page.keyboard.press('Tab');
    await expect(about.getByLabel('Mobile number')).toBeFocused();
    await page.keyboard.type('12345');
    await page.keyboard.press('Tab');
    const phone = about.getByLabel('Mobile number');
    await expect(phone).toHaveAttribute('aria-invalid', 'true');
    await expect(phone).toHaveAccessibleDescription(
      /Enter a Nigerian mobile number, e\.g\. 0803 123 4567/,
    );
    await snap(page, testInfo, 'form-error');
    await expectNoViolations(page);
    await phone.fill('0803 123 4567');
    await about.getByLabel('Date of birth').fill('1990-05-14');
    await about.getByLabel('Emergency contact number').focus();
    await page.keyboard.type('0812 345 6789');
    await page.keyboard.press('Tab');
    await expect(phone).not.toHaveAttribute('aria-invalid', 'true');
    await expect(about.getByText('Completed', { exact: true })).toBeVisible();
    await expect(nextStep(page)).toBeDisabled();
    await expect(page.getByText('All answers saved')).toBeVisible();

    // Halfway: a reload resumes the saved answers.
    await page.reload();
    await expect(section(page, 'About you').getByLabel('Full name')).toHaveValue('Ada Obi');
    await expect(section(page, 'About you').getByText('Completed', { exact: true })).toBeVisible();
    await expect(nextStep(page)).toBeDisabled();

    const health = section(page, 'Health questionnaire');
    await health
      .getByRole('group', { name: /heart condition/ })
      .getByLabel('No')
      .check();
    await health
      .getByRole('group', { name: /pain in your chest/ })
      .getByLabel('No')
      .check();
    await health.getByLabel('Rarely active').check();
    await health.getByLabel('Build strength').check();
    await expect(health.getByText('Completed', { exact: true })).toBeVisible();
    await expect(nextStep(page)).toBeDisabled();

    const agreement = section(page, 'Identity and agreement');
    await agreement
      .getByLabel('Photo or scan of your ID')
      .setInputFiles({ name: 'national-id.png', mimeType: 'image/png', buffer: PNG });
    await expect(agreement.getByText('Uploaded: national-id.png (1 KB)')).toBeVisible();
    // The last field of the last section: until it is ticked, 'Next Step' stays disabled.
    await expect(nextStep(page)).toBeDisabled();
    await agreement.getByLabel(/I confirm my answers are true/).check();
    await expect(page.getByText('All sections completed! Ready to continue.')).toBeVisible();
    await expect(nextStep(page)).toBeEnabled();
    await expectNoViolations(page);
    await snap(page, testInfo, 'form-complete');

    await nextStep(page).click();
    await expect(page.getByText('Form completed. You can close this page.')).toBeVisible();

    // Another device (a fresh page) finds every answer, the file included.
    await page.goto(formPath(formId, consentId));
    await expect(page.getByText('All sections completed! Ready to continue.')).toBeVisible();
    await expect(page.getByText('Uploaded: national-id.png (1 KB)')).toBeVisible();
  });

  test('a file that is not an image or PDF is refused before it is sent', async ({ page }) => {
    const { formId, consentId } = await demoFormConsent(page.request);
    await page.goto(formPath(formId, consentId));
    const field = page.getByLabel('Photo or scan of your ID');
    await field.setInputFiles({
      name: 'id.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    });
    await expect(field).toHaveAccessibleDescription(/Upload JPEG, PNG or PDF, up to 5 MB/);
    await expect(page.getByText(/^Uploaded/)).toHaveCount(0);
  });

  test("public mode shows a consent's saved answers read-only", async ({ page }, testInfo) => {
    const { formId, consentId } = await demoFormConsent(page.request);
    const saved = await page.request.put(`${E2E.appOrigin}/api/form/sections/about`, {
      data: { consentId, clientId: E2E.clientId, answers: { fullName: 'Ada Obi' } },
    });
    expect(saved.ok()).toBe(true);
    await page.goto(formPath(formId, consentId, '&public=true'));
    await expect(page.getByText('Read-only: answers cannot be changed here.')).toBeVisible();
    const name = page.getByLabel('Full name');
    await expect(name).toHaveValue('Ada Obi');
    await expect(name).toBeDisabled();
    // Read-only: nothing to complete, so no status line and no 'Next Step' (spec §2).
    await expect(page.getByText('Complete all form sections to continue.')).toHaveCount(0);
    await expect(nextStep(page)).toHaveCount(0);
    // Scanned in accessibility.spec.ts.
    await snap(page, testInfo, 'form-public-consent');
  });

  test('public mode shows the demo form by its formId alone', async ({ page }, testInfo) => {
    await page.goto(`/f/${DEMO_FORM_ID}?public=true`);
    await expect(page.getByRole('heading', { name: 'Gym membership questionnaire' })).toBeVisible();
    await expect(page.getByText('Read-only: answers cannot be changed here.')).toBeVisible();
    await expect(page.getByLabel('Full name')).toBeDisabled();
    await expect(page.getByLabel(/I confirm my answers are true/)).toBeDisabled();
    // No consent, so no placeholder values: never raw braces.
    await expect(page.getByText(/\{\{/)).toHaveCount(0);
    // Read-only: nothing to complete, so no status line and no 'Next Step' (spec §2).
    await expect(page.getByText('Complete all form sections to continue.')).toHaveCount(0);
    await expect(nextStep(page)).toHaveCount(0);
    // Scanned in accessibility.spec.ts.
    await snap(page, testInfo, 'form-public-by-id');
  });
});
