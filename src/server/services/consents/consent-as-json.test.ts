import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CAPABILITIES_ON } from '../../../domain/capabilities';
import { ZCreateConsentRequest } from '../../../domain/schemas/merchant-api';
import type { TDatabase } from '../../db/database';
import { consents, dataSharingItems, payments } from '../../db/schema';
import { EVERY_FIELD_CONSENT } from '../../testing/consents';
import { createTestClient, openTestDatabase } from '../../testing/test-app';
import { consentAsJson, consentOfJson, createConsent, loadConsent } from './consents';

// The consent a statement reads beside its own rows (the completion's lock) is the consent
// loadConsent reads: every field, as its own query maps it.

let database: TDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

async function newConsent(body: object): Promise<string> {
  const client = await createTestClient(database, { name: 'Tola "Stores"' });
  const { consentId } = await createConsent(database.db, ZCreateConsentRequest.parse(body), {
    clientId: client.clientId,
    merchantId: client.merchantId,
    capabilities: ALL_CAPABILITIES_ON,
  });
  return consentId;
}

async function bothReads(consentId: string) {
  const [row] = await database.db
    .select({ json: consentAsJson })
    .from(consents)
    .where(eq(consents.id, consentId));
  return {
    beside: consentOfJson(row?.json),
    loaded: (await loadConsent(database.db, consentId))?.consent,
  };
}

describe('a consent read beside other rows', () => {
  it('is the consent loadConsent reads, every field set', async () => {
    const consentId = await newConsent(EVERY_FIELD_CONSENT);
    // Microseconds, which both reads truncate to milliseconds; text JSON must escape.
    await database.db
      .update(consents)
      .set({
        grantedAt: sql`'2026-11-24 10:00:00.123999+00'`,
        partyImage: 'https://img.example/p.png',
      })
      .where(eq(consents.id, consentId));
    await database.db
      .update(payments)
      .set({
        narration: 'Till "3"\n\t\u0001 \\ \u00e9\u{1F600}\u2028',
        executedAt: sql`'2026-11-24 10:00:01.000999+00'`,
        paypointLocationName: 'Ikeja <branch> & co',
        origin: { paymentMethod: 'card', maskedCardNumber: '5399 **** 1234', isNewCard: true },
      })
      .where(eq(payments.consentId, consentId));
    await database.db
      .insert(dataSharingItems)
      .values({ consentId, category: 'ninData', item: null });

    const { beside, loaded } = await bothReads(consentId);
    expect(loaded).toBeDefined();
    expect(beside).toEqual(loaded);
    expect(beside.payments.map((p) => p.type)).toEqual(['immediate', 'future']);
  });

  it('is the consent loadConsent reads when it asks for no payment and no data', async () => {
    const consentId = await newConsent({ formId: 'form_3' });
    const { beside, loaded } = await bothReads(consentId);
    expect(beside).toEqual(loaded);
    expect(beside).toMatchObject({ payments: [], dataSharing: null });
  });
});
