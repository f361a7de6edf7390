// A consent record that proves itself (docs/payer-consents.md "The record", "The receipt", "Data
// sharing lasts 12 months"): what was shown is kept with its version and hash in the grant's audit
// row; the audit is append-only; the payer reads it on /consents and by the SMS receipt's link,
// where the passkey alone withdraws it; the merchant reads it by the API; data sharing ends 12
// months on unless confirmed again.
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSENT_TEXT_VERSION,
  consentRecordText,
  RECEIPT_PARAM,
  WITHDRAW_LINE,
} from '../../domain/consent-record';
import type { TConsentRecordResponse, TReceiptResponse } from '../../domain/schemas/consent-record';
import type { TConsent } from '../../domain/schemas/consent';
import { revocationSigningMessage } from '../../domain/schemas/payer-consents';
import { consentEvents, consents, merchantEvents, payers } from '../db/schema';
import { sandboxSmsSender } from '../providers/sms';
import { endExpiredDataSharing } from '../services/consents/data-sharing-expiry';
import { listOutbox } from '../services/identity/sms-outbox';
import { createTestClient, startTestApp, testClock } from '../testing/test-app';
import { retrySmsNow, smsJobsTo } from '../testing/sms-jobs';
import { jobIdFor } from '../jobs/engine';
import { payerWithPasskey, signedGrant, stepUp } from '../testing/identity';

const DAY = 24 * 60 * 60 * 1_000;
const clock = testClock('2031-03-02T09:00:00Z');
/** The receipt's SMS fails while this is on; every other message reaches the outbox. */
let receiptsFail = false;
let ctx: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  ctx = await startTestApp({
    clock,
    webhookDelivery: 'manual',
    providers: {
      sms: {
        send: async (phone, body) => {
          if (receiptsFail && body.startsWith('You granted')) throw new Error('SMS gateway down');
          await sandboxSmsSender(ctx.database.db).send(phone, body);
        },
      },
    },
  });
});
afterAll(async () => {
  await ctx.close();
});

type TPayer = Awaited<ReturnType<typeof payerWithPasskey>>;

/** A new merchant's consent asking for BVN data, granted by `payer` on an embedded page. */
async function grantedBy(payer: TPayer) {
  const merchant = await createTestClient(ctx.database, { name: 'Ada Lending' });
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: merchant.authorization },
    payload: { payments: [], dataSharing: { bvnData: true }, requirements: { requiresAuth: true } },
  });
  expect(created.statusCode, created.body).toBe(201);
  const consentId = created.json<{ consentId: string }>().consentId;
  const data = {
    originalRequestId: null,
    consentData: { consentId },
    userAuthenticated: true,
    attestDiscoveryId: null,
    dataSharing: { granted: true, dataTypes: ['bvnData'] },
    channel: 'embedded' as const,
  };
  const granted = await ctx.app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    headers: payer.headers,
    payload: await signedGrant(ctx.app, payer.soft, payer.token, consentId, data),
  });
  expect(granted.statusCode, granted.body).toBe(200);
  return { consentId, merchant, consent: granted.json<{ consent: TConsent }>().consent };
}

async function phoneOf(payer: TPayer): Promise<string> {
  const [row] = await ctx.database.db
    .select({ phone: payers.phoneNumber })
    .from(payers)
    .where(eq(payers.id, payer.userId));
  if (!row) throw new Error('no such payer');
  return row.phone;
}

/** The token of the newest receipt SMS to the payer, or null. */
async function receiptTokenOf(payer: TPayer): Promise<string | null> {
  const [sms] = await listOutbox(ctx.database.db, { phoneNumber: await phoneOf(payer), limit: 1 });
  const link = sms?.body.match(/https?:\/\/\S+/)?.[0];
  return link ? new URL(link).searchParams.get(RECEIPT_PARAM) : null;
}

const readRecord = (payer: TPayer, consentId: string) =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/users/consents/${consentId}/record`,
    headers: payer.headers,
  });

describe('the record of a grant', () => {
  it('keeps what was shown: text, version, SHA-256, scopes, payer, merchant, channel, passkey', async () => {
    const payer = await payerWithPasskey(ctx.app, ctx.config);
    const { consentId, merchant, consent } = await grantedBy(payer);
    const response = await readRecord(payer, consentId);
    expect(response.statusCode, response.body).toBe(200);
    const { record, audit } = response.json<TConsentRecordResponse>();
    const text = consentRecordText(consent);
    expect(text).toContain(WITHDRAW_LINE);
    expect(record).toMatchObject({
      consentId,
      status: 'granted',
      textVersion: CONSENT_TEXT_VERSION,
      text,
      textHash: createHash('sha256').update(text, 'utf8').digest('hex'),
      scopes: ['Access your BVN data'],
      payerId: payer.userId,
      merchant: { merchantId: merchant.merchantId, name: 'Ada Lending' },
      channel: 'embedded',
      authentication: 'passkey',
      grantedAt: clock.now().toISOString(),
      dataSharingExpiresAt: '2032-03-02T09:00:00.000Z',
      dataSharingEndedAt: null,
    });
    expect(audit.map((entry) => [entry.type, entry.actor])).toEqual([
      ['consent.created', 'merchant'],
      ['consent.granted', 'payer'],
    ]);

    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/consents/${consentId}/record`,
      headers: { authorization: merchant.authorization },
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<TConsentRecordResponse>()).toEqual({ success: true, record, audit });
    const consentRead = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/consents/${consentId}`,
      headers: { authorization: merchant.authorization },
    });
    expect(consentRead.json()).toMatchObject({
      consent: { dataSharingExpiresAt: '2032-03-02T09:00:00.000Z', dataSharingEndedAt: null },
    });
  });

  it('is read by its payer and its merchant only', async () => {
    const payer = await payerWithPasskey(ctx.app, ctx.config);
    const { consentId } = await grantedBy(payer);
    const stranger = await payerWithPasskey(ctx.app, ctx.config);
    const other = await readRecord(stranger, consentId);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ error: { code: 'PAYER_CONSENT_NOT_FOUND' } });
    const otherMerchant = await createTestClient(ctx.database, { name: 'Someone Else' });
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/consents/${consentId}/record`,
      headers: { authorization: otherMerchant.authorization },
    });
    expect(read.statusCode).toBe(404);
    expect(read.json()).toMatchObject({ error: { code: 'CONSENT_NOT_FOUND' } });
  });

  // The trigger is SQL of PostgreSQL's own: run on both databases.
  it('keeps an audit the database will not change or remove', { tags: ['postgres'] }, async () => {
    const payer = await payerWithPasskey(ctx.app, ctx.config);
    const { consentId } = await grantedBy(payer);
    const { db } = ctx.database;
    await expect(
      db
        .update(consentEvents)
        .set({ actor: 'someone-else' })
        .where(eq(consentEvents.consentId, consentId)),
    ).rejects.toThrow();
    await expect(
      db.delete(consentEvents).where(eq(consentEvents.consentId, consentId)),
    ).rejects.toThrow();
    const rows = await db
      .select({ actor: consentEvents.actor })
      .from(consentEvents)
      .where(eq(consentEvents.consentId, consentId));
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => row.actor)).not.toContain('someone-else');
  });
});

describe('the SMS receipt', () => {
  it('links to the one consent, whose passkey withdraws it with no session', async () => {
    const payer = await payerWithPasskey(ctx.app, ctx.config);
    const { consentId } = await grantedBy(payer);
    const token = await receiptTokenOf(payer);
    expect(token).toEqual(expect.stringContaining(consentId));

    const read = await ctx.app.inject({ method: 'GET', url: `/api/consent-receipts/${token}` });
    expect(read.statusCode, read.body).toBe(200);
    const body = read.json<TReceiptResponse>();
    expect(body.consent).toMatchObject({ consentId, status: 'granted' });
    expect(body.record).toMatchObject({ consentId, authentication: 'passkey' });

    const issued = await ctx.app.inject({
      method: 'POST',
      url: `/api/consent-receipts/${token}/revocation-challenges`,
    });
    expect(issued.statusCode, issued.body).toBe(200);
    const { nonce } = issued.json<{ nonce: string }>();
    const digest = createHash('sha256')
      .update(revocationSigningMessage({ consentId, nonce }))
      .digest('base64url');
    const revoked = await ctx.app.inject({
      method: 'POST',
      url: `/api/consent-receipts/${token}/revoke`,
      payload: { nonce, response: payer.soft.assert(digest) },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toMatchObject({ consent: { consentId, status: 'revoked' } });
    const audit = (await readRecord(payer, consentId)).json<TConsentRecordResponse>().audit;
    expect(audit.at(-1)).toMatchObject({ type: 'consent.revoked', label: 'Withdrawn' });
  });

  it('opens nothing with a token made up or cut', async () => {
    const payer = await payerWithPasskey(ctx.app, ctx.config);
    const { consentId } = await grantedBy(payer);
    const token = (await receiptTokenOf(payer)) ?? '';
    for (const bad of [`${consentId}.${'A'.repeat(32)}`, token.slice(0, -1), consentId]) {
      const read = await ctx.app.inject({
        method: 'GET',
        url: `/api/consent-receipts/${encodeURIComponent(bad)}`,
      });
      expect(read.statusCode, bad).toBe(404);
      expect(read.json()).toMatchObject({ error: { code: 'PAYER_CONSENT_NOT_FOUND' } });
    }
  });

  it('leaves the grant granted when the SMS fails, and sends the receipt once, on the retry', async () => {
    const payer = await payerWithPasskey(ctx.app, ctx.config);
    receiptsFail = true;
    const { consentId } = await grantedBy(payer).finally(() => {
      receiptsFail = false;
    });
    expect(await receiptTokenOf(payer)).toBeNull();
    const { record } = (await readRecord(payer, consentId)).json<TConsentRecordResponse>();
    expect(record).toMatchObject({ status: 'granted' });
    // Queued with the grant, under the consent's one job id: waiting to be tried again.
    const [receipt] = (await smsJobsTo(ctx.database.db, await phoneOf(payer))).filter((job) =>
      job.body?.startsWith('You granted'),
    );
    expect(receipt).toMatchObject({ id: jobIdFor(`consent-receipt:${consentId}`), state: 'retry' });
    await retrySmsNow(ctx.app, ctx.database.db);
    await expect.poll(() => receiptTokenOf(payer)).toEqual(expect.stringContaining(consentId));
    const receipts = await listOutbox(ctx.database.db, {
      phoneNumber: await phoneOf(payer),
      limit: 100,
    });
    expect(receipts.filter((sms) => sms.body.startsWith('You granted'))).toHaveLength(1);
  });
});

describe('data sharing lasts 12 months', () => {
  it(
    'ends unconfirmed at 12 months with its audit entry and webhook; the BVN is no longer shared',
    { tags: ['postgres'] },
    async () => {
      const payer = await payerWithPasskey(ctx.app, ctx.config);
      const { consentId, merchant } = await grantedBy(payer);
      clock.advance(364 * DAY);
      expect(await endExpiredDataSharing(ctx.context)).toBe(0);
      clock.advance(2 * DAY);
      // The reconciler's run ends it (its step expire.data-sharing).
      const run = await ctx.app.reconciler.runDue();
      expect(run.dataSharingEnded).toBeGreaterThanOrEqual(1);
      // The payer's session has long expired: the merchant reads it.
      const { record, audit } = (
        await merchantRecord(merchant, consentId)
      ).json<TConsentRecordResponse>();
      expect(record).toMatchObject({
        status: 'granted',
        dataSharingEndedAt: clock.now().toISOString(),
      });
      expect(audit.at(-1)).toMatchObject({ type: 'consent.data_sharing_expired', actor: 'system' });
      const events = await ctx.database.db
        .select({ data: merchantEvents.data })
        .from(merchantEvents)
        .where(
          and(
            eq(merchantEvents.consentId, consentId),
            eq(merchantEvents.type, 'consent.data_sharing_expired'),
          ),
        );
      expect(events).toEqual([{ data: expect.objectContaining({ dataTypes: ['bvnData'] }) }]);
      const bvn = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/consents/${consentId}/shared-data/bvn`,
        headers: { authorization: merchant.authorization },
      });
      expect(bvn.statusCode).toBe(404);
      expect(bvn.json()).toMatchObject({ error: { code: 'BVN_NOT_SHARED' } });
    },
  );

  it('ended is ended: a confirmation does not revive it', async () => {
    const payer = await payerWithPasskey(ctx.app, ctx.config);
    const { consentId } = await grantedBy(payer);
    await ctx.database.db
      .update(consents)
      .set({ dataSharingExpiresAt: clock.now() })
      .where(eq(consents.id, consentId));
    expect(await endExpiredDataSharing(ctx.context)).toBe(1);
    await stepUp(ctx.app, payer.token, payer.soft);
    const late = await confirm(payer, consentId);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ error: { code: 'DATA_SHARING_NOT_CONFIRMABLE' } });
  });

  it('lasts 12 months from the payer’s confirmation, told to the merchant', async () => {
    const payer = await payerWithPasskey(ctx.app, ctx.config);
    const { consentId, merchant } = await grantedBy(payer);
    // Ten minutes on (the session still holds): 12 months from the confirmation, not the grant.
    clock.advance(10 * 60_000);
    await stepUp(ctx.app, payer.token, payer.soft);
    const confirmed = await confirm(payer, consentId);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const until = new Date(clock.now().getTime());
    until.setUTCMonth(until.getUTCMonth() + 12);
    expect(confirmed.json()).toMatchObject({
      consent: { consentId, dataSharingExpiresAt: until.toISOString(), dataSharingEndedAt: null },
    });
    clock.advance(365 * DAY - 5 * 60_000);
    await endExpiredDataSharing(ctx.context);
    const { record, audit } = (
      await merchantRecord(merchant, consentId)
    ).json<TConsentRecordResponse>();
    expect(record).toMatchObject({ dataSharingEndedAt: null });
    expect(audit.at(-1)).toMatchObject({ type: 'consent.data_sharing_confirmed', actor: 'payer' });
  });
});

const merchantRecord = (merchant: { authorization: string }, consentId: string) =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/v1/consents/${consentId}/record`,
    headers: { authorization: merchant.authorization },
  });

const confirm = (payer: TPayer, consentId: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/users/consents/${consentId}/data-sharing/confirm`,
    headers: payer.headers,
  });
