import { mkdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { SHARED_BUILT_SERVER as server } from './built-server';
import { lookAtScreen, ownerOfNewMerchant } from './dashboard-support';
import { E2E } from './e2e-env';

// A new merchant's webhooks on the dashboard (docs/dashboard.md "Developers"), with no CLI and no
// API call: the owner adds one on the Developers screen and sees its signing secret once, a test
// event fired from Sandbox tools reaches the receiver signed with that secret, then the owner
// changes its events, turns it off and deletes it, by keyboard where a person would. Each state
// passes axe, scrolls nothing sideways, and is shot at 390 px and 1280 px into
// /tmp/dashboard-webhooks-shots.

const SHOTS = '/tmp/dashboard-webhooks-shots';
const receiverPort = () => E2E.appPort + 51;
let receiver: Server | null = null;
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver?.listen(receiverPort(), '127.0.0.1', resolve));
  mkdirSync(SHOTS, { recursive: true });
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

/** axe, nothing wider than the screen, and the shots at both widths. */
async function look(page: Page, name: string) {
  const overflow = () =>
    page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
  expect(await overflow(), `${name} scrolls sideways at 390 px`).toBeLessThanOrEqual(0);
  await lookAtScreen(page, SHOTS, name);
}

/** The types of the deliveries the receiver got that verify with `secret`. */
function verifiedTypes(secret: string): string[] {
  const webhook = new Webhook(secret);
  return received.flatMap(({ headers, body }) => {
    try {
      const event = webhook.verify(body, headers as Record<string, string>) as { type: string };
      return [event.type];
    } catch {
      return [];
    }
  });
}

/** Fires a test event of `type` from Sandbox tools, and comes back to Developers. */
async function fire(page: Page, type: string) {
  await page.getByRole('link', { name: 'Sandbox tools' }).click();
  const events = page.getByRole('form', { name: 'Fire a webhook event' });
  await events.getByLabel('Event type').selectOption(type);
  await events.getByRole('button', { name: 'Fire event' }).click();
  await expect(events.getByRole('status')).toHaveText(new RegExp(`^Fired ${type}: evt_`));
  await page.getByRole('link', { name: 'Developers' }).click();
  await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
}

/** The events checkbox of `type` in `form`. */
const eventBox = (form: Locator, type: string) => form.getByRole('checkbox', { name: type });

test('an owner adds a webhook, sees its secret once, gets a signed delivery, changes, disables and deletes it', async ({
  page,
  context,
}) => {
  const origin = server.origin;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  await ownerOfNewMerchant(
    page,
    { origin, dataDir: server.dataDir },
    { merchant: 'Kemi Fabrics', owner: 'Kemi Adebayo' },
  );
  await page.getByRole('link', { name: 'Developers' }).click();
  const webhooks = page.getByRole('region', { name: 'Webhooks' });
  await expect(webhooks.getByText('No webhook endpoints yet.')).toBeVisible();

  // The form says what is missing beside each field, announced.
  await webhooks.getByRole('button', { name: 'Add a webhook' }).click();
  const form = webhooks.getByRole('form', { name: 'Add a webhook' });
  await expect(form.getByLabel('Endpoint URL')).toBeVisible();
  await form.getByLabel('Only the events I choose').check();
  await form.getByRole('button', { name: 'Add webhook' }).click();
  await expect(form.getByRole('alert')).toHaveText([
    'Enter the whole URL of your endpoint, such as https://shop.example/webhooks.',
    'Choose at least one event.',
  ]);
  await expect(form.getByLabel('Endpoint URL')).toHaveAttribute('aria-invalid', 'true');
  await look(page, 'webhook-form');
  // Each goes once its field is put right.
  const url = `http://127.0.0.1:${receiverPort()}/hooks`;
  await form.getByLabel('Endpoint URL').fill(url);
  await eventBox(form, 'payment.completed').check();
  await eventBox(form, 'refund.processed').check();
  await expect(form.getByRole('alert')).toHaveCount(0);

  // Added: the secret is shown once, with a copy button, and the panel says so.
  await form.getByRole('button', { name: 'Add webhook' }).click();
  const panel = webhooks.getByRole('region', { name: 'Signing secret' });
  await expect(panel.getByText('it will not be shown again')).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Signing secret' })).toBeFocused();
  const secret = (await panel.locator('.detail-value').textContent()) ?? '';
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  await panel.getByRole('button', { name: 'Copy signing secret' }).click();
  await expect(panel.getByRole('button', { name: 'Signing secret copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await expect(webhooks.getByRole('status').last()).toHaveText('Webhook added.');
  const row = webhooks.getByRole('listitem').filter({ hasText: url });
  await expect(row).toContainText('Events: payment.completed, refund.processed');
  await look(page, 'webhook-secret');
  await panel.getByRole('button', { name: 'Done' }).click();
  await expect(panel).toHaveCount(0);
  await page.reload();
  await expect(row).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);

  // A test event reaches the receiver, signed with that secret.
  await fire(page, 'payment.completed');
  await expect.poll(() => verifiedTypes(secret)).toEqual(['payment.completed']);

  // Its events changed, from the keyboard: payment.completed no longer goes to it.
  await row.getByRole('button', { name: 'Edit' }).click();
  const edit = row.getByRole('form', { name: 'Change this webhook' });
  await expect(edit.getByLabel('Endpoint URL')).toHaveValue(url);
  await expect(eventBox(edit, 'payment.completed')).toBeChecked();
  await expect(eventBox(edit, 'refund.processed')).toBeChecked();
  await eventBox(edit, 'payment.completed').focus();
  await page.keyboard.press('Space');
  await expect(eventBox(edit, 'payment.completed')).not.toBeChecked();
  await eventBox(edit, 'consent.granted').check();
  await look(page, 'webhook-edit');
  await edit.getByRole('button', { name: 'Save changes' }).focus();
  await page.keyboard.press('Enter');
  await expect(row).toContainText('Events: consent.granted, refund.processed');
  await expect(row.getByRole('button', { name: 'Edit' })).toBeFocused();
  await expect(webhooks.getByRole('status').last()).toHaveText('Webhook changed.');
  await fire(page, 'payment.completed');
  await fire(page, 'refund.processed');
  // Test events to one webhook go out in the order they were fired: the second came, the first
  // was never owed to it.
  await expect.poll(() => verifiedTypes(secret)).toEqual(['payment.completed', 'refund.processed']);

  // Disabled: the button says it is working until the server answers; nothing more is sent.
  let answer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  await page.route('**/api/dashboard/webhooks/*/disable', async (route) => {
    await answered;
    await route.continue();
  });
  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row.getByRole('button', { name: 'Working…' })).toBeDisabled();
  answer();
  await expect(
    row.getByText('Disabled on the dashboard: nothing is sent until you enable it.'),
  ).toBeVisible();
  await expect(row.getByRole('button', { name: 'Enable' })).toBeVisible();
  await page.unroute('**/api/dashboard/webhooks/*/disable');
  await fire(page, 'refund.processed');
  await page.reload();
  const deliveries = page.getByRole('region', { name: 'Deliveries' });
  await expect(
    deliveries.getByText(/not sent: the webhook was disabled on the dashboard/),
  ).toBeVisible();
  expect(verifiedTypes(secret)).toEqual(['payment.completed', 'refund.processed']);
  await look(page, 'webhook-disabled');

  // Deleted, after a question in its row: 'Keep it' keeps it, and gives the focus back.
  await row.getByRole('button', { name: 'Delete' }).click();
  const ask = row.getByRole('group', { name: /^Delete this webhook\?/ });
  await expect(ask.getByRole('button', { name: 'Delete webhook' })).toBeFocused();
  await look(page, 'webhook-delete');
  await ask.getByRole('button', { name: 'Keep it' }).click();
  await expect(row.getByRole('button', { name: 'Delete' })).toBeFocused();
  await row.getByRole('button', { name: 'Delete' }).click();
  await row.getByRole('button', { name: 'Delete webhook' }).click();
  await expect(webhooks.getByText('No webhook endpoints yet.')).toBeVisible();
  await expect(webhooks.getByRole('status').last()).toHaveText('Webhook deleted.');

  // The audit log keeps each act in words.
  await page.getByRole('link', { name: 'Team' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  for (const words of [
    'Added a webhook',
    "Changed a webhook's URL or events",
    'Turned a webhook off',
    'Deleted a webhook',
  ]) {
    await expect(page.getByText(new RegExp(`^${words}: `))).toHaveCount(1);
  }
});
