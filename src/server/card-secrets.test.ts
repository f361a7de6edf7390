// No card number, CVV or PIN is ever stored or logged (docs/payments.md): after a full run of card
// payments — paid, paid after an OTP, 3-D Secure, declined, a wrong PIN — and of card links —
// linked, after an OTP, after 3-D Secure, declined, a paid card saved to an account, each payer
// linking their own cards (their person's, whose BVN they verified) — the database files on disk,
// the rows of every table (pg-boss's jobs too) and every log line are searched for them.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase, type TDatabase } from './db/database';
import { SANDBOX_CARDS, type TAccountScenario } from './sandbox/fixtures';
import { everyRow, tablesHolding } from './testing/database-rows';
import { openTestDatabase } from './testing/test-app';
import { ownPerson, type TSandboxPerson } from './testing/bvn';
import { signUp, testPhone } from './testing/identity';
import { consentWithPayment, encryptedCard, sandboxCard } from './testing/payments';

const dataDir = mkdtempSync(path.join(tmpdir(), 'card-secrets-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });

/** Every way a card's secrets could be written down: digits as typed, and as JSON fields. */
const secretsOf = (cards: ReadonlyArray<{ number: string; cvv: string; pin: string }>) =>
  cards.flatMap((card) => [
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

    // Card links, each by a payer of their own, of their own person's cards to that person's
    // accounts whose banks take cards: a card links only an account held under the payer's BVN.
    const people: TSandboxPerson[] = [];
    const signedIn = async () => {
      const { token } = await signUp(app, testPhone(), 'Funmilayo Adebayo');
      const person = await ownPerson(app, token);
      people.push(person);
      return { headers: { authorization: `Bearer ${token}` }, person };
    };
    type TPayer = Awaited<ReturnType<typeof signedIn>>;
    const cardOf = (payer: TPayer, scenario: Parameters<typeof sandboxCard>[0]) => {
      const card = payer.person.cards.find((c) => c.scenario === scenario);
      if (!card) throw new Error(`No ${scenario} card`);
      return card;
    };
    const accountOf = (payer: TPayer, scenario: TAccountScenario) => {
      const account = payer.person.accounts.find((a) => a.scenario === scenario);
      if (!account) throw new Error(`No ${scenario} account`);
      return { accountNumber: account.accountNumber, institutionCode: account.institutionCode };
    };
    const link = async (
      payer: TPayer,
      scenario: Parameters<typeof sandboxCard>[0],
      accountScenario: TAccountScenario = 'links_by_card',
    ) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/payments/card',
        headers: payer.headers,
        payload: {
          saveCard: true,
          saveToAccount: accountOf(payer, accountScenario),
          cardDetails: await encryptedCard(app, cardOf(payer, scenario)),
        },
      });
      return response.json<Record<string, unknown>>();
    };
    const first = await signedIn();
    await link(first, 'declined');
    const otpLink = await link(first, 'pin_otp');
    const otpLinked = await app.inject({
      method: 'POST',
      url: '/api/payments/card/complete',
      headers: first.headers,
      payload: { paymentId: otpLink.paymentId, otp: cardOf(first, 'pin_otp').otp },
    });
    expect(otpLinked.statusCode, otpLinked.body).toBe(200);
    const second = await signedIn();
    const threeDsLink = await link(second, 'three_ds');
    const threeDsAnswered = await app.inject({
      method: 'POST',
      url: `/api/sandbox/3ds/${String(threeDsLink.challengeUrl).split('/sandbox/3ds/')[1]}`,
      payload: { approved: true },
    });
    expect(threeDsAnswered.statusCode, threeDsAnswered.body).toBe(200);
    // A card of another account is refused before anything is charged.
    expect(await link(second, 'pin_only', 'insufficient_funds')).toMatchObject({ success: false });
    expect(await link(await signedIn(), 'pin_only')).toMatchObject({ success: true });
    const third = await signedIn();
    const saved = await consentWithPayment(app, database);
    await app.inject({
      method: 'POST',
      url: '/api/payments/card',
      headers: third.headers,
      payload: {
        paymentId: saved.paymentId,
        cardDetails: await encryptedCard(app, cardOf(third, 'pin_only')),
        saveCard: true,
      },
    });
    const savedCard = await app.inject({
      method: 'POST',
      url: '/api/payments/save-card',
      headers: third.headers,
      payload: { paymentId: saved.paymentId, ...accountOf(third, 'links_by_card') },
    });
    expect(savedCard.statusCode, savedCard.body).toBe(200);

    // Every table of every schema: ours, and pg-boss's jobs with their data.
    const rows = await everyRow(database.db);
    const allRows = [...rows.values()].join('\n');
    await app.close();
    await database.close();

    expect([...rows.keys()]).toContain('pgboss.job');
    expect(allRows).toContain('card_payment');
    expect(allRows).toContain('test_charge_refund');
    expect(allRows).toContain('sbx_tok_');
    expect(logs.join('').length).toBeGreaterThan(0);
    // The cards used: the fixtures paid with, and the payers' own cards linked and saved.
    const cardsUsed = [...SANDBOX_CARDS, ...people.flatMap((person) => person.cards)];
    for (const secret of secretsOf(cardsUsed)) {
      expect(tablesHolding(rows, secret), `a table holds ${secret}`).toEqual([]);
      expect(logs.join(''), `a log line holds ${secret}`).not.toContain(secret);
    }
    if (onDisk) {
      const files = filesUnder(dataDir);
      expect(files.length).toBeGreaterThan(10);
      for (const file of files) {
        const bytes = readFileSync(file).toString('latin1');
        for (const card of cardsUsed) {
          expect(bytes.includes(card.number), `${file} holds a card number`).toBe(false);
        }
      }
    }
  }, 600_000);
});
