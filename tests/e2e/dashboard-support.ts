import { spawn } from 'node:child_process';
import { expect, type Page } from '@playwright/test';
import { addVirtualAuthenticator, latestCode, uniquePhone } from './auth-support';
import { expectNoViolations } from './axe';

// What the dashboard's browser tests share (docs/dashboard.md): the npm scripts run against a
// built server's data directory (client:create prints the owner's invitation), a new merchant's
// owner joined through it, and each screen checked with axe and shot at 390 px and 1280 px.

/** `npm run <script> -- <args>` on the data directory `dataDir`: its exit code and output. */
export function npmRun(dataDir: string, script: string, ...args: string[]) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      env: { ...process.env, DATA_DIR: dataDir },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** The value a script printed as `key: value`. */
export const printed = (out: string, key: string) => {
  const value = new RegExp(`^${key}:\\s+(\\S+)$`, 'm').exec(out)?.[1];
  if (!value) throw new Error(`No ${key} in:\n${out}`);
  return value;
};

/** axe on the screen as it stands, and its shots at both widths into `dir`. */
export async function lookAtScreen(page: Page, dir: string, name: string) {
  await expectNoViolations(page);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

/**
 * A new merchant made by `client:create` on the built server at `origin` (its data in
 * `dataDir`), whose owner joins on `page` with an SMS code and this device's passkey, and lands
 * on Payments. Its credentials, as the merchant's server would send them, and the owner's phone.
 */
export async function ownerOfNewMerchant(
  page: Page,
  server: { origin: string; dataDir: string },
  names: { merchant: string; owner: string },
) {
  const { origin, dataDir } = server;
  const phone = uniquePhone();
  const created = await npmRun(
    dataDir,
    'client:create',
    '--name',
    names.merchant,
    '--origin',
    origin,
    '--owner-phone',
    phone,
  );
  expect(created.code, created.out).toBe(0);
  const clientId = printed(created.out, 'clientId');
  const secret = printed(created.out, 'secret');
  await joinByInvitation(page, {
    origin,
    invitation: printed(created.out, 'ownerInvitation'),
    phone,
    fullName: names.owner,
  });
  return {
    phone,
    clientId,
    secret,
    authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
  };
}

/**
 * Joins a team on `page` by an invitation's link (served at `origin`): the phone's SMS code, the
 * person's name, and this device's passkey; lands on Payments.
 */
export async function joinByInvitation(
  page: Page,
  input: { origin: string; invitation: string; phone: string; fullName: string },
) {
  await addVirtualAuthenticator(page);
  await page.goto(input.invitation);
  await page.getByLabel('Phone number').fill(input.phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
  await page
    .getByLabel('6-digit code')
    .fill(await latestCode(page.request, input.phone, input.origin));
  await page.getByLabel('Your full name').fill(input.fullName);
  await page.getByRole('button', { name: 'Join and make a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible();
}
