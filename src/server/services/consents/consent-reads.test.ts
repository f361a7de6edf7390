// @module-tag postgres
// Whole file on PostgreSQL: the read takes its other path there (no cache, each read a query).
import { ALL_CAPABILITIES_ON } from '../../../domain/capabilities';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCreateConsentRequest } from '../../../domain/schemas/merchant-api';
import type { TDatabase } from '../../db/database';
import { apiClients, consents, dataSharingItems, merchants, payments } from '../../db/schema';
import { createTestClient, openTestDatabase } from '../../testing/test-app';
import type { TConsentReadAnswer } from './consent-read-answer';
import { consentReads, type TConsentReads } from './consent-reads';
import { createConsent } from './consents';

// The page's consent read is served from memory on PGlite: each kind of write it depends on must
// reach the next read at once, with nothing in between. On PostgreSQL every read is a query.

let database: TDatabase;
let reads: TConsentReads;

beforeAll(async () => {
  database = await openTestDatabase();
  reads = await consentReads(database);
});
afterAll(async () => {
  await reads.close();
  await database.close();
});

async function newConsent() {
  const client = await createTestClient(database, { name: 'Tola Stores' });
  const { consentId } = await createConsent(
    database.db,
    ZCreateConsentRequest.parse({
      payments: [{ type: 'immediate', amount: 250_000, narration: 'Order 17' }],
      dataSharing: { bvnData: true },
    }),
    { clientId: client.clientId, merchantId: client.merchantId, capabilities: ALL_CAPABILITIES_ON },
  );
  return { consentId, client };
}

/** An answer's JSON, written again without the database's spacing. */
const json = (answer: TConsentReadAnswer | null) =>
  JSON.stringify(answer && JSON.parse(answer.body));

describe('the consent read', () => {
  it('is kept in memory on PGlite only, and every read of PostgreSQL is a query', async () => {
    const { consentId } = await newConsent();
    const first = await reads.load(consentId);
    const second = await reads.load(consentId);
    expect(json(first)).toContain(`"consentId":"${consentId}"`);
    expect(reads.cached).toBe(database.kind === 'pglite');
    if (reads.cached) expect(second).toBe(first);
    else expect(second).not.toBe(first);
  });

  it('keeps no miss: an unknown id read once is found once it exists', async () => {
    expect(await reads.load('cns_not_yet')).toBeNull();
    const { consentId } = await newConsent();
    expect(await reads.load(consentId)).not.toBeNull();
  });

  it('answers reads made at once, more than one query asks for, each with its own consent', async () => {
    const made = await Promise.all(Array.from({ length: 12 }, () => newConsent()));
    const ids = [...made.map((m) => m.consentId), 'cns_unknown', made[0]?.consentId ?? ''];
    const answers = await Promise.all(ids.map((id) => reads.load(id)));
    expect(answers.map((answer) => JSON.parse(answer?.body ?? 'null')?.consent.consentId)).toEqual([
      ...made.map((m) => m.consentId),
      undefined,
      made[0]?.consentId,
    ]);
    expect(answers.map((answer) => answer?.clientId)).toEqual([
      ...made.map((m) => m.client.clientId),
      undefined,
      made[0]?.client.clientId,
    ]);
  });

  it('answers with every write the moment the write returns', async () => {
    const { consentId, client } = await newConsent();
    const read = async () => json(await reads.load(consentId));
    const changes: Array<[string, () => Promise<unknown>, (seen: string) => boolean]> = [
      [
        'the consent',
        () =>
          database.db.update(consents).set({ status: 'granted' }).where(eq(consents.id, consentId)),
        (seen) => seen.includes('"status":"granted"'),
      ],
      [
        'a payment',
        () =>
          database.db
            .update(payments)
            .set({ status: 'executed' })
            .where(eq(payments.consentId, consentId)),
        (seen) => seen.includes('"status":"executed"'),
      ],
      [
        'a data-sharing item',
        () =>
          database.db
            .update(dataSharingItems)
            .set({ item: 'bvn_photo' })
            .where(eq(dataSharingItems.consentId, consentId)),
        (seen) => seen.includes('bvn_photo'),
      ],
      [
        'the merchant',
        () =>
          database.db
            .update(merchants)
            .set({ name: 'Tola Stores Ikeja' })
            .where(eq(merchants.id, client.merchantId)),
        (seen) => seen.includes('Tola Stores Ikeja'),
      ],
      [
        "the client's embedding origins",
        () =>
          database.db
            .update(apiClients)
            .set({ allowedOrigins: ['https://shop.tola.ng'] })
            .where(eq(apiClients.clientId, client.clientId)),
        (seen) => seen.includes('https://shop.tola.ng'),
      ],
    ];
    for (const [what, write, shows] of changes) {
      expect(shows(await read()), `before a change to ${what}`).toBe(false);
      await write();
      expect(shows(await read()), `after a change to ${what}`).toBe(true);
    }
  });

  it('serves a change that landed while a read was in flight to the next read', async () => {
    const { consentId } = await newConsent();
    const inFlight = reads.load(consentId);
    await database.db
      .update(consents)
      .set({ status: 'declined' })
      .where(eq(consents.id, consentId));
    await inFlight;
    const after = await reads.load(consentId);
    expect(json(after)).toContain('"status":"declined"');
  });

  it('hands out answers no request can change', async () => {
    const { consentId } = await newConsent();
    const loaded = await reads.load(consentId);
    if (!reads.cached || !loaded) return expect(reads.cached).toBe(false);
    expect(() => {
      (loaded as { clientId: string }).clientId = 'cli_someone_else';
    }).toThrow(TypeError);
    expect(() => {
      (loaded as { body: string }).body = '{}';
    }).toThrow(TypeError);
  });
});
