import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { SHARED_BUILT_SERVER as server } from './built-server';
import { lookAtScreen, ownerOfNewMerchant } from './dashboard-support';

// The dashboard's Sandbox tools (docs/dashboard.md "Sandbox tools") on the built server: a new
// merchant's owner, signed in with this device's passkey, finds a customer's payment waiting for
// a transfer, sends it from the screen, and the payments screen shows it paid. The screen passes
// axe and is shot at 390 px and 1280 px into /tmp/dashboard-sandbox-shots.

const SHOTS = '/tmp/dashboard-sandbox-shots';

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
});

const look = (page: Page, name: string) => lookAtScreen(page, SHOTS, name);

test('an owner sends a waiting payment its transfer from Sandbox tools, and sees it paid', async ({
  page,
}) => {
  const origin = server.origin;
  // The owner joins with an SMS code and this device's passkey.
  const { clientId, secret } = await ownerOfNewMerchant(
    page,
    { origin, dataDir: server.dataDir },
    { merchant: 'Kemi Fabrics', owner: 'Kemi Adebayo' },
  );

  // A customer asks to pay ₦2,500.00 by transfer: the payment's one-time account is open.
  const answer = await page.request.post(`${origin}/api/v1/consents`, {
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
    data: {
      reference: 'KF-2001',
      payments: [{ type: 'immediate', amount: 250000, narration: 'Adire, 4 yards' }],
    },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  const { consentId } = (await answer.json()) as { consentId: string };
  const read = await page.request.get(`${origin}/api/consent/${consentId}?clientId=${clientId}`);
  const { consent } = (await read.json()) as {
    consent: { payments: Array<{ paymentId: string }> };
  };
  const paymentId = consent.payments[0]?.paymentId ?? '';
  const opened = await page.request.post(
    `${origin}/api/payments/${paymentId}/transfer?consentId=${consentId}`,
  );
  expect(opened.status(), await opened.text()).toBe(200);

  // Sandbox tools lists it; the owner picks it and sends what it owes.
  await page.getByRole('link', { name: 'Sandbox tools' }).click();
  await expect(page.getByRole('heading', { name: 'Sandbox tools', level: 1 })).toBeVisible();
  const transfer = page.getByRole('form', { name: 'Send a transfer' });
  await expect(transfer.getByText('Adire, 4 yards · Rubies MFB')).toBeVisible();
  await look(page, 'sandbox-tools');
  await transfer.getByRole('button', { name: 'Use KF-2001' }).click();
  await expect(transfer.getByLabel('Payment id or reference')).toHaveValue('KF-2001');
  await transfer.getByRole('button', { name: 'Send transfer' }).click();
  await expect(transfer.getByRole('status')).toHaveText(
    'Transfer of ₦2,500.00 sent. Transfer received: the payment is complete.',
  );
  await expect(transfer.getByText('No payment is waiting for a transfer.')).toBeVisible();

  // A test event, fired from the keyboard.
  const events = page.getByRole('form', { name: 'Fire a webhook event' });
  await events.getByLabel('Event type').selectOption('refund.processed');
  await events.getByRole('button', { name: 'Fire event' }).focus();
  await page.keyboard.press('Enter');
  await expect(events.getByRole('status')).toHaveText(/^Fired refund\.processed: evt_/);
  await look(page, 'sandbox-tools-answered');

  // The payments screen shows it paid.
  await page.getByRole('link', { name: 'Payments' }).click();
  await page.getByLabel(/Reference, payment id/).fill('KF-2001');
  await page.getByRole('button', { name: 'Search' }).click();
  const row = page.getByRole('link', { name: /₦2,500\.00/ });
  await expect(row).toContainText('executed');
  await expect(row).toContainText('KF-2001 · Transfer');
  await row.click();
  await expect(page.getByText('Paid ₦2,500.00', { exact: true })).toBeVisible();
});
