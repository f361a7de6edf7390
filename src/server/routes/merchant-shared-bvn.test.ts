// The payer's BVN shared with the merchant (docs/merchant-clients.md "Shared data"): a consent
// asking for BVN data, granted with bvnData, lets its client read the BVN the payer verified, with
// the registry's fields it asked for, while it stays granted; the consent read says whether it
// can. The BVN is never logged, so the app logs every request at trace level into `logLines`.
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { revocationSigningMessage } from '../../domain/schemas/payer-consents';
import { payers } from '../db/schema';
import { mintPerson, verifyBvn } from '../testing/bvn';
import { provenPayer, signedGrant } from '../testing/identity';
import { createTestClient, testClock, useTestApp } from '../testing/test-app';

const clock = testClock('2031-06-02T09:00:00Z');
const logLines: string[] = [];
const ctx = useTestApp({
  clock,
  logger: true,
  env: { LOG_LEVEL: 'trace' },
  logStream: new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  }),
});

type TPayer = Awaited<ReturnType<typeof provenPayer>>;
type TMerchant = Awaited<ReturnType<typeof createTestClient>>;

/** A payer whose session a passkey proved, with the BVN of a new person verified. */
async function payerWithBvn() {
  const payer = await provenPayer(ctx.app, ctx.config);
  const person = await mintPerson(ctx.app);
  await verifyBvn(ctx.app, payer.token, person);
  return { payer, person };
}

/** A new merchant's consent asking for `dataSharing` of a signed-in payer. */
async function consentAsking(dataSharing: Record<string, unknown>) {
  const merchant = await createTestClient(ctx.database, { name: 'Tola Lending' });
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: merchant.authorization },
    payload: { payments: [], dataSharing, requirements: { requiresAuth: true } },
  });
  expect(created.statusCode, created.body).toBe(201);
  return { merchant, consentId: created.json<{ consentId: string }>().consentId };
}

/** `payer` grants the consent's data sharing, signed with their passkey, as the page does. */
async function grant(payer: TPayer, consentId: string, dataTypes: string[]) {
  const data = {
    originalRequestId: null,
    consentData: { consentId },
    userAuthenticated: true,
    attestDiscoveryId: null,
    dataSharing: { granted: true, dataTypes },
  };
  const granted = await ctx.app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    headers: payer.headers,
    payload: await signedGrant(ctx.app, payer.soft, payer.token, consentId, data),
  });
  expect(granted.statusCode, granted.body).toBe(200);
  expect(granted.json()).toMatchObject({ status: 'granted' });
}

/** A consent asking for `dataSharing`, granted by `payer` with `dataTypes`. */
async function grantedConsent(
  payer: TPayer,
  dataSharing: Record<string, unknown> = { bvnData: true },
  dataTypes: string[] = Object.keys(dataSharing),
) {
  const consent = await consentAsking(dataSharing);
  await grant(payer, consent.consentId, dataTypes);
  return consent;
}

/** `payer` revokes the consent with their passkey (docs/payer-consents.md). */
async function revoke(payer: TPayer, consentId: string) {
  const issued = await ctx.app.inject({
    method: 'POST',
    url: `/api/users/consents/${consentId}/revocation-challenges`,
    headers: payer.headers,
  });
  expect(issued.statusCode, issued.body).toBe(200);
  const { nonce } = issued.json<{ nonce: string }>();
  const digest = createHash('sha256')
    .update(revocationSigningMessage({ consentId, nonce }))
    .digest('base64url');
  const revoked = await ctx.app.inject({
    method: 'POST',
    url: `/api/users/consents/${consentId}/revoke`,
    headers: payer.headers,
    payload: { nonce, response: payer.soft.assert(digest) },
  });
  expect(revoked.statusCode, revoked.body).toBe(200);
}

const readBvn = (merchant: TMerchant, consentId: string) =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/v1/consents/${consentId}/shared-data/bvn`,
    headers: { authorization: merchant.authorization },
  });

async function sharedDataOf(merchant: TMerchant, consentId: string) {
  const read = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/consents/${consentId}`,
    headers: { authorization: merchant.authorization },
  });
  expect(read.statusCode, read.body).toBe(200);
  return read.json<{ consent: { sharedData: unknown } }>().consent.sharedData;
}

const errorOf = (response: { json: () => unknown }) =>
  (response.json() as { error?: { code: string; message: string } }).error;

describe('GET /api/v1/consents/{consentId}/shared-data/bvn', () => {
  it('answers the verified BVN with the registry’s name and date of birth, and never logs it', async () => {
    const { payer, person } = await payerWithBvn();
    const { merchant, consentId } = await grantedConsent(payer);
    expect(await sharedDataOf(merchant, consentId)).toEqual({ bvn: 'available' });

    const read = await readBvn(merchant, consentId);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.headers['cache-control']).toBe('no-store');
    expect(read.json()).toEqual({
      success: true,
      bvn: { bvn: person.bvn, fullName: person.fullName, dateOfBirth: person.dateOfBirth },
    });
    const logged = logLines.join('');
    // The read itself was logged: the BVN's absence from the log says something.
    expect(logged).toContain(`/api/v1/consents/${consentId}/shared-data/bvn`);
    expect(logged).not.toContain(person.bvn);
  });

  it('answers only the BVN and the sub-items the consent asked for', async () => {
    const { payer, person } = await payerWithBvn();
    const dateOnly = await grantedConsent(payer, { bvnData: ['dateOfBirth'] });
    const read = await readBvn(dateOnly.merchant, dateOnly.consentId);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({
      success: true,
      bvn: { bvn: person.bvn, dateOfBirth: person.dateOfBirth },
    });

    // A sub-item the registry does not hold shares the BVN alone.
    const bvnOnly = await grantedConsent(payer, { bvnData: ['bvn'] });
    const alone = await readBvn(bvnOnly.merchant, bvnOnly.consentId);
    expect(alone.statusCode, alone.body).toBe(200);
    expect(alone.json()).toEqual({ success: true, bvn: { bvn: person.bvn } });
  });

  it('answers the name and date of birth of a payer verified before the registry’s answers were kept', async () => {
    const { payer, person } = await payerWithBvn();
    // Verified then, the sandbox's registry proved the BVN and nothing of its holder was kept.
    await ctx.database.db
      .update(payers)
      .set({ bvnHolderSealed: null, bvnAccountsSealed: null })
      .where(eq(payers.id, payer.userId));
    const { merchant, consentId } = await grantedConsent(payer);
    expect(await sharedDataOf(merchant, consentId)).toEqual({ bvn: 'available' });
    const read = await readBvn(merchant, consentId);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({
      success: true,
      bvn: { bvn: person.bvn, fullName: person.fullName, dateOfBirth: person.dateOfBirth },
    });
  });

  it('answers another client’s consent as absent', async () => {
    const { payer } = await payerWithBvn();
    const { consentId } = await grantedConsent(payer);
    const stranger = await createTestClient(ctx.database, { name: 'Other Shop' });
    const read = await readBvn(stranger, consentId);
    expect(read.statusCode).toBe(404);
    expect(errorOf(read)?.code).toBe('CONSENT_NOT_FOUND');
    expect(read.body).not.toContain(consentId);
  });

  it('refuses when the payer has no verified BVN, and the consent read says not_verified', async () => {
    const payer = await provenPayer(ctx.app, ctx.config);
    const { merchant, consentId } = await grantedConsent(payer);
    expect(await sharedDataOf(merchant, consentId)).toEqual({ bvn: 'not_verified' });
    const read = await readBvn(merchant, consentId);
    expect(read.statusCode).toBe(404);
    expect(errorOf(read)).toEqual({
      code: 'SHARED_BVN_NOT_VERIFIED',
      message: 'The payer has no verified BVN to share',
    });

    // Verified after the grant: the grant shares the BVN from then on.
    const person = await mintPerson(ctx.app);
    await verifyBvn(ctx.app, payer.token, person);
    expect(await sharedDataOf(merchant, consentId)).toEqual({ bvn: 'available' });
    expect((await readBvn(merchant, consentId)).json()).toMatchObject({
      bvn: { bvn: person.bvn },
    });
  });

  it('refuses a revoked consent, and the consent read says null', async () => {
    const { payer } = await payerWithBvn();
    const { merchant, consentId } = await grantedConsent(payer);
    expect((await readBvn(merchant, consentId)).statusCode).toBe(200);
    await revoke(payer, consentId);
    expect(await sharedDataOf(merchant, consentId)).toEqual({ bvn: null });
    const read = await readBvn(merchant, consentId);
    expect(read.statusCode).toBe(409);
    expect(errorOf(read)?.code).toBe('CONSENT_REVOKED');
  });

  it('refuses a consent not granted yet, and one that never asked for BVN data', async () => {
    const { payer } = await payerWithBvn();
    const pending = await consentAsking({ bvnData: true });
    expect(await sharedDataOf(pending.merchant, pending.consentId)).toEqual({ bvn: null });
    const early = await readBvn(pending.merchant, pending.consentId);
    expect(early.statusCode).toBe(409);
    expect(errorOf(early)?.code).toBe('CONSENT_NOT_GRANTED');

    const ninOnly = await grantedConsent(payer, { ninData: true });
    expect(await sharedDataOf(ninOnly.merchant, ninOnly.consentId)).toEqual({ bvn: null });
    const notAsked = await readBvn(ninOnly.merchant, ninOnly.consentId);
    expect(notAsked.statusCode).toBe(404);
    expect(errorOf(notAsked)?.code).toBe('BVN_NOT_SHARED');
  });

  it('refuses a consent whose grant left bvnData out of its dataTypes', async () => {
    const { payer } = await payerWithBvn();
    const { merchant, consentId } = await grantedConsent(payer, { bvnData: true, ninData: true }, [
      'ninData',
    ]);
    expect(await sharedDataOf(merchant, consentId)).toEqual({ bvn: null });
    const read = await readBvn(merchant, consentId);
    expect(read.statusCode).toBe(404);
    expect(errorOf(read)?.code).toBe('BVN_NOT_SHARED');
  });
});
