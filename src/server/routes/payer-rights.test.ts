// The payer's rights over their data (docs/payer-rights.md): a copy prepared by its job, told by
// SMS, opened by a link that expires and holds nothing secret in clear; the name they gave
// corrected, a BVN-verified one refused; the erasure, which stops their consents first, tells the
// merchants who hold their data, and leaves only what a legal hold keeps.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SMS_JOB } from '../jobs/sms-job';
import {
  accountLinks,
  consentEvents,
  consents,
  futurePaymentAccounts,
  merchantEvents,
  payerRightsRequests,
  payers,
  payments,
} from '../db/schema';
import { erasureKept, REQUESTS_POLL_MS } from '../../domain/payer-rights';
import { DEFAULT_RATE_LIMITS } from '../rate-limits';
import { expectRateLimited } from '../testing/rate-limits';
import { listAllPayerRights } from '../services/payer-rights/operator-requests';
import { STOP_MANDATE_JOB } from '../services/linking/own-mandates';
import { ERASURE_JOB } from '../services/payer-rights/erasure';
import { EXPORT_JOB, listPayerRights } from '../services/payer-rights/requests';
import { startTestApp, useTestApp, testClock } from '../testing/test-app';
import { askErasure, erasureBody, grantedWithSharing } from '../testing/payer-data';
import { erasureDigest } from '../services/payer-rights/erasure-signature';
import { errorBody } from '../../domain/errors';
import { codeSession, oneTapGrant, payerWithPasskey } from '../testing/identity';
import { ownPerson } from '../testing/bvn';
import { consentWithPayment, linkByTestTransfer } from '../testing/payments';
import { insertConsentEvent } from '../services/consents/consent-changes';
import { secretsInCopy } from '../../domain/test-support/copy-secrets';
import type {
  TPayerExportResponse,
  TPayerRightsRequest,
  TPayerRightsResponse,
} from '../../domain/schemas/payer-rights';

const DAY = 24 * 60 * 60 * 1_000;
const clock = testClock('2031-05-31T09:00:00Z');
// Its jobs run when a test drains them: each looks at a request before it is answered.
// The real limits of the payer's requests, their list and the copy's link (each test's payer is
// new, and the link's is counted from an address of its own).
const ctx = useTestApp({
  clock,
  webhookDelivery: 'manual',
  payerRights: 'manual',
  rateLimits: {
    payerRightsPerPayer: DEFAULT_RATE_LIMITS.payerRightsPerPayer,
    payerListsPerPayer: DEFAULT_RATE_LIMITS.payerListsPerPayer,
    payerExportsPerAddress: DEFAULT_RATE_LIMITS.payerExportsPerAddress,
  },
});

type TPayer = Awaited<ReturnType<typeof payerWithPasskey>> & { accountId: string };

async function aPayer(): Promise<TPayer> {
  const payer = await payerWithPasskey(ctx.app, ctx.config);
  return {
    ...payer,
    accountId: await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer'),
  };
}

/** A consent with a future payment due in 30 days and BVN data sharing, granted by `payer`. */
const grantedBy = (payer: TPayer) =>
  grantedWithSharing({
    ...ctx,
    payer,
    accountId: payer.accountId,
    dueDate: new Date(clock.now().getTime() + 30 * DAY),
  });

const call = (
  payer: { headers: Record<string, string> },
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: object,
) => ctx.app.inject({ method, url, headers: payer.headers, ...(payload ? { payload } : {}) });

async function phoneOf(payerId: string): Promise<string> {
  const [row] = await ctx.database.db.select().from(payers).where(eq(payers.id, payerId));
  return row!.phoneNumber;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The newest sandbox SMS to `phone`, once the SMS jobs ran. */
async function lastSms(phone: string): Promise<string> {
  await ctx.context.jobs.drain([SMS_JOB]);
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/sandbox/messages?phone=${encodeURIComponent(phone)}`,
  });
  return response.json<{ messages: Array<{ body: string }> }>().messages[0]?.body ?? '';
}

describe('Download my data', () => {
  it('prepares the copy by its job, sends its link by SMS, and opens it until it expires', async () => {
    const payer = await aPayer();
    const { consentId } = await grantedBy(payer);
    const asked = await call(payer, 'POST', '/api/users/data-exports');
    expect(asked.statusCode, asked.body).toBe(202);
    const request = asked.json<{ request: TPayerRightsRequest }>().request;
    expect(request).toMatchObject({
      kind: 'export',
      status: 'received',
      receivedAt: clock.now().toISOString(),
      // The law's month: 31 May → 30 June, the last day June has.
      dueAt: '2031-06-30T09:00:00.000Z',
      doneAt: null,
    });
    // Asked again while it is prepared: the same request, one job.
    const again = await call(payer, 'POST', '/api/users/data-exports');
    expect(again.json<{ request: TPayerRightsRequest }>().request.requestId).toBe(
      request.requestId,
    );
    expect(await ctx.context.jobs.drain([EXPORT_JOB])).toBe(1);

    const sms = await lastSms(await phoneOf(payer.userId));
    const link = /[?&]my-data=(\S+)$/.exec(sms);
    expect(sms).toContain('the copy of your data you asked for is ready');
    expect(link).not.toBeNull();
    const token = decodeURIComponent(link![1]!);
    const opened = await ctx.app.inject({ method: 'GET', url: `/api/payer-exports/${token}` });
    expect(opened.statusCode, opened.body).toBe(200);
    const file = opened.json<TPayerExportResponse>();
    expect(file.fileName).toBe('oya-money-my-data-2031-05-31.json');
    // Linking verified the payer's BVN: the copy holds its last 4 digits.
    expect(file.data.profile).toMatchObject({
      payerId: payer.userId,
      bvn: { last4: expect.stringMatching(/^\d{4}$/) },
    });
    const [consent] = file.data.consents;
    expect(consent).toMatchObject({ consentId, merchant: 'Ada Foods', status: 'granted' });
    expect(consent!.recordVersions).toEqual([
      expect.objectContaining({ record: expect.objectContaining({ text: expect.any(String) }) }),
    ]);
    expect(file.data.sharedWithMerchants).toEqual([
      expect.objectContaining({ consentId, merchant: 'Ada Foods', category: 'bvnData' }),
    ]);
    expect(file.data.passkeys).toHaveLength(1);
    expect(file.data.accounts[0]).toMatchObject({
      accountNumber: expect.stringMatching(/^\*{4}\d{4}$/),
    });
    expect(file.data.signIns.length).toBeGreaterThan(0);

    // The SMS's link opens the printable page; its file is the same copy, to keep.
    expect(sms).toContain(`/consents?my-data=${link![1]}`);
    const kept = await ctx.app.inject({ method: 'GET', url: `/my-data/${link![1]}` });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.headers['content-disposition']).toBe(
      'attachment; filename="oya-money-my-data-2031-05-31.json"',
    );
    expect(kept.headers['cache-control']).toBe('no-store');
    expect(kept.json()).toEqual(file.data);

    // The payer's list keeps the ready copy's link, the SMS's, and when it stops opening it.
    const listed = await call(payer, 'GET', '/api/users/data-requests');
    expect(listed.json<TPayerRightsResponse>().requests).toEqual([
      expect.objectContaining({
        requestId: request.requestId,
        status: 'done',
        doneAt: clock.now().toISOString(),
        expiresAt: new Date(clock.now().getTime() + 7 * DAY).toISOString(),
        link: expect.stringMatching(new RegExp(`/consents\\?my-data=${escaped(link![1]!)}$`)),
      }),
    ]);

    // Its last character changed (to another: a token ending in 'x' stays whole with 'x').
    const cut = await ctx.app.inject({
      method: 'GET',
      url: `/api/payer-exports/${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`,
    });
    expect(cut.statusCode).toBe(404);
    expect(cut.json()).toMatchObject({ error: { code: 'PAYER_EXPORT_NOT_FOUND' } });
    clock.advance(7 * DAY);
    const expired = await ctx.app.inject({ method: 'GET', url: `/api/payer-exports/${token}` });
    expect(expired.statusCode).toBe(404);
    // The list offers the link no more (read as the route does: the session lasted less).
    const gone = await listPayerRights(ctx.context, payer.userId);
    expect(gone.requests[0]).toMatchObject({ link: null });
  });

  it('holds every version of a consent’s record, the complaints and the BVN’s lookups, and no secret', async () => {
    const payer = await aPayer();
    const person = await ownPerson(ctx.app, payer.token);
    const { consentId, merchant } = await grantedBy(payer);
    // The merchant reads the BVN the consent shares: a hand-over the copy lists.
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/consents/${consentId}/shared-data/bvn`,
      headers: { authorization: merchant.authorization },
    });
    expect(read.statusCode, read.body).toBe(200);
    // A second version of the consent's record, as a grant writes one (its audit row); no call
    // grants a consent twice today, and the copy reads every grant's record.
    const [first] = await ctx.database.db
      .select()
      .from(consentEvents)
      .where(
        and(eq(consentEvents.consentId, consentId), eq(consentEvents.type, 'consent.granted')),
      );
    const record = first!.data.record as Record<string, unknown>;
    await insertConsentEvent(ctx.database.db, {
      consentId,
      type: 'consent.granted',
      actor: first!.actor,
      data: { ...first!.data, record: { ...record, textVersion: 'consent-text/2' } },
      createdAt: new Date(clock.now().getTime() + 1_000),
    });
    // A complaint about a payment the payer made.
    const paid = await consentWithPayment(ctx.app, ctx.database, { requiresAuth: true });
    const granted = await oneTapGrant(ctx.app, payer, paid.consentId, payer.accountId);
    expect(granted.statusCode, granted.body).toBe(200);
    const raised = await call(payer, 'POST', '/api/users/complaints', {
      paymentId: paid.paymentId,
      category: 'wrong_amount',
      description: 'I was charged more than the order.',
    });
    expect(raised.statusCode, raised.body).toBe(201);

    expect((await call(payer, 'POST', '/api/users/data-exports')).statusCode).toBe(202);
    await ctx.context.jobs.drain([EXPORT_JOB]);
    const phone = await phoneOf(payer.userId);
    const token = decodeURIComponent(/[?&]my-data=(\S+)$/.exec(await lastSms(phone))![1]!);
    const opened = await ctx.app.inject({ method: 'GET', url: `/api/payer-exports/${token}` });
    const { data } = opened.json<TPayerExportResponse>();
    const consent = data.consents.find((c) => c.consentId === consentId);
    expect(
      (consent!.recordVersions as Array<{ record: { textVersion: string } }>).map(
        (v) => v.record.textVersion,
      ),
    ).toEqual(['consent-text/1', 'consent-text/2']);
    expect(data.complaints).toEqual([
      expect.objectContaining({
        reference: expect.stringMatching(/^CP-/),
        paymentId: paid.paymentId,
        merchant: 'Tola Stores',
        description: 'I was charged more than the order.',
        state: 'received',
      }),
    ]);
    expect(data.bvnLookups).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'bvn_verification', madeFor: 'Verifying your BVN' }),
        expect.objectContaining({
          kind: 'data_shared',
          consentId,
          receivedBy: 'Ada Foods',
          received: expect.arrayContaining(['bvn']),
        }),
      ]),
    );

    const text = opened.body;
    expect(data.profile.bvn).toMatchObject({ last4: person.bvn.slice(-4) });
    expect(text).not.toContain(person.bvn);
    expect(text).not.toContain(payer.token);
    // No PIN, card number, CVV or BVN under a key of any shape, nor as long digits in any text.
    expect(secretsInCopy(data, [phone])).toEqual([]);
    expect(text).not.toMatch(/"(publicKey|public_key|cardToken|codeHash|tokenHash)"/);
  });

  it('needs a session a trusted passkey proved, and shows a payer only their own requests', async () => {
    const payer = await aPayer();
    const codeOnly = {
      headers: {
        authorization: `Bearer ${await codeSession(ctx.app, await phoneOf(payer.userId))}`,
      },
    };
    const refused = await call(codeOnly, 'POST', '/api/users/data-exports');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'PASSKEY_PROOF_REQUIRED' } });
    expect((await call(payer, 'POST', '/api/users/data-exports')).statusCode).toBe(202);
    const other = await aPayer();
    const theirs = await call(other, 'GET', '/api/users/data-requests');
    expect(theirs.json<{ requests: unknown[] }>().requests).toEqual([]);
  });
});

describe('Correct my name', () => {
  it('changes the name the payer gave, once, and records the correction', async () => {
    // No account linked: no BVN verified the name.
    const payer = await payerWithPasskey(ctx.app, ctx.config);
    const corrected = await call(payer, 'PUT', '/api/users/name', {
      fullName: 'Adaeze N. Okonkwo',
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json()).toMatchObject({
      name: { fullName: 'Adaeze N. Okonkwo', correctable: true, whyNot: null },
      requests: [{ kind: 'correction', status: 'done' }],
    });
    const again = await call(payer, 'PUT', '/api/users/name', { fullName: 'Adaeze N. Okonkwo' });
    expect(again.json<{ requests: unknown[] }>().requests).toHaveLength(1);
  });

  it('refuses to change a name the BVN verified, and says why', async () => {
    const payer = await aPayer();
    await ownPerson(ctx.app, payer.token);
    const listed = await call(payer, 'GET', '/api/users/data-requests');
    expect(listed.json()).toMatchObject({
      name: { correctable: false, whyNot: expect.stringContaining('verified with your BVN') },
    });
    const refused = await call(payer, 'PUT', '/api/users/name', { fullName: 'Someone Else' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: { code: 'NAME_NOT_CORRECTABLE' } });
    const [row] = await ctx.database.db.select().from(payers).where(eq(payers.id, payer.userId));
    expect(row!.fullName).not.toBe('Someone Else');
  });
});

describe('Erase my data', () => {
  it('stops the consents, tells the merchant, erases by its job, and answers what it kept', async () => {
    const payer = await aPayer();
    const { consentId } = await grantedBy(payer);
    // The consent's future payment runs on a mandate its provider keeps and debits itself (as
    // Remita's): the sandbox's link stands for one, so that the erasure has a live one to stop.
    const [bound] = await ctx.database.db
      .select({ linkId: futurePaymentAccounts.mandateId })
      .from(futurePaymentAccounts)
      .innerJoin(payments, eq(payments.id, futurePaymentAccounts.paymentId))
      .where(eq(payments.consentId, consentId));
    const linkId = bound!.linkId;
    await ctx.database.db
      .update(accountLinks)
      .set({ mandateProvider: 'remita' })
      .where(eq(accountLinks.id, linkId));
    const stopsQueued = async () =>
      Object.values(
        (await ctx.context.jobs.backlog()).find((kind) => kind.kind === STOP_MANDATE_JOB)?.states ??
          {},
      ).reduce((sum: number, n) => sum + Number(n), 0);
    const stopsBefore = await stopsQueued();
    const asked = await askErasure(ctx.app, payer);
    expect(asked.statusCode, asked.body).toBe(202);
    const request = asked.json<{ request: TPayerRightsRequest }>().request;
    expect(request.kept?.map((k) => k.hold)).toEqual(['money', 'consentRecord']);
    expect(request.kept?.[0]?.why).toContain(
      'Money Laundering (Prevention and Prohibition) Act 2022',
    );

    const [consent] = await ctx.database.db
      .select()
      .from(consents)
      .where(eq(consents.id, consentId));
    expect(consent!.status).toBe('revoked');
    // The live mandate ended with it, and its stop at the provider queued.
    const [link] = await ctx.database.db
      .select({ state: accountLinks.state })
      .from(accountLinks)
      .where(eq(accountLinks.id, linkId));
    expect(link).toEqual({ state: 'cancelled' });
    expect(await stopsQueued()).toBe(stopsBefore + 1);
    const told = await ctx.database.db
      .select({ type: merchantEvents.type, data: merchantEvents.data })
      .from(merchantEvents)
      .where(and(eq(merchantEvents.consentId, consentId)));
    expect(told.map((e) => e.type)).toEqual(
      expect.arrayContaining(['consent.revoked', 'payer.erasure_requested']),
    );
    expect(told.find((e) => e.type === 'payer.erasure_requested')?.data).toMatchObject({
      consentId,
      dataTypes: ['bvnData'],
    });
    // Asked again before its job ran: the same request, nothing more told.
    const again = await askErasure(ctx.app, payer);
    expect(again.json<{ request: TPayerRightsRequest }>().request.requestId).toBe(
      request.requestId,
    );

    expect(await ctx.context.jobs.drain([ERASURE_JOB])).toBe(1);
    const [erased] = await ctx.database.db.select().from(payers).where(eq(payers.id, payer.userId));
    expect(erased).toMatchObject({ fullName: 'Erased payer', bvnHash: null, bvnLast4: null });
    expect(erased!.phoneNumber).toBe(`erased:${payer.userId}`);
    // The session went with the rest.
    expect((await call(payer, 'GET', '/api/users/data-requests')).statusCode).toBe(401);
  });
});

describe('The erasure’s answer', () => {
  /** The payer's erasure as the operator's list answers it, once the session is gone. */
  async function answered(payerId: string) {
    const all = await listAllPayerRights(ctx.database.db);
    return all.find((r) => r.payerId === payerId && r.kind === 'erasure');
  }

  it('answers what the erasure kept as its row stored it, hold by hold', async () => {
    // A payer who linked nothing and granted nothing: nothing of theirs is held.
    const bare = await payerWithPasskey(ctx.app, ctx.config);
    const asked = await askErasure(ctx.app, bare);
    // On asking: what an erasure may keep, and why (the page shows it with its confirmation).
    expect(asked.json<{ request: TPayerRightsRequest }>().request.kept).toEqual(erasureKept());
    // A payer with a linked account and no consent: their money's records only.
    const linked = await aPayer();
    expect((await askErasure(ctx.app, linked)).statusCode).toBe(202);
    expect(await ctx.context.jobs.drain([ERASURE_JOB])).toBe(2);
    expect(await answered(bare.userId)).toMatchObject({ status: 'done', kept: [] });
    expect(await answered(linked.userId)).toMatchObject({
      status: 'done',
      doneAt: clock.now().toISOString(),
      kept: erasureKept(['money']),
    });
    // The view reads the stored answer, whatever it holds.
    await ctx.database.db
      .update(payerRightsRequests)
      .set({ kept: ['consentRecord'] })
      .where(eq(payerRightsRequests.payerId, linked.userId));
    expect((await answered(linked.userId))?.kept).toEqual(erasureKept(['consentRecord']));
  });
});

describe('Erase my data, signed by the passkey as it is asked', () => {
  const ask = (payer: TPayer, payload?: object) =>
    call(payer, 'POST', '/api/users/data-erasures', payload);

  it('refuses an erasure without a signature of it, in the catalogue’s shape, and changes nothing', async () => {
    const payer = await aPayer();
    const { consentId } = await grantedBy(payer);
    // No signature at all: the session's proof by a passkey once is not enough.
    const unsigned = await ask(payer);
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_FAILED' } });
    // The passkey's signature of something else with the erasure's nonce.
    const issued = await erasureBody(ctx.app, payer);
    const otherMessage = await ask(payer, {
      nonce: issued.nonce,
      response: payer.soft.assert(erasureDigest(`${issued.nonce}x`)),
    });
    expect(otherMessage.statusCode).toBe(400);
    expect(otherMessage.json()).toEqual(errorBody('ERASURE_SIGNATURE_INVALID'));
    // Another payer's passkey signing this payer's nonce.
    const other = await aPayer();
    const byAnother = await ask(payer, await erasureBody(ctx.app, payer, other.soft));
    expect(byAnother.statusCode).toBe(400);
    expect(byAnother.json()).toEqual(errorBody('ERASURE_SIGNATURE_INVALID'));
    // A nonce issued to another payer, signed by them, sent by this one.
    const theirs = await ask(payer, await erasureBody(ctx.app, other));
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json()).toEqual(errorBody('ERASURE_SIGNATURE_INVALID'));
    // A pause's nonce is not an erasure's.
    const pauseNonce = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/consents/${consentId}/pause-challenges`,
      headers: payer.headers,
    });
    const { nonce } = pauseNonce.json<{ nonce: string }>();
    const crossed = await ask(payer, { nonce, response: payer.soft.assert(erasureDigest(nonce)) });
    expect(crossed.json()).toEqual(errorBody('ERASURE_SIGNATURE_INVALID'));

    const [consent] = await ctx.database.db
      .select()
      .from(consents)
      .where(eq(consents.id, consentId));
    expect(consent!.status).toBe('granted');
    const listed = await call(payer, 'GET', '/api/users/data-requests');
    expect(listed.json<TPayerRightsResponse>().requests).toEqual([]);
  });

  it('takes a signed erasure once: 202, and the same signature again is refused', async () => {
    const payer = await aPayer();
    const signed = await erasureBody(ctx.app, payer);
    const asked = await ask(payer, signed);
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toMatchObject({ request: { kind: 'erasure', status: 'received' } });
    const replayed = await ask(payer, signed);
    expect(replayed.statusCode).toBe(409);
    expect(replayed.json()).toEqual(errorBody('GRANT_SIGNATURE_REPLAYED'));
  });

  it('takes the signature of a trusted passkey in a session signed in by a code alone', async () => {
    const payer = await aPayer();
    const codeOnly = {
      ...payer,
      headers: {
        authorization: `Bearer ${await codeSession(ctx.app, await phoneOf(payer.userId))}`,
      },
    };
    const asked = await askErasure(ctx.app, codeOnly);
    expect(asked.statusCode, asked.body).toBe(202);
  });
});

describe('Limits', () => {
  it('limits a payer’s requests about their data to those of an hour', async () => {
    const payer = await aPayer();
    const { max, windowMs } = DEFAULT_RATE_LIMITS.payerRightsPerPayer;
    // Asking again while a copy is prepared answers the open one, and counts all the same.
    for (let i = 0; i < max; i += 1) {
      expect((await call(payer, 'POST', '/api/users/data-exports')).statusCode).toBe(202);
    }
    expectRateLimited(await call(payer, 'POST', '/api/users/data-exports'), windowMs);
    expectRateLimited(await call(payer, 'PUT', '/api/users/name', { fullName: 'Ada' }), windowMs);
    expectRateLimited(
      await call(payer, 'POST', '/api/users/data-erasures', await erasureBody(ctx.app, payer)),
      windowMs,
    );
  });

  it('limits a payer’s reads of their requests with their other lists, well above the page’s', async () => {
    const payer = await aPayer();
    const { max, windowMs } = DEFAULT_RATE_LIMITS.payerListsPerPayer;
    // The page reads the list every REQUESTS_POLL_MS while a request is answered: half the
    // limit at most, leaving the rest to the page's other lists.
    expect((60_000 / REQUESTS_POLL_MS) * (windowMs / 60_000)).toBeLessThanOrEqual(max / 2);
    for (let i = 0; i < max; i += 1) {
      expect((await call(payer, 'GET', '/api/users/data-requests')).statusCode).toBe(200);
    }
    expectRateLimited(await call(payer, 'GET', '/api/users/data-requests'), windowMs);
    expectRateLimited(await call(payer, 'GET', '/api/users/complaints'), windowMs);
  });

  it('limits the opens of copies by their links from one address', async () => {
    const { max, windowMs } = DEFAULT_RATE_LIMITS.payerExportsPerAddress;
    const open = (i: number) =>
      ctx.app.inject({
        method: 'GET',
        url: i % 2 === 0 ? `/api/payer-exports/prr_guess${i}.x` : `/my-data/prr_guess${i}.x`,
        remoteAddress: '203.0.113.68',
      });
    // Made-up tokens: each a guess, each counted.
    for (let i = 0; i < max; i += 1) expect((await open(i)).statusCode).toBe(404);
    expectRateLimited(await open(0), windowMs);
    expectRateLimited(await open(1), windowMs);
  });
});

describe('The requests’ jobs', () => {
  it('answer a request by themselves in an app that runs no reconciliation', async () => {
    const own = await startTestApp({ webhookDelivery: 'manual' });
    try {
      const payer = await payerWithPasskey(own.app, own.config);
      const asked = await own.app.inject({
        method: 'POST',
        url: '/api/users/data-exports',
        headers: payer.headers,
      });
      expect(asked.statusCode, asked.body).toBe(202);
      const statusNow = async () =>
        (
          await own.app.inject({
            method: 'GET',
            url: '/api/users/data-requests',
            headers: payer.headers,
          })
        ).json<TPayerRightsResponse>().requests[0]?.status;
      // Woken by the job's queue, or at the workers' 2 s poll: never drained here.
      await expect.poll(statusNow, { timeout: 15_000, interval: 200 }).toBe('done');
    } finally {
      await own.close();
    }
  });
});
