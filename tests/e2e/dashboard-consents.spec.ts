import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { addVirtualAuthenticator, latestCode, uniquePhone } from './auth-support';
import { expectNoViolations } from './axe';
import { startBuiltServer } from './built-server';
import { E2E } from './e2e-env';

// The dashboard's Consents and mandates (docs/dashboard.md "Consents"): a new merchant's owner
// (client:create's invitation, an SMS code, this device's passkey) opens Consents from the nav,
// finds a consent by its reference and by status, and opens it: its status, schedule, mandates
// and grant record. Each screen passes axe and is shot at 390 px and 1280 px into
// /tmp/dashboard-consents-shots.

const SHOTS = '/tmp/dashboard-consents-shots';
// Ports of its own, past those of dashboard.spec.ts (appPort + 40, 41).
const serverPort = () => E2E.appPort + 44;
let server: Awaited<ReturnType<typeof startBuiltServer>> | null = null;

test.beforeAll(async () => {
  server = await startBuiltServer(serverPort());
  mkdirSync(SHOTS, { recursive: true });
});

test.afterAll(async () => {
  await server?.stop();
});

function npmRun(script: string, ...args: string[]) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      env: { ...process.env, DATA_DIR: server?.dataDir ?? '' },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

const printed = (out: string, key: string) => {
  const value = new RegExp(`^${key}:\\s+(\\S+)$`, 'm').exec(out)?.[1];
  if (!value) throw new Error(`No ${key} in:\n${out}`);
  return value;
};

/** axe on the screen as it stands, and its shots at both widths. */
async function look(page: Page, name: string) {
  await expectNoViolations(page);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

test('the owner finds a consent by reference and status and reads its schedule and record', async ({
  page,
}) => {
  const origin = server?.origin ?? '';
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
  const authorization = `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;

  // Two consents: a subscription asked of a payer (not yet answered), and another order.
  const ask = async (reference: string, payments: object[]) => {
    const answer = await page.request.post(`${origin}/api/v1/consents`, {
      headers: { authorization },
      data: { reference, payments, requirements: { requiresAuth: true } },
    });
    expect(answer.status(), await answer.text()).toBe(201);
    return ((await answer.json()) as { consentId: string }).consentId;
  };
  const due = (month: number) => new Date(Date.UTC(2027, month, 1, 9)).toISOString();
  const subscription = await ask('KF-SUB-7', [
    { type: 'future', amount: 450_000, narration: 'Fabric box, March', dueDate: due(2) },
    { type: 'future', amount: 450_000, narration: 'Fabric box, April', dueDate: due(3) },
  ]);
  await ask('KF-1043', [{ type: 'immediate', amount: 250_000, narration: 'Ankara, 6 yards' }]);

  await addVirtualAuthenticator(page);
  await page.goto(invitation);
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
  await page.getByLabel('6-digit code').fill(await latestCode(page.request, phone, origin));
  await page.getByLabel('Your full name').fill('Kemi Adebayo');
  await page.getByRole('button', { name: 'Join and make a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible();

  // Consents, from the nav, by keyboard.
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  await nav.getByRole('link', { name: 'Consents' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Consents and mandates' })).toBeVisible();
  await expect(page.getByRole('link', { name: /KF-SUB-7/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /KF-1043/ })).toBeVisible();
  await look(page, 'consents');

  await page.getByLabel('Reference').fill('KF-SUB-7');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('link', { name: /KF-1043/ })).toHaveCount(0);
  const row = page.getByRole('link', { name: /KF-SUB-7/ });
  await expect(row).toContainText('2 future · ₦9,000.00');
  await page.getByLabel('Reference').fill('');
  await page.getByLabel('Status').selectOption('granted');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('No consents match.')).toBeVisible();
  await page.getByLabel('Status').selectOption('pending');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('link', { name: /KF-SUB-7/ })).toBeVisible();

  await page.getByRole('link', { name: /KF-SUB-7/ }).click();
  await expect(page.getByRole('heading', { name: /KF-SUB-7 · pending/ })).toBeVisible();
  await expect(page.getByText(subscription, { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Future payments' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Mandates' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Grant record' })).toBeVisible();
  // Not granted: nothing is owed yet, there is no record, and nothing to cancel.
  await expect(page.getByText('No future payments are owed.')).toBeVisible();
  await expect(page.getByText(/No grant record/)).toBeVisible();
  await expect(page.getByText('Requested by the merchant')).toBeVisible();
  await expect(page.getByRole('button', { name: /Cancel future payments/ })).toHaveCount(0);
  await look(page, 'consent');
});
