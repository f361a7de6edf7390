// No card number, track 2, PIN block or PIN from a card reader is ever stored or logged
// (docs/terminal.md "What is stored"): after every chip purchase path — approved, a replay,
// insufficient funds, a wrong PIN, declined, a tampered cryptogram, a stripe-only track 2, a
// malformed body, and a database fault that ends in a logged 500 — the database files on disk,
// the rows of every table (pg-boss's jobs too) and every log line (at trace level) are searched
// for them.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { TChipReaderData } from '../domain/schemas/card-terminal';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase, type TDatabase } from './db/database';
import { everyRow, tablesHolding } from './testing/database-rows';
import { openTestDatabase } from './testing/test-app';
import { consentWithPayment } from './testing/payments';
import { chipPurchase, readChipCard, withIccValue } from './testing/terminal';
import type { TChipCardScenario } from './sandbox/fixtures';

const dataDir = mkdtempSync(path.join(tmpdir(), 'terminal-secrets-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });

describe('card reader secrets', () => {
  it('are in no database file, no table and no log line after every chip purchase path', async () => {
    const onDisk = !process.env.DATABASE_URL;
    const database: TDatabase = onDisk
      ? await openDatabase({ kind: 'pglite', dataDir, template: inject('pgliteTemplate') })
      : await openTestDatabase();
    const logs: string[] = [];
    const app = await buildApp({
      config: loadConfig({ PORT: '3999', PUBLIC_URL: 'http://localhost:3999', LOG_LEVEL: 'trace' }),
      database,
      logStream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          logs.push(chunk.toString());
          done();
        },
      }),
    });
    await app.ready();
    const reads: TChipReaderData[] = [];
    const statuses: number[] = [];
    const purchase = async (
      scenario: TChipCardScenario,
      options: { pin?: string; change?: (read: TChipReaderData) => Record<string, unknown> } = {},
    ) => {
      const consent = await consentWithPayment(app, database);
      const read = await readChipCard(app, scenario, consent.amount, options.pin);
      reads.push(read);
      const body = {
        ...read,
        ...options.change?.(read),
        paymentId: consent.paymentId,
        consentId: consent.consentId,
      };
      const response = await chipPurchase(app, body);
      statuses.push(response.statusCode);
      return { body, response };
    };

    const approved = await purchase('chip_approved');
    statuses.push((await chipPurchase(app, approved.body)).statusCode);
    await purchase('chip_insufficient_funds');
    await purchase('chip_approved', { pin: '9876' });
    await purchase('chip_declined');
    await purchase('chip_approved', {
      change: (read) => ({ icc_data: withIccValue(read.icc_data, '9F37', '00000000') }),
    });
    await purchase('chip_approved', {
      change: (read) => ({ track2: read.track2.replace(/D(\d{4})\d{3}/, 'D$1101') }),
    });
    await purchase('chip_approved', { change: () => ({ amount: 'all of it' }) });

    // A fault in the database while the purchase is recorded: a 500, logged with its SQL.
    await database.db.execute(sql`
      create function refuse_purchase() returns trigger language plpgsql as $$
      begin raise exception 'refused by test'; end $$`);
    await database.db.execute(sql`
      create trigger refuse_purchase before insert on terminal_purchases
      for each row execute function refuse_purchase()`);
    await purchase('chip_approved');
    await database.db.execute(sql`drop trigger refuse_purchase on terminal_purchases`);
    await database.db.execute(sql`drop function refuse_purchase`);

    expect(statuses).toEqual([200, 200, 402, 402, 402, 402, 400, 400, 500]);

    // Every table of every schema: ours, and pg-boss's jobs with their data.
    const rows = await everyRow(database.db);
    const allRows = [...rows.values()].join('\n');
    await app.close();
    await database.close();

    const log = logs.join('');
    expect([...rows.keys()]).toContain('pgboss.job');
    expect(allRows).toContain('chip_card_payment');
    expect(allRows).toContain('539983******1006');
    expect(log).toContain('/api/card-terminal/raven/chip-purchase');
    expect(log).toContain('terminal_purchases');
    expect(log).toContain('params: [redacted]');
    const secrets = reads.flatMap((read) => [
      read.pan,
      read.track2,
      read.pin_block,
      read.icc_data,
      `"pin":"${'1234'}"`,
    ]);
    for (const secret of secrets) {
      expect(tablesHolding(rows, secret), `a table holds ${secret}`).toEqual([]);
      expect(log, `a log line holds ${secret}`).not.toContain(secret);
    }
    if (onDisk) {
      const files = filesUnder(dataDir);
      expect(files.length).toBeGreaterThan(10);
      for (const file of files) {
        const bytes = readFileSync(file).toString('latin1');
        for (const read of reads) {
          expect(bytes.includes(read.pan), `${file} holds a card number`).toBe(false);
          expect(bytes.includes(read.track2), `${file} holds track 2`).toBe(false);
          expect(bytes.includes(read.pin_block), `${file} holds a PIN block`).toBe(false);
        }
      }
    }
  }, 600_000);
});
