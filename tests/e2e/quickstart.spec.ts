import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { SANDBOX_CARDS } from '../../src/server/sandbox/fixtures';
import { expectNoViolations } from './axe';
import { startBuiltServer } from './built-server';
import { BUILT_SERVER_PAYMENT_LIMIT, E2E } from './e2e-env';
import { snap } from './merchant';

// The README's "Quickstart", as written: the built server runs (as `npm start` runs it); while
// it runs, `npm run client:create` and `client:webhook` (which reach it through its operator
// calls, PGlite being one process's database), the example receiver, the consent call, the demo
// shop opening the consent with the embed script, a card payment, and the signed webhooks the
// receiver verified.

// Ports of their own per viewport project (with SNAP=1 both run it at once).
const serverPort = () => E2E.appPort + (test.info().project.name === 'mobile' ? 32 : 34);
const receiverPort = () => serverPort() + 1;
let server: Awaited<ReturnType<typeof startBuiltServer>> | null = null;
let receiver: ChildProcess | null = null;
let received = '';

test.beforeAll(async () => {
  // As the Quickstart starts it: the receiver is on this machine, over http.
  server = await startBuiltServer(serverPort(), { WEBHOOKS_ALLOW_PRIVATE: 'on' });
});

test.afterAll(async () => {
  receiver?.kill('SIGTERM');
  await server?.stop();
});

/** `npm run <script> -- args` in the repository, with the server's data directory. */
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

test('the quickstart: a client made while the server runs, a consent paid in the shop, the signed webhooks received', async ({
  page,
}, testInfo) => {
  // Three commands (each a Node start), a card payment with its 3 s completion, deliveries.
  const origin = server?.origin ?? '';
  expect(server?.printed).toContain('WEBHOOKS_ALLOW_PRIVATE=on');

  const created = await npmRun('client:create', '--name', 'Tola Stores', '--origin', origin);
  expect(created.code, created.out).toBe(0);
  expect(created.out).toContain('(through the running server');
  const clientId = printed(created.out, 'clientId');
  const secret = printed(created.out, 'secret');

  const hook = await npmRun(
    'client:webhook',
    '--client',
    clientId,
    '--url',
    `http://localhost:${receiverPort()}/hooks`,
  );
  expect(hook.code, hook.out).toBe(0);
  const webhookSecret = printed(hook.out, 'secret');

  receiver = spawn(process.execPath, ['examples/webhook-receiver.mjs'], {
    env: { ...process.env, WEBHOOK_SECRET: webhookSecret, PORT: String(receiverPort()) },
  });
  receiver.stdout?.on('data', (chunk: Buffer) => (received += chunk.toString()));
  await expect.poll(() => received).toContain('Receiving webhooks on');

  const answer = await page.request.post(`${origin}/api/v1/consents`, {
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
    },
    data: {
      payments: [{ type: 'immediate', amount: 250000, narration: 'Order #1042' }],
      reference: 'ORD-1042',
      metadata: { cart: '3 items' },
    },
  });
  expect(answer.status()).toBe(201);
  const { consentId } = (await answer.json()) as { consentId: string };

  await page.goto(`${origin}/sandbox/shop?consentId=${consentId}&clientId=${clientId}`);
  await expect(page).toHaveTitle('Demo shop - Oya Money');
  await snap(page, testInfo, 'quickstart-shop');
  await expectNoViolations(page);
  await page.getByRole('button', { name: 'Pay with Oya Money' }).click();

  const frame = page.frameLocator('iframe[title="Consent request"]');
  await frame.getByRole('button', { name: /Pay with Card/ }).click();
  const card = SANDBOX_CARDS.find((c) => c.number === '4084080000000003');
  if (!card) throw new Error('The README names a card the sandbox does not have');
  await frame.getByLabel('Card Number').fill('4084 0800 0000 0003');
  await frame.getByLabel('Expiry date').fill('12/30');
  await frame.getByLabel('CVV').fill('408');
  await frame.getByRole('button', { name: 'Continue to PIN' }).click();
  await frame.getByLabel('Card PIN').fill(card.pin);
  await frame.getByRole('button', { name: 'Complete Payment' }).click();

  await expect(page.getByRole('status')).toHaveText(
    `Consent granted: ${consentId}`,
    BUILT_SERVER_PAYMENT_LIMIT,
  );
  await snap(page, testInfo, 'quickstart-shop-granted');

  // The receiver verified both signatures (a delivery that did not verify prints 'refused').
  await expect
    .poll(() => received)
    .toMatch(new RegExp(`verified payment\\.completed evt_\\S+ .*"consentId":"${consentId}"`));
  expect(received).toMatch(/verified payment\.completed .*"reference":"ORD-1042"/);
  await expect
    .poll(() => received)
    .toMatch(new RegExp(`verified consent\\.granted evt_\\S+ .*"consentId":"${consentId}"`));
  expect(received).not.toContain('refused');
});
