import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { SANDBOX_CARDS } from '../../src/server/sandbox/fixtures';
import { addVirtualAuthenticator, latestCode, uniquePhone } from './auth-support';
import { SHARED_BUILT_SERVER as server } from './built-server';
import { lookAtScreen, npmRun as npmRunIn, ownerOfNewMerchant, printed } from './dashboard-support';
import { BUILT_SERVER_PAYMENT_LIMIT, E2E } from './e2e-env';

// The merchant dashboard (docs/dashboard.md), as a new merchant meets it: `npm run client:create`
// prints the owner's invitation; its link, an SMS code and this device's passkey make the owner;
// a customer pays in the demo shop; the owner finds the payment, refunds part of it, and sends
// the refund's webhook again from the Developers screen. Each screen passes axe and is shot at
// 390 px and 1280 px into /tmp/dashboard-shots.

const SHOTS = '/tmp/dashboard-shots';
// One webhook receiver for the file: its tests run one after another in one worker.
test.describe.configure({ mode: 'default' });
const receiverPort = () => E2E.appPort + 41;
let receiver: Server | null = null;
const received: string[] = [];

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push(body);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver?.listen(receiverPort(), '127.0.0.1', resolve));
  mkdirSync(SHOTS, { recursive: true });
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

const npmRun = (script: string, ...args: string[]) => npmRunIn(server.dataDir, script, ...args);
const look = (page: Page, name: string) => lookAtScreen(page, SHOTS, name);

test('a new merchant: client:create’s invitation, a passkey, a refunded payment, a resent webhook', async ({
  page,
}) => {
  // A merchant's whole first day, each of its ten screens looked at (axe and screenshots at both
  // widths): about 45 s alone, past 180 s on a loaded 2-core machine.
  test.slow();
  const origin = server.origin;
  const phone = uniquePhone();
  const created = await npmRun(
    'client:create',
    '--name',
    'Kemi Fabrics',
    '--origin',
    origin,
    '--owner-phone',
    phone,
  );
  expect(created.code, created.out).toBe(0);
  const clientId = printed(created.out, 'clientId');
  const secret = printed(created.out, 'secret');
  const invitation = printed(created.out, 'ownerInvitation');
  expect(invitation).toMatch(new RegExp(`^${origin}/dashboard/join#`));
  const hook = await npmRun(
    'client:webhook',
    '--client',
    clientId,
    '--url',
    `http://127.0.0.1:${receiverPort()}/hooks`,
  );
  expect(hook.code, hook.out).toBe(0);

  // The invitation: the code to the owner's phone, then this device's passkey.
  const authenticator = await addVirtualAuthenticator(page);
  await page.goto(invitation);
  await expect(page.getByRole('heading', { name: 'Join your team' })).toBeVisible();
  await expect(page.getByText('Kemi Fabrics invites you to its dashboard as owner.')).toBeVisible();
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
  await page.getByLabel('6-digit code').fill(await latestCode(page.request, phone, origin));
  await page.getByLabel('Your full name').fill('Kemi Adebayo');
  await look(page, 'join');
  await page.getByRole('button', { name: 'Join and make a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible();
  const { credentials } = await authenticator.cdp.send('WebAuthn.getCredentials', {
    authenticatorId: authenticator.authenticatorId,
  });
  expect(credentials).toHaveLength(1);
  await expect(page.getByText('No payments match.')).toBeVisible();

  // A customer pays ₦2,500.00 by card in the demo shop.
  const answer = await page.request.post(`${origin}/api/v1/consents`, {
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
    data: {
      reference: 'KF-1042',
      payments: [{ type: 'immediate', amount: 250000, narration: 'Ankara, 6 yards' }],
    },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  const { consentId } = (await answer.json()) as { consentId: string };
  const shop = await page.context().newPage();
  await shop.goto(`${origin}/sandbox/shop?consentId=${consentId}&clientId=${clientId}`);
  await shop.getByRole('button', { name: 'Pay with Oya Money' }).click();
  const frame = shop.frameLocator('iframe[title="Consent request"]');
  await frame.getByRole('button', { name: /Pay with Card/ }).click();
  const card = SANDBOX_CARDS.find((c) => c.number === '4084080000000003');
  if (!card) throw new Error('The sandbox has no card 4084080000000003');
  await frame.getByLabel('Card Number').fill('4084 0800 0000 0003');
  await frame.getByLabel('Expiry date').fill('12/30');
  await frame.getByLabel('CVV').fill('408');
  await frame.getByRole('button', { name: 'Continue to PIN' }).click();
  await frame.getByLabel('Card PIN').fill(card.pin);
  await frame.getByRole('button', { name: 'Complete Payment' }).click();
  await expect(shop.getByRole('status')).toHaveText(
    `Consent granted: ${consentId}`,
    BUILT_SERVER_PAYMENT_LIMIT,
  );
  await shop.close();

  // The owner finds it by the card's last digits, and refunds ₦500.00 of it.
  await page.getByLabel(/last digits of the account or card/).fill('0003');
  await page.getByRole('button', { name: 'Search' }).click();
  const row = page.getByRole('link', { name: /₦2,500\.00/ });
  await expect(row).toContainText('KF-1042');
  await look(page, 'payments');
  await row.click();
  await expect(page.getByRole('heading', { name: 'Timeline' })).toBeVisible();
  await page.getByLabel('Amount to refund in naira').fill('500');
  await page.getByLabel('Reason').fill('Short by one yard');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  // A success closes the form: pressing again cannot give the same ₦500.00 twice.
  const refundPanel = page.getByRole('region', { name: 'Refund', exact: true });
  await expect(refundPanel.getByRole('status')).toHaveText('Refund of ₦500.00: processed.');
  await expect(refundPanel.getByText('₦2,000.00 can still be refunded.')).toBeVisible();
  await expect(page.getByLabel('Amount to refund in naira')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Refund', exact: true })).toHaveCount(0);
  const refunds = page.getByRole('region', { name: 'Refunds' });
  await expect(refunds.getByRole('listitem')).toHaveCount(1);
  await expect(refunds.getByText('Refund of ₦500.00: processed.')).toBeVisible();
  await expect(page.getByText('Refund of ₦500.00: processed', { exact: true })).toBeVisible();
  await look(page, 'payment');

  // A second refund is a new act, on an empty form. Too much is refused, and the refusal does
  // not hold the next, smaller amount back.
  await page.getByRole('button', { name: 'Refund more' }).click();
  await expect(page.getByLabel('Amount to refund in naira')).toHaveValue('');
  await expect(page.getByLabel('Reason')).toHaveValue('');
  await page.getByLabel('Amount to refund in naira').fill('3,000');
  await page.getByLabel('Reason').fill('Returned the whole order');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(refundPanel.getByRole('alert')).toHaveText(
    'The refund is more than the ₦2,000.00 of this payment that is left to refund',
  );
  await page.getByLabel('Amount to refund in naira').fill('250.50');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(refundPanel.getByRole('status')).toHaveText('Refund of ₦250.50: processed.');
  await expect(refundPanel.getByText('₦1,749.50 can still be refunded.')).toBeVisible();
  await expect(refunds.getByRole('listitem')).toHaveCount(2);

  // The refund's webhook reached the receiver; the owner sends it again.
  await expect.poll(() => received.filter((b) => b.includes('"refund.processed"')).length).toBe(2);
  await page.getByRole('link', { name: 'Developers' }).click();
  await expect(page.getByRole('heading', { name: 'Deliveries' })).toBeVisible();
  // What this server offers its consents: on the sandbox, every capability.
  const offers = page.getByRole('region', { name: 'What this server offers' });
  await expect(offers.getByRole('term')).toHaveCount(12);
  await expect(offers.getByRole('definition')).toHaveText(Array<string>(12).fill('sandbox'));
  const resend = page.getByRole('button', { name: /^Resend refund\.processed/ }).first();
  await expect(resend).toBeVisible();
  await look(page, 'developers');
  await resend.click();
  await expect(page.getByText('Sent again.')).toBeVisible();
  await expect.poll(() => received.filter((b) => b.includes('"refund.processed"')).length).toBe(3);

  // The team and its audit log keep what the owner did.
  await page.getByRole('link', { name: 'Team' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  await expect(page.getByText(/^Refunded a payment: /)).toHaveCount(2);
  await expect(page.getByText(/^Sent a webhook delivery again: /)).toBeVisible();
  await look(page, 'team');

  // Signed out, the passkey signs the owner in again.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to the dashboard' })).toBeVisible();
  await look(page, 'sign-in');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible();
  const cookies = await page.context().cookies(`${origin}/api/dashboard/session`);
  expect(cookies.find((c) => c.name === 'oya_dashboard')).toMatchObject({
    httpOnly: true,
    sameSite: 'Strict',
    path: '/api/dashboard',
  });
});

test('a lost passkey: an SMS code makes a new one, which reads at once and changes nothing for a day', async ({
  browser,
}) => {
  const origin = server.origin;
  // The owner joins on a first device.
  const firstDevice = await browser.newContext();
  const { phone } = await ownerOfNewMerchant(
    await firstDevice.newPage(),
    { origin, dataDir: server.dataDir },
    { merchant: 'Ada Prints', owner: 'Ada Okafor' },
  );
  await firstDevice.close();

  // That device is lost: on a new one, an SMS code and a new passkey.
  const device = await browser.newContext();
  const page = await device.newPage();
  await addVirtualAuthenticator(page);
  await page.goto(`${origin}/dashboard/sign-in`);
  await page.getByRole('button', { name: 'Lost your passkey?' }).click();
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
  await page.getByLabel('6-digit code').fill(await latestCode(page.request, phone, origin));
  await page.getByRole('button', { name: 'Verify and make a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: /^This passkey was added by SMS code\. Until / }),
  ).toBeVisible();
  await look(page, 'recovered');

  // It reads the team, and its invitation waits: the server says until when.
  await page.getByRole('link', { name: 'Team' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  await page.getByLabel('Phone number').fill(uniquePhone());
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(
    page.getByText(/^Added by SMS code, this passkey can refund, cancel or change settings from /),
  ).toBeVisible();
  await look(page, 'recovered-team');
  await device.close();
});
