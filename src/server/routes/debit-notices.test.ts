// The payer told before every debit, and in control of it (docs/payer-consents.md "Told before
// every debit", "Pause and resume"): a scheduled debit waits for its notice's lead, the notice's
// link reads and skips that one debit (a skip and the runner's claim at once: one wins), a link
// made up or used is refused, and a consent's future payments paused by the passkey skip what
// falls due, told to the merchant, until resumed. PGlite and PostgreSQL.
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pauseSigningMessage, type TPauseAction } from '../../domain/schemas/payer-consents';
import {
  consentEvents,
  futurePaymentCollections,
  merchantEvents,
  payers,
  payments,
  smsQueue,
} from '../db/schema';
import { erasedPhoneNumber } from '../../domain/payer-rights';
import { listOutbox } from '../services/identity/sms-outbox';
import { runCollections } from '../services/payments/collection-runner';
import { claimDueCollections } from '../services/payments/future-collections';
import { skipByNotice } from '../services/payments/skipped-payments';
import { createTestClient, startTestApp, testClock } from '../testing/test-app';
import { payerWithPasskey, signedGrant } from '../testing/identity';
import { linkByTestTransfer, sandboxAccount, sandboxBalanceOf } from '../testing/payments';
import { formatPaymentDate } from '../../domain/payment-date';
import { ownAccount } from '../testing/bvn';
import { SmsNotSent } from '../providers/sms-port';
import { sandboxSmsSender } from '../providers/sms';
import { SANDBOX_UNREACHABLE_PHONE } from '../sandbox/fixtures';

const HOUR = 60 * 60 * 1_000;
const DAY = 24 * HOUR;
const MINUTE = 60_000;

const clock = testClock('2031-05-04T09:00:00Z');
let smsRefused = false;
let ctx: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  ctx = await startTestApp({
    clock,
    webhookDelivery: 'manual',
    providers: {
      sms: {
        // The sandbox's outbox, or a provider refusing every message while `smsRefused` is set.
        send: async (phoneNumber, body) => {
          if (smsRefused) throw new SmsNotSent('Termii refused the API key (HTTP 401)', false);
          await sandboxSmsSender(ctx.database.db).send(phoneNumber, body);
        },
      },
    },
  });
});
afterAll(async () => {
  await ctx.close();
});

type TPayer = Awaited<ReturnType<typeof payerWithPasskey>> & { accountId: string };

async function aPayer(): Promise<TPayer> {
  const payer = await payerWithPasskey(ctx.app, ctx.config);
  return {
    ...payer,
    accountId: await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer'),
  };
}

/** A new merchant's consent to fixed payments due in each of `dueIns` ms, granted by `payer`. */
async function grantedBy(payer: TPayer, dueIns: number[], narration = 'Rent', amount = 250_000) {
  const merchant = await createTestClient(ctx.database, { name: 'Ikoyi Lets' });
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: merchant.authorization },
    payload: {
      payments: dueIns.map((dueIn) => ({
        type: 'future',
        amount,
        narration,
        dueDate: new Date(clock.now().getTime() + dueIn).toISOString(),
      })),
      requirements: { requiresAuth: true },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const consentId = created.json<{ consentId: string }>().consentId;
  const data = {
    originalRequestId: null,
    consentData: { consentId },
    userAuthenticated: true,
    attestDiscoveryId: null,
    futurePayments: {
      granted: true,
      selectedAccounts: [payer.accountId],
      paymentMethods: [{ type: 'account' as const, accountId: payer.accountId }],
    },
  };
  const granted = await ctx.app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    headers: payer.headers,
    payload: await signedGrant(ctx.app, payer.soft, payer.token, consentId, data),
  });
  expect(granted.statusCode, granted.body).toBe(200);
  const rows = await ctx.database.db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.consentId, consentId))
    .orderBy(payments.position);
  return { consentId, merchant, paymentIds: rows.map((r) => r.id) };
}

const run = () => runCollections(ctx.context);

/** The token of the notice SMS whose text names `narration`, once the SMS job has sent it. */
async function noticeToken(narration: string): Promise<string> {
  const bodies = async () =>
    (await listOutbox(ctx.database.db, { limit: 1_000 }))
      .map((sms) => sms.body)
      .filter((body) => body.includes(`for ${narration} `));
  await expect.poll(bodies).toHaveLength(1);
  const [body] = await bodies();
  const token = /\/debits\/(\S+)$/.exec(body ?? '')?.[1];
  if (!token) throw new Error(`no link in ${body}`);
  return decodeURIComponent(token);
}

const readNotice = (token: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/debit-notices/${encodeURIComponent(token)}` });
const skip = (token: string, key?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/debit-notices/${encodeURIComponent(token)}/skip`,
    headers: key ? { 'idempotency-key': key } : {},
  });

async function eventsOf(consentId: string, type: string) {
  return ctx.database.db
    .select({ data: merchantEvents.data })
    .from(merchantEvents)
    .where(and(eq(merchantEvents.consentId, consentId), eq(merchantEvents.type, type)));
}

async function paymentStatus(paymentId: string, merchant: { authorization: string }) {
  const read = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/payments/${paymentId}`,
    headers: { authorization: merchant.authorization },
  });
  expect(read.statusCode, read.body).toBe(200);
  return read.json<{ payment: { status: string; collections: Array<{ status: string }> } }>()
    .payment;
}

describe('the notice before each debit', () => {
  it('debits a payment due sooner than the lead only the whole lead after its notice', async () => {
    const payer = await aPayer();
    const balance = () =>
      ownAccount(ctx.app, payer.token, 'links_by_test_transfer').then((account) =>
        sandboxBalanceOf(ctx.database, account),
      );
    const before = await balance();
    // Granted an hour before it is due: no notice has gone yet, so it is not debited on its date.
    const { paymentIds } = await grantedBy(payer, [HOUR], 'Late rent');
    await run();
    const token = await noticeToken('Late rent');
    expect(token).toMatch(/^col_/);
    clock.advance(HOUR);
    await run();
    clock.advance(DAY - HOUR - 1);
    await run();
    expect(await balance()).toBe(before);
    const [waiting] = await ctx.database.db
      .select()
      .from(futurePaymentCollections)
      .where(eq(futurePaymentCollections.paymentId, paymentIds[0]!));
    expect(waiting?.status).toBe('pending');
    // The notice said the day it is now debited: the lead after the notice.
    expect((await readNotice(token)).json().notice.collectAt).toBe(
      new Date(clock.now().getTime() + 1).toISOString(),
    );
    clock.advance(1);
    expect(await run()).toMatchObject({ collected: 1 });
    expect(await balance()).toBe(before - 250_000);
  });

  it('never debits a collection whose notice was not sent, however long past its date', async () => {
    const payer = await aPayer();
    const { paymentIds } = await grantedBy(payer, [DAY + 2 * HOUR], 'Unsent');
    // Made ahead with no notice (the notices' job never ran), then past its date.
    await ctx.database.db.execute(sql`
      INSERT INTO future_payment_collections
        (id, payment_id, consent_id, "trigger", amount, status, due_at)
      SELECT 'col_' || id, id, consent_id, 'schedule', amount, 'pending', due_date FROM payments
      WHERE id = ${paymentIds[0]!}`);
    clock.advance(2 * DAY);
    const claimed = await claimDueCollections(ctx.database.db, clock.now(), DAY);
    expect(claimed.map((c) => c.paymentId)).not.toContain(paymentIds[0]);
  });
});

describe('a notice that cannot be sent', () => {
  const balanceOf = (payer: TPayer) =>
    ownAccount(ctx.app, payer.token, 'links_by_test_transfer').then((account) =>
      sandboxBalanceOf(ctx.database, account),
    );

  async function collectionOf(paymentId: string) {
    const [row] = await ctx.database.db
      .select()
      .from(futurePaymentCollections)
      .where(eq(futurePaymentCollections.paymentId, paymentId));
    if (!row) throw new Error(`no collection of ${paymentId}`);
    return row;
  }

  it('keeps the collection of a payer whose phone cannot get SMS waiting, told once, never debited', async () => {
    const payer = await aPayer();
    await ctx.database.db
      .update(payers)
      .set({ phoneNumber: SANDBOX_UNREACHABLE_PHONE })
      .where(eq(payers.id, payer.userId));
    const before = await balanceOf(payer);
    const { consentId, merchant, paymentIds } = await grantedBy(
      payer,
      [DAY + HOUR],
      'Unreachable rent',
    );
    await run();
    // Refused for good: back to wait, due the next window, its notice to go again a day later.
    const waiting = await collectionOf(paymentIds[0]!);
    expect(waiting).toMatchObject({ status: 'pending', notifiedAt: null, noticeSmsId: null });
    expect(waiting.dueAt.getTime()).toBe(clock.now().getTime() + 2 * DAY + HOUR);
    // Days on, its notice refused at each window: still waiting, never failed, never debited.
    for (let day = 0; day < 4; day += 1) {
      clock.advance(DAY);
      await run();
    }
    expect(await balanceOf(payer)).toBe(before);
    const payment = await paymentStatus(paymentIds[0]!, merchant);
    expect(payment.status).toBe('pending');
    expect(payment.collections).toMatchObject([{ status: 'pending' }]);
    expect(await eventsOf(consentId, 'future_payment.failed')).toEqual([]);
    expect(await eventsOf(consentId, 'future_payment.delayed')).toEqual([
      {
        data: expect.objectContaining({
          paymentId: paymentIds[0],
          collectionId: waiting.id,
          reason: 'payer_not_notified',
          dueAt: waiting.dueAt.toISOString(),
        }),
      },
    ]);
    expect(await noticeCount('Unreachable rent')).toBe(0);
  });

  it('notices again at the next window a collection whose notice was refused, debited a lead after', async () => {
    const payer = await aPayer();
    const before = await balanceOf(payer);
    smsRefused = true;
    const { consentId, merchant, paymentIds } = await grantedBy(
      payer,
      [DAY + HOUR],
      'Refused rent',
    );
    await run();
    smsRefused = false;
    const moved = (await collectionOf(paymentIds[0]!)).dueAt;
    // Not noticed again before the next window.
    clock.advance(DAY - MINUTE);
    await run();
    expect(await noticeCount('Refused rent')).toBe(0);
    // The next window: a fresh notice, naming the new day, more than the whole lead before it.
    clock.advance(MINUTE);
    await run();
    const token = await noticeToken('Refused rent');
    expect((await readNotice(token)).json().notice.collectAt).toBe(moved.toISOString());
    expect(moved.getTime() - clock.now().getTime()).toBe(DAY + HOUR);
    // Its first due date passes: not debited, nor a moment before its new one.
    clock.advance(HOUR);
    await run();
    clock.advance(DAY - 1);
    await run();
    expect(await balanceOf(payer)).toBe(before);
    clock.advance(1);
    expect(await run()).toMatchObject({ collected: 1 });
    expect(await balanceOf(payer)).toBe(before - 250_000);
    expect((await paymentStatus(paymentIds[0]!, merchant)).status).toBe('executed');
    expect(await eventsOf(consentId, 'future_payment.delayed')).toHaveLength(1);
    expect(await eventsOf(consentId, 'future_payment.failed')).toEqual([]);
  });

  it('never notices nor debits the collection of a payer whose number was erased', async () => {
    const payer = await aPayer();
    const { consentId, paymentIds } = await grantedBy(payer, [DAY + HOUR], 'Erased rent');
    await ctx.database.db
      .update(payers)
      .set({ phoneNumber: erasedPhoneNumber(payer.userId) })
      .where(eq(payers.id, payer.userId));
    await run();
    expect(await collectionOf(paymentIds[0]!)).toMatchObject({
      status: 'pending',
      noticeSmsId: null,
    });
    const queued = await ctx.database.db
      .select({ id: smsQueue.id })
      .from(smsQueue)
      .where(eq(smsQueue.phoneNumber, erasedPhoneNumber(payer.userId)));
    expect(queued).toEqual([]);
    expect(await eventsOf(consentId, 'future_payment.delayed')).toHaveLength(1);
  });
});

describe('the receipt after each debit', () => {
  /** The receipts (not the notices) of payments for `narration` the payer was sent. */
  const receiptsOf = async (narration: string) =>
    (await listOutbox(ctx.database.db, { limit: 1_000 }))
      .map((sms) => sms.body)
      .filter((body) => body.includes(`for ${narration} `) && !body.includes('/debits/'));

  it('sends one receipt of a debit made, however often the runner runs after', async () => {
    const payer = await aPayer();
    await grantedBy(payer, [DAY + HOUR], 'Receipt rent');
    await run();
    expect(await receiptsOf('Receipt rent')).toEqual([]);
    clock.advance(DAY + HOUR);
    expect(await run()).toMatchObject({ collected: 1 });
    const account = await ownAccount(ctx.app, payer.token, 'links_by_test_transfer');
    await expect
      .poll(() => receiptsOf('Receipt rent'))
      .toEqual([
        `Oya Money: Ikoyi Lets debited ₦2,500.00 for Receipt rent from your account ` +
          `****${account.accountNumber.slice(-4)} on ${formatPaymentDate(clock.now().toISOString())}. ` +
          'Payment made.',
      ]);
    clock.advance(DAY);
    await run();
    expect(await receiptsOf('Receipt rent')).toHaveLength(1);
  });

  it('sends one receipt of a debit that failed, after its last round, none for the rounds retried', async () => {
    const payer = await aPayer();
    const amount = sandboxAccount('links_by_test_transfer').balance + 1;
    const { paymentIds } = await grantedBy(payer, [DAY + HOUR], 'Short rent', amount);
    await run();
    clock.advance(DAY + HOUR);
    expect(await run()).toMatchObject({ retried: 1 });
    // Noticed again at once; the second round the whole lead after, then the third three days on.
    clock.advance(MINUTE);
    await run();
    clock.advance(DAY);
    expect(await run()).toMatchObject({ retried: 1 });
    expect(await receiptsOf('Short rent')).toEqual([]);
    clock.advance(2 * DAY);
    await run();
    clock.advance(DAY);
    expect(await run()).toMatchObject({ failed: 1 });
    const [ended] = await ctx.database.db
      .select({ completedAt: futurePaymentCollections.completedAt })
      .from(futurePaymentCollections)
      .where(eq(futurePaymentCollections.paymentId, paymentIds[0]!));
    await expect.poll(() => receiptsOf('Short rent')).toHaveLength(1);
    const [receipt] = await receiptsOf('Short rent');
    expect(receipt).toMatch(
      new RegExp(
        `^Oya Money: Ikoyi Lets could not debit ₦[\\d,.]+ for Short rent from your account ` +
          `\\*{4}\\d{4} on ${formatPaymentDate(ended!.completedAt!.toISOString())}\\. ` +
          `Payment failed: nothing was collected\\.$`,
      ),
    );
    clock.advance(DAY);
    await run();
    expect(await receiptsOf('Short rent')).toHaveLength(1);
  });
});

describe('skipping one debit by the notice’s link', () => {
  it('reads and skips that debit with no sign-in: never collected, the merchant told', async () => {
    const payer = await aPayer();
    const { consentId, merchant, paymentIds } = await grantedBy(payer, [DAY + HOUR], 'June rent');
    await run();
    const token = await noticeToken('June rent');
    const read = await readNotice(token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().notice).toMatchObject({
      paymentId: paymentIds[0],
      merchantName: 'Ikoyi Lets',
      amount: 250_000,
      narration: 'June rent',
      state: 'upcoming',
      account: { accountNumber: expect.stringMatching(/^\*{4}\d{4}$/) },
      stopUrl: expect.stringContaining(`/consents?receipt=${consentId}.`),
    });

    const skipped = await skip(token, 'skip-1');
    expect(skipped.statusCode, skipped.body).toBe(200);
    expect(skipped.json().notice).toMatchObject({ state: 'skipped', skipReason: 'payer_skipped' });
    // The same key again: the first answer; the link again without it: refused.
    expect((await skip(token, 'skip-1')).json()).toEqual(skipped.json());
    const again = await skip(token);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('PAYMENT_NOT_SKIPPABLE');

    clock.advance(2 * DAY);
    await run();
    expect(await paymentStatus(paymentIds[0]!, merchant)).toMatchObject({
      status: 'skipped',
      collections: [{ status: 'skipped' }],
    });
    expect(await eventsOf(consentId, 'payment.skipped')).toEqual([
      {
        data: expect.objectContaining({
          paymentId: paymentIds[0],
          reason: 'payer_skipped',
          amount: 250_000,
        }),
      },
    ]);
    const audit = await ctx.database.db
      .select({ actor: consentEvents.actor })
      .from(consentEvents)
      .where(
        and(eq(consentEvents.consentId, consentId), eq(consentEvents.type, 'payment.skipped')),
      );
    expect(audit).toEqual([{ actor: `payer:${payer.userId}` }]);
  });

  it('refuses a link made up, cut, or of another debit', async () => {
    const payer = await aPayer();
    await grantedBy(payer, [DAY + HOUR, DAY + HOUR], 'Twins');
    await run();
    await expect.poll(() => noticeCount('Twins')).toBe(2);
    const tokens = await tokensOf('Twins');
    const [first, second] = tokens.map((t) => t.split('.'));
    const forged = [
      `${first![0]}.${first![1]}.${second![2]}`,
      `${first![0]}.1.${first![2]}`,
      `${first![0]}.${first![1]}`,
      'col_nothing.0.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ];
    for (const token of forged) {
      const read = await readNotice(token);
      expect(read.statusCode, token).toBe(404);
      expect(read.json().error.code).toBe('DEBIT_NOTICE_NOT_FOUND');
      expect((await skip(token)).statusCode, token).toBe(404);
    }
  });

  it(
    'lets exactly one of a skip and the runner’s claim at once have the debit',
    { tags: ['postgres'] },
    async () => {
      const payer = await aPayer();
      const dueIns = Array.from({ length: 6 }, () => DAY + HOUR);
      const { paymentIds } = await grantedBy(payer, dueIns, 'Race');
      await run();
      const tokens = await tokensOf('Race');
      clock.advance(DAY + HOUR);
      const [claimed, ...skips] = await Promise.allSettled([
        claimDueCollections(ctx.database.db, clock.now(), DAY, 100),
        ...tokens.map((token) => skipByNotice(ctx.context, token)),
      ]);
      const claimedIds =
        claimed?.status === 'fulfilled' ? claimed.value.map((c) => c.paymentId) : [];
      const skippedIds = skips.flatMap((s) =>
        s.status === 'fulfilled' ? [s.value.paymentId] : [],
      );
      for (const refused of skips.filter((s) => s.status === 'rejected')) {
        expect(String(refused.reason)).toContain('no longer be skipped');
      }
      const mine = claimedIds.filter((id) => paymentIds.includes(id));
      expect([...mine, ...skippedIds].sort()).toEqual([...paymentIds].sort());
      const rows = await ctx.database.db
        .select({ status: futurePaymentCollections.status })
        .from(futurePaymentCollections)
        .where(eq(futurePaymentCollections.consentId, (await consentOf(paymentIds[0]!))!));
      expect(rows.filter((r) => r.status === 'skipped')).toHaveLength(skippedIds.length);
      expect(rows.filter((r) => r.status === 'collecting')).toHaveLength(mine.length);
    },
  );
});

async function noticeCount(narration: string) {
  return (await listOutbox(ctx.database.db, { limit: 1_000 })).filter((sms) =>
    sms.body.includes(`for ${narration} `),
  ).length;
}

async function tokensOf(narration: string): Promise<string[]> {
  await expect.poll(() => noticeCount(narration)).toBeGreaterThan(0);
  return (await listOutbox(ctx.database.db, { limit: 1_000 }))
    .filter((sms) => sms.body.includes(`for ${narration} `))
    .map((sms) => decodeURIComponent(/\/debits\/(\S+)$/.exec(sms.body)?.[1] ?? ''));
}

async function consentOf(paymentId: string) {
  const [row] = await ctx.database.db
    .select({ consentId: payments.consentId })
    .from(payments)
    .where(eq(payments.id, paymentId));
  return row?.consentId;
}

const digestOf = (message: string) => createHash('sha256').update(message).digest('base64url');

/** A pause or resume as the page sends it: a nonce for this consent, signed by the passkey. */
async function pauseBody(payer: TPayer, consentId: string, action: TPauseAction) {
  const issued = await ctx.app.inject({
    method: 'POST',
    url: `/api/users/consents/${consentId}/pause-challenges`,
    headers: payer.headers,
  });
  expect(issued.statusCode, issued.body).toBe(200);
  const { nonce } = issued.json<{ nonce: string }>();
  const message = pauseSigningMessage({ consentId, nonce, action });
  return { nonce, response: payer.soft.assert(digestOf(message)) };
}

const change = (payer: TPayer, consentId: string, action: TPauseAction, payload: object) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/users/consents/${consentId}/${action}`,
    headers: payer.headers,
    payload,
  });

describe('pausing and resuming a consent’s future payments', () => {
  it('skips what falls due while paused, tells the merchant, and collects again once resumed', async () => {
    const payer = await aPayer();
    const { consentId, merchant, paymentIds } = await grantedBy(
      payer,
      [10 * MINUTE, 5 * DAY],
      'Paused plan',
    );
    const paused = await change(
      payer,
      consentId,
      'pause',
      await pauseBody(payer, consentId, 'pause'),
    );
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json().consent.pausedAt).toBe(clock.now().toISOString());
    // Pausing again answers as it stands.
    const twice = await change(
      payer,
      consentId,
      'pause',
      await pauseBody(payer, consentId, 'pause'),
    );
    expect(twice.json().consent.pausedAt).toBe(paused.json().consent.pausedAt);
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/consents/${consentId}`,
      headers: { authorization: merchant.authorization },
    });
    expect(read.json().consent.pausedAt).toBe(paused.json().consent.pausedAt);
    const collect = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/payments/${paymentIds[0]}/collect`,
      headers: { authorization: merchant.authorization },
      payload: { amount: 1 },
    });
    expect(collect.statusCode).toBe(409);

    // Within the payer's session: its first payment falls due while paused.
    clock.advance(10 * MINUTE);
    expect(await run()).toMatchObject({ skipped: 1 });
    expect(await noticeCount('Paused plan')).toBe(0);
    expect((await paymentStatus(paymentIds[0]!, merchant)).status).toBe('skipped');
    expect(await eventsOf(consentId, 'payment.skipped')).toEqual([
      { data: expect.objectContaining({ paymentId: paymentIds[0], reason: 'consent_paused' }) },
    ]);

    const resumed = await change(
      payer,
      consentId,
      'resume',
      await pauseBody(payer, consentId, 'resume'),
    );
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json().consent.pausedAt).toBeNull();
    expect((await eventsOf(consentId, 'consent.paused')).length).toBe(1);
    expect(await eventsOf(consentId, 'consent.resumed')).toEqual([
      { data: expect.objectContaining({ pausedAt: paused.json().consent.pausedAt }) },
    ]);
    clock.advance(4 * DAY - HOUR);
    await run();
    await expect.poll(() => noticeCount('Paused plan')).toBe(1);
    clock.advance(DAY + HOUR);
    await run();
    expect((await paymentStatus(paymentIds[1]!, merchant)).status).toBe('executed');
    const audit = await ctx.database.db
      .select({ type: consentEvents.type })
      .from(consentEvents)
      .where(eq(consentEvents.consentId, consentId));
    expect(audit.map((a) => a.type)).toEqual(
      expect.arrayContaining(['consent.paused', 'payment.skipped', 'consent.resumed']),
    );
  });

  it('refuses another payer’s consent, and a signature made for the other action', async () => {
    const owner = await aPayer();
    const stranger = await aPayer();
    const { consentId } = await grantedBy(owner, [10 * DAY], 'Not yours');
    const theirs = await change(
      stranger,
      consentId,
      'pause',
      await pauseBody(owner, consentId, 'pause'),
    );
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error.code).toBe('PAYER_CONSENT_NOT_FOUND');
    const challenge = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/consents/${consentId}/pause-challenges`,
      headers: stranger.headers,
    });
    expect(challenge.statusCode).toBe(404);
    const wrongAction = await change(
      owner,
      consentId,
      'pause',
      await pauseBody(owner, consentId, 'resume'),
    );
    expect(wrongAction.statusCode).toBe(400);
    expect(wrongAction.json().error.code).toBe('PAUSE_SIGNATURE_INVALID');
    const [row] = await ctx.database.db
      .select({ pausedAt: futurePaymentCollections.id })
      .from(futurePaymentCollections)
      .where(eq(futurePaymentCollections.consentId, consentId));
    expect(row).toBeUndefined();
  });
});
