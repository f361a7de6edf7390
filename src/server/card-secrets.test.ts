// No card number, CVV or PIN is ever stored or logged (issue 9 §5; docs/payments.md): after a
// full run of card payments — paid, paid after an OTP, 3-D Secure, declined, a wrong PIN — and of
// card links — linked, after an OTP, after 3-D Secure, declined, a paid card saved to an account —
// the database files on disk, every table's rows and every log line are searched for them.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase, type TDatabase } from './db/database';
import { SANDBOX_ACCOUNTS, SANDBOX_CARDS } from './sandbox/fixtures';
import { openTestDatabase } from './testing/test-app';
import { signUp, testPhone } from './testing/identity';
import { consentWithPayment, encryptedCard, sandboxCard } from './testing/payments';

const dataDir = mkdtempSync(path.join(tmpdir(), 'card-secrets-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });

/** Every way a secret could be written down: digits as typed, and as JSON fields. */
const secrets = SANDBOX_CARDS.flatMap((card) => [
  card.number,
  card.number.replace(/(\d{4})(?=\d)/g, '$1 '),
  `"cvv":"${card.cvv}"`,
  `"pin":"${card.pin}"`,
]);

describe('card secrets', () => {
  it('are in no database file, no table and no log line after every card path', async () => {
    const onDisk = !process.env.DATABASE_URL;
    const database: TDatabase = onDisk
      ? await openDatabase({ kind: 'pglite', dataDir, template: inject('pgliteTemplate') })
      : await openTestDatabase();
    const logs: string[] = [];
    const app = await buildApp({
      config: loadConfig({
        PORT: '3999',
        PUBLIC_URL: 'http://localhost:3999',
        LOG_LEVEL: 'trace',
        SANDBOX_CARD_TIMEOUT_MS: '20',
      }),
      database,
      logStream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          logs.push(chunk.toString());
          done();
        },
      }),
    });
    await app.ready();
    const pay = async (scenario: Parameters<typeof sandboxCard>[0], pin?: string) => {
      const consent = await consentWithPayment(app, database);
      const card = sandboxCard(scenario);
      const response = await app.inject({
        method: 'POST',
        url: '/api/payments/card/public',
        payload: {
          paymentId: consent.paymentId,
          consentId: consent.consentId,
          cardDetails: await encryptedCard(app, { ...card, pin: pin ?? card.pin }),
          saveCard: true,
        },
      });
      return { consent, body: response.json<Record<string, unknown>>() };
    };

    await pay('pin_only');
    await pay('pin_only', '0000');
    await pay('declined');
    await pay('timeout');
    const otp = await pay('pin_otp');
    const otpPaid = await app.inject({
      method: 'POST',
      url: '/api/payments/card/complete',
      payload: {
        paymentId: otp.consent.paymentId,
        otp: sandboxCard('pin_otp').otp,
        consentId: otp.consent.consentId,
        chargeToken: otp.body.chargeToken,
      },
    });
    expect(otpPaid.statusCode).toBe(200);
    const threeDs = await pay('three_ds');
    const reference = String(threeDs.body.challengeUrl).split('/sandbox/3ds/')[1];
    await app.inject({
      method: 'POST',
      url: `/api/sandbox/3ds/${reference}`,
      payload: { approved: true },
    });

    // Card links, each by a payer of their own, to the accounts whose banks take cards.
    const cardAccounts = SANDBOX_ACCOUNTS.filter((a) =>
      ['links_by_card', 'insufficient_funds'].includes(a.scenario),
    ).map(({ accountNumber, institutionCode }) => ({ accountNumber, institutionCode }));
    const signedIn = async () => {
      const { token } = await signUp(app, testPhone(), 'Funmilayo Adebayo');
      return { authorization: `Bearer ${token}` };
    };
    const link = async (
      headers: Record<string, string>,
      scenario: Parameters<typeof sandboxCard>[0],
      saveToAccount = cardAccounts[0],
    ) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/payments/card',
        headers,
        payload: {
          saveCard: true,
          saveToAccount,
          cardDetails: await encryptedCard(app, sandboxCard(scenario)),
        },
      });
      return response.json<Record<string, unknown>>();
    };
    const first = await signedIn();
    await link(first, 'declined');
    const otpLink = await link(first, 'pin_otp');
    await app.inject({
      method: 'POST',
      url: '/api/payments/card/complete',
      headers: first,
      payload: { paymentId: otpLink.paymentId, otp: sandboxCard('pin_otp').otp },
    });
    const second = await signedIn();
    const threeDsLink = await link(second, 'three_ds');
    await app.inject({
      method: 'POST',
      url: `/api/sandbox/3ds/${String(threeDsLink.challengeUrl).split('/sandbox/3ds/')[1]}`,
      payload: { approved: true },
    });
    // A card of another account is refused before anything is charged.
    await link(second, 'pin_only', cardAccounts[1]);
    await link(await signedIn(), 'pin_only');
    const third = await signedIn();
    const saved = await consentWithPayment(app, database);
    await app.inject({
      method: 'POST',
      url: '/api/payments/card',
      headers: third,
      payload: {
        paymentId: saved.paymentId,
        cardDetails: await encryptedCard(app, sandboxCard('pin_only')),
        saveCard: true,
      },
    });
    const savedCard = await app.inject({
      method: 'POST',
      url: '/api/payments/save-card',
      headers: third,
      payload: { paymentId: saved.paymentId, ...cardAccounts[0] },
    });
    expect(savedCard.statusCode).toBe(200);

    // Both drivers answer raw SQL with `{ rows }`.
    const rowsOf = async <T>(query: ReturnType<typeof sql>): Promise<T[]> => {
      const result: unknown = await database.db.execute(query);
      return (result as { rows: T[] }).rows;
    };
    const tables = await rowsOf<{ table_name: string }>(sql`
      SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`);
    let everyRow = '';
    for (const { table_name: table } of tables) {
      const rows = await rowsOf<{ row: string }>(
        sql.raw(`SELECT row_to_json(t)::text AS row FROM "${table}" t`),
      );
      everyRow += rows.map((r) => r.row).join('\n');
    }
    await app.close();
    await database.close();

    expect(everyRow).toContain('card_payment');
    expect(everyRow).toContain('test_charge_refund');
    expect(everyRow).toContain('sbx_tok_');
    expect(logs.join('').length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(everyRow, `a table holds ${secret}`).not.toContain(secret);
      expect(logs.join(''), `a log line holds ${secret}`).not.toContain(secret);
    }
    if (onDisk) {
      const files = filesUnder(dataDir);
      expect(files.length).toBeGreaterThan(10);
      for (const file of files) {
        const bytes = readFileSync(file).toString('latin1');
        for (const card of SANDBOX_CARDS) {
          expect(bytes.includes(card.number), `${file} holds a card number`).toBe(false);
        }
      }
    }
  }, 120_000);
});
