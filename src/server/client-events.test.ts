// `npm run client:listen` and `npm run client:trigger` (docs/webhooks.md, "Events on your
// machine") run for real: a server process on PGlite, a receiver on this machine, listen as a
// child process forwarding to it, trigger firing test events through the server's operator calls.
// The receiver checks each forward as a merchant's would, with the standardwebhooks package and
// the secret listen printed.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES, type TWebhookPayload } from '../domain/schemas/webhooks';
import { TEST_ID_MARK } from '../domain/test-events';
import { startNoticeReceiver, type TNoticeReceiver } from './testing/notice-receiver';
import {
  builtCommand,
  printedOnceReady,
  startServerProcess,
  stopServerProcess,
  type TServerProcess,
} from './testing/server-process';

type TRun = { status: number | null; stdout: string; stderr: string };

const dataDir = mkdtempSync(path.join(tmpdir(), 'consent-client-events-'));
/** The commands find the server through its operator file in DATA_DIR, on PGlite. */
const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
delete env.DATABASE_URL;

/** A client command as `npm run client:<command>` starts it (built: testing/server-process.ts). */
const start = async (command: 'client' | 'client-events', args: string[]) =>
  spawn(process.execPath, [await builtCommand(command), ...args], { env });

/** Runs a command to its end. */
async function run(command: 'client' | 'client-events', ...args: string[]): Promise<TRun> {
  const child = await start(command, args);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr })),
  );
}

const field = (output: string, key: string) =>
  new RegExp(`^${key}:\\s+(.*)$`, 'm').exec(output)?.[1]?.trim() ?? '';

async function trigger(clientId: string, type: string): Promise<string> {
  const fired = await run('client-events', 'trigger', type, '--client', clientId);
  expect(fired.stderr).toContain('(through the running server');
  expect(fired.status).toBe(0);
  const id = field(fired.stdout, 'id');
  expect(id).toMatch(/^evt_/);
  return id;
}

let server: TServerProcess;
let receiver: TNoticeReceiver;
let listener: ChildProcess | null = null;
beforeAll(async () => {
  // DATA_DIR replaces the process's own: its operator file is where the commands look.
  server = await startServerProcess('', { DATA_DIR: dataDir });
  receiver = await startNoticeReceiver();
}, 600_000);
afterAll(async () => {
  if (listener) await stopServerProcess(listener, 'SIGKILL');
  if (server) await stopServerProcess(server.child);
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('client:listen and client:trigger against a running server', () => {
  it('forwards each event created since it started, once, in order, signed with the secret it printed, and stops on Ctrl-C', async () => {
    const created = await run('client', 'create', '--name', 'Tola Stores');
    expect(created.status).toBe(0);
    const clientId = field(created.stdout, 'clientId');
    // Before listen starts: not forwarded.
    const earlier = await trigger(clientId, 'consent.granted');

    listener = await start('client-events', [
      'listen',
      '--client',
      clientId,
      '--forward-to',
      receiver.url,
    ]);
    let output = '';
    listener.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const ready = await printedOnceReady(listener, (stdout) => stdout.includes('Ready:'));
    const secret = /^Signing secret for this session: (whsec_\S+)$/m.exec(ready.join('\n'))?.[1];
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    const fired = [
      await trigger(clientId, 'payment.completed'),
      await trigger(clientId, 'refund.failed'),
    ];
    await expect.poll(() => receiver.received.length).toBeGreaterThanOrEqual(2);
    // One more after listen has polled again: had it forwarded an event twice, it would show.
    fired.push(await trigger(clientId, 'mandate.active'));
    await expect.poll(() => receiver.received.length).toBeGreaterThanOrEqual(3);

    const events = receiver.received.map(({ body, headers }) => {
      const verified = new Webhook(secret ?? '').verify(body, headers as Record<string, string>);
      expect(headers['webhook-id']).toBe((verified as TWebhookPayload).id);
      return verified as TWebhookPayload;
    });
    expect(events.map((e) => e.id)).toEqual(fired);
    expect(events.map((e) => e.id)).not.toContain(earlier);
    expect(events.map((e) => e.type)).toEqual([
      'payment.completed',
      'refund.failed',
      'mandate.active',
    ]);
    for (const event of events) {
      expect(event.data).toMatchObject({ reference: null, metadata: {} });
      expect(event.data.consentId).toMatch(new RegExp(`^cns_${TEST_ID_MARK}`));
    }
    // Another secret does not verify them.
    const [first] = receiver.received;
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(24, 7).toString('base64')}`).verify(
        first?.body ?? '',
        first?.headers as Record<string, string>,
      ),
    ).toThrow();
    // One line per event: its time, type, id and the receiver's answer.
    await expect
      .poll(() => output.split('\n').filter((line) => line.includes('→ 200')))
      .toHaveLength(3);
    for (const event of events) {
      expect(output).toMatch(
        new RegExp(
          `^${event.createdAt.replace(/\./g, '\\.')}\\s+${event.type}\\s+${event.id}\\s+→ 200$`,
          'm',
        ),
      );
    }

    const exited = new Promise<number | null>((resolve) => listener?.once('exit', resolve));
    listener.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(output).toContain('Stopped.');
    listener = null;
  }, 600_000);

  it('refuses a type that is not one, naming the types, and a trigger or listen without its options', async () => {
    const unknown = await run('client-events', 'trigger', 'payment.done', '--client', 'cli_x');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain(`Types: ${WEBHOOK_EVENT_TYPES.join(', ')}`);
    const noClient = await run('client-events', 'trigger', 'payment.completed');
    expect(noClient.status).toBe(2);
    expect(noClient.stderr).toContain(
      'Usage: npm run client:trigger -- <type> --client cli_… (--client is required)',
    );
    const ftp = await run(
      'client-events',
      'listen',
      '--client',
      'cli_x',
      '--forward-to',
      'ftp://localhost/hooks',
    );
    expect(ftp.status).toBe(2);
    expect(ftp.stderr).toContain('--forward-to must be an http(s) URL');
  }, 600_000);
});
