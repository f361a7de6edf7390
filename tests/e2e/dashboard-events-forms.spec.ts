import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { SAMPLE_FORM_INPUT } from '../../src/domain/test-support/form-fixtures';
import { SHARED_BUILT_SERVER as server } from './built-server';
import { lookAtScreen, npmRun as npmRunIn, ownerOfNewMerchant } from './dashboard-support';

// The dashboard's Events and Forms screens (docs/dashboard.md "Screens"), on the built server: a
// new merchant's owner (client:create's invitation, an SMS code, this device's passkey) opens
// Events, whose code loads only then, finds the events `client:trigger` fired by type and opens
// one's data; then Forms, the form the merchant's server made, a payer's response by its
// reference, and the answers. Each screen passes axe and is shot at 390 px and 1280 px into
// /tmp/dashboard-events-forms-shots.

const SHOTS = '/tmp/dashboard-events-forms-shots';

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
});

const npmRun = (script: string, ...args: string[]) => npmRunIn(server.dataDir, script, ...args);
const look = (page: Page, name: string) => lookAtScreen(page, SHOTS, name);

test('the owner reads the events by type and a form’s responses with their answers', async ({
  page,
}) => {
  const origin = server.origin;
  // The owner joins with an SMS code and this device's passkey.
  const { clientId, authorization } = await ownerOfNewMerchant(
    page,
    { origin, dataDir: server.dataDir },
    { merchant: 'Lagos Gym', owner: 'Tunde Bello' },
  );

  // The merchant's server makes a form and asks a payer to fill it; the payer answers a section.
  const form = await page.request.post(`${origin}/api/v1/forms`, {
    headers: { authorization },
    data: SAMPLE_FORM_INPUT,
  });
  expect(form.status(), await form.text()).toBe(201);
  const { formId } = (await form.json()) as { formId: string };
  const asked = await page.request.post(`${origin}/api/v1/consents`, {
    headers: { authorization },
    data: { formId, reference: 'LG-MEMBER-9' },
  });
  expect(asked.status(), await asked.text()).toBe(201);
  const { consentId } = (await asked.json()) as { consentId: string };
  const saved = await page.request.put(`${origin}/api/form/sections/about`, {
    data: {
      consentId,
      clientId,
      answers: { fullName: 'Ada Obi', email: 'ada@example.com', phone: '0803 123 4567' },
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  // Two test events at the merchant's webhooks.
  for (const type of ['payment.completed', 'refund.processed']) {
    const fired = await npmRun('client:trigger', type, '--client', clientId);
    expect(fired.code, fired.out).toBe(0);
  }

  // Events: its code comes when the screen is first opened, not before.
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  expect(scripts.filter((url) => /events-page/.test(url))).toEqual([]);
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  await nav.getByRole('link', { name: 'Events' }).click();
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible();
  expect(new Set(scripts.filter((url) => /events-page/.test(url))).size).toBe(1);
  const showRefund = page.getByRole('button', { name: /^Show data: refund\.processed evt_/ });
  await expect(showRefund).toBeVisible();
  await expect(page.getByRole('button', { name: /^Show data: payment\.completed/ })).toBeVisible();
  await page.getByLabel('Type').selectOption('payment.completed');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(showRefund).toHaveCount(0);
  const showPayment = page.getByRole('button', { name: /^Show data: payment\.completed evt_/ });
  await expect(showPayment).toHaveAttribute('aria-expanded', 'false');
  await showPayment.click();
  await expect(showPayment).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator('pre').first()).toContainText('"paymentId"');
  await look(page, 'events');

  // Forms: the form by its title, the payer's response by its reference, and the answers.
  await nav.getByRole('link', { name: 'Forms' }).click();
  await expect(page.getByRole('heading', { name: 'Forms and responses' })).toBeVisible();
  const formLink = page.getByRole('link', { name: /Membership for/ });
  await expect(formLink).toContainText('Version 1 · 1 response');
  await look(page, 'forms');
  await formLink.click();
  await expect(page.getByRole('heading', { name: 'Responses' })).toBeVisible();
  await expect(page.getByText('LG-MEMBER-9')).toBeVisible();
  await expect(page.getByText(/not submitted yet/)).toBeVisible();
  await page.getByRole('button', { name: 'Show answers: LG-MEMBER-9' }).click();
  const about = page.getByRole('region', { name: 'About you' });
  await expect(about.getByText('Ada Obi')).toBeVisible();
  await expect(about.getByText('ada@example.com')).toBeVisible();
  await look(page, 'form');
});
