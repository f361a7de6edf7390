import { expect, type Page } from '@playwright/test';

// The demo's gym questionnaire (src/server/services/demo/demo-form.ts) as a payer fills it by pointer
// in the consent flow: every required answer, and an ID photo uploaded.

/** A PNG's signature and some bytes: what the upload's type check reads. */
const ID_PHOTO = {
  name: 'national-id.png',
  mimeType: 'image/png',
  buffer: Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.alloc(600, 1),
  ]),
};

export async function fillDemoForm(page: Page, fullName: string) {
  const about = page.getByRole('region', { name: 'About you' });
  await about.getByLabel('Full name').fill(fullName);
  await about.getByLabel('Mobile number').fill('0803 123 4567');
  await about.getByLabel('Date of birth').fill('1990-05-14');
  await about.getByLabel('Emergency contact number').fill('0812 345 6789');
  const health = page.getByRole('region', { name: 'Health questionnaire' });
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
  const agreement = page.getByRole('region', { name: 'Identity and agreement' });
  await agreement.getByLabel('Photo or scan of your ID').setInputFiles(ID_PHOTO);
  await expect(agreement.getByText(/Uploaded: national-id.png/)).toBeVisible();
  await agreement.getByLabel(/I confirm my answers are true/).check();
}
