import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { uniquePhone } from './auth-support';
import { joinByInvitation, lookAtScreen } from './dashboard-support';
import { E2E } from './e2e-env';

// The dashboard's Routes screen (docs/dashboard.md "Routes"): a merchant's owner sees cards'
// providers in order with Paystack eliminated since 12 minutes ago after 5 timeouts, where new
// work goes, and the one payment failover recovered today; pauses the sandbox (new work then goes
// to Paystack), is refused pausing the last one, and resumes it. The server (routes-server.ts)
// has a test's own health with the elimination. axe and shots at 390 px and 1280 px into
// /tmp/dashboard-routes-shots.

const SHOTS = '/tmp/dashboard-routes-shots';

let server: ChildProcess | null = null;
let invitation = '';
let origin = '';

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const port = E2E.appPort + (test.info().project.name === 'mobile' ? 57 : 58);
  origin = `http://localhost:${port}`;
  // Node itself runs the server (tsx as its loader), so stopping this process stops the server.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './scripts/style-imports.ts', 'tests/e2e/routes-server.ts'],
    { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  server = child;
  let printed = '';
  invitation = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Not started in 150 s:\n${printed}`)), 150_000);
    const read = (chunk: Buffer) => {
      printed += chunk.toString();
      const line = /^Invitation: (\S+)$/m.exec(printed);
      if (line?.[1]) {
        clearTimeout(timer);
        resolve(line[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The server stopped (${code}):\n${printed}`));
    });
  });
});
test.afterAll(() => {
  server?.kill('SIGTERM');
});

test('an owner sees an eliminated provider and a recovered payment, and pauses one', async ({
  page,
}) => {
  await joinByInvitation(page, {
    origin,
    invitation,
    phone: uniquePhone(),
    fullName: 'Kemi Adebayo',
  });
  await page.getByRole('link', { name: 'Routes' }).click();
  await expect(page.getByRole('heading', { name: 'Routes', level: 1 })).toBeVisible();

  const recovered = page.getByRole('region', { name: 'Recovered by failover' });
  await expect(recovered.getByText('1 payment · ₦2,500.00')).toHaveCount(2);
  const cards = page.getByRole('region', { name: 'Card payments' });
  await expect(cards.getByText('New work goes first to sandbox.')).toBeVisible();
  const paystack = cards.getByRole('listitem').filter({ hasText: 'paystack' });
  await expect(paystack.getByText(/^Eliminated since .+, after 5 timeouts$/)).toBeVisible();
  await expect(
    paystack.getByText('70% answered of 20 calls · 5 timeouts · p95 30.0 s'),
  ).toBeVisible();
  await lookAtScreen(page, SHOTS, 'routes');

  await cards.getByRole('button', { name: 'Pause sandbox' }).click();
  await expect(cards.getByText('New work goes first to paystack.')).toBeVisible();
  await expect(cards.getByText(/^Paused by you since /)).toBeVisible();
  await cards.getByRole('button', { name: 'Pause paystack' }).click();
  await expect(
    page.getByText(
      'This is the last provider taking new work here. Resume or add another before pausing it.',
    ),
  ).toBeVisible();
  await lookAtScreen(page, SHOTS, 'routes-paused');

  await cards.getByRole('button', { name: 'Resume sandbox' }).click();
  await expect(cards.getByText('New work goes first to sandbox.')).toBeVisible();
  await expect(cards.getByText(/^Paused by you since /)).toHaveCount(0);
});
