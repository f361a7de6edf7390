// A provider's notices (docs/payments.md "Provider notices"): one signed route, verified by the
// provider's adapter, applied in the completion path a requery uses; the same notice twice
// changes nothing, and the sandbox network's transfers arrive through it.
import { eq } from 'drizzle-orm';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { CURRENCY_CODE } from '../../domain/constants';
import { ERROR_CATALOGUE } from '../../domain/errors';
import {
  events,
  ledgerTransactions,
  paymentAttempts,
  payments,
  sandboxTransfers,
  transferNotices,
} from '../db/schema';
import { receiveTransfer, transferProviderReference } from '../sandbox/sandbox-bank';
import {
  SANDBOX_NOTICE_RETRY_MS,
  SANDBOX_SIGNATURE_HEADER,
  sandboxNoticeKey,
  signSandboxNotice,
} from '../sandbox/sandbox-notices';
import { checkLedger, ledgerProblems } from '../services/payments/ledger';
import { THREE_DS_ASK_AFTER_MS } from '../services/payments/card-payments';
import { applyProviderNotice } from '../services/payments/provider-notices';
import {
  consentWithPayment,
  keepPageToken,
  ledgerKinds,
  payByCard,
  paymentEvents,
} from '../testing/payments';
import { startTestApp, useTestApp, testClock } from '../testing/test-app';
import { usable } from '../providers/off';

const clock = testClock('2027-03-02T10:00:00Z');
const ctx = useTestApp({ clock });

/** A payment with its one-time account open: the account, and its attempt (our reference). */
async function openTransfer() {
  const consent = await consentWithPayment(ctx.app, ctx.database);
  const opened = await ctx.app.inject({
    method: 'POST',
    url: `/api/payments/${consent.paymentId}/transfer?consentId=${consent.consentId}`,
  });
  expect(opened.statusCode).toBe(200);
  keepPageToken(consent.paymentId, opened);
  const { accountNumber } = opened.json<{ transferDetails: { accountNumber: string } }>()
    .transferDetails;
  const [attempt] = await ctx.database.db
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, consent.paymentId));
  if (!attempt) throw new Error('no attempt');
  return { ...consent, accountNumber, reference: attempt.id };
}

/** A transfer reaching the sandbox bank, its notice not sent (as a crash right after leaves it). */
async function arrivedUnannounced(accountNumber: string, amount: number) {
  const { id } = await receiveTransfer(ctx.database.db, clock, {
    accountNumber,
    amount,
    sender: null,
  });
  return id;
}

/** The sandbox bank's notice of a transfer, as it signs it, or with the signature given. */
async function transferNotice(
  transfer: { id: number; reference: string; amount: number },
  signature?: string | null,
) {
  const body = JSON.stringify({
    event: 'transfer.received',
    data: {
      reference: transfer.reference,
      amount: transfer.amount,
      currency: CURRENCY_CODE,
      providerReference: transferProviderReference(transfer.id),
      sender: null,
    },
  });
  const signed = signSandboxNotice(await sandboxNoticeKey(ctx.database.db), body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== null) headers[SANDBOX_SIGNATURE_HEADER] = signature ?? signed;
  return { body, headers };
}

const post = (notice: { body: string; headers: Record<string, string> }, name = 'sandbox') =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/providers/${name}/notices`,
    headers: notice.headers,
    payload: notice.body,
  });

const paymentStatus = async (paymentId: string) =>
  (
    await ctx.database.db
      .select({ status: payments.status })
      .from(payments)
      .where(eq(payments.id, paymentId))
  )[0]?.status;

const bankOutcome = async (id: number) =>
  (
    await ctx.database.db
      .select({ outcome: sandboxTransfers.outcome })
      .from(sandboxTransfers)
      .where(eq(sandboxTransfers.id, id))
  )[0]?.outcome;

const eventCount = async () => (await ctx.database.db.select().from(events)).length;

/** A card payment waiting for its 3-D Secure check: the consent, its attempt and the challenge. */
async function waitingThreeDs() {
  const consent = await consentWithPayment(ctx.app, ctx.database);
  expect((await payByCard(ctx.app, consent, 'three_ds')).statusCode).toBe(200);
  const [attempt] = await ctx.database.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, consent.paymentId));
  if (!attempt?.providerReference) throw new Error('no waiting charge');
  expect(attempt.stage).toBe('awaiting_3ds');
  return { ...consent, attempt, providerReference: attempt.providerReference };
}

/** The payer's answer on the sandbox's 3-D Secure page. */
const answerThreeDs = (providerReference: string, approved: boolean) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/sandbox/3ds/${providerReference}`,
    payload: { approved },
  });

const attemptRow = async (id: string) =>
  (await ctx.database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, id)))[0];

/** Watches the notices the route reads: each as it reached the route, and as it was read. */
function watchNotices() {
  const notices = usable(ctx.context.providers.payments.notices);
  const read = vi.spyOn(notices, 'readNotice');
  return {
    read,
    /** The raw notices that reached the route, as sent: body and signature. */
    sent: () =>
      read.mock.calls.map(([raw]) => ({
        body: raw.body.toString('utf8'),
        headers: {
          'content-type': 'application/json',
          [SANDBOX_SIGNATURE_HEADER]: String(raw.headers[SANDBOX_SIGNATURE_HEADER]),
        },
      })),
  };
}

describe('the notices route', () => {
  it('answers 401 and changes nothing for a forged or missing signature', async () => {
    const open = await openTransfer();
    const id = await arrivedUnannounced(open.accountNumber, open.amount);
    const transfer = { id, reference: open.reference, amount: open.amount };
    const before = await eventCount();
    const forged = await transferNotice(transfer, 'ab'.repeat(64));
    const missing = await transferNotice(transfer, null);
    // Signed, then altered: the signature is over the bytes sent, not their meaning.
    const signed = await transferNotice(transfer);
    const altered = {
      ...signed,
      body: signed.body.replace(`"amount":${open.amount}`, `"amount":${open.amount} `),
    };
    for (const notice of [forged, missing, altered]) {
      const answer = await post(notice);
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual({
        success: false,
        error: {
          code: 'AUTHENTICATION_FAILED',
          message: ERROR_CATALOGUE.AUTHENTICATION_FAILED.message,
        },
      });
    }
    expect(await paymentStatus(open.paymentId)).toBe('pending');
    expect(await ledgerKinds(ctx.database, open.paymentId)).toEqual([]);
    expect(await eventCount()).toBe(before);
    expect(await ctx.database.db.select().from(transferNotices)).toEqual([]);
    expect(await bankOutcome(id)).toBe('received');
  });

  it('answers 404 in the catalogue shape for a provider other than the configured one', async () => {
    const open = await openTransfer();
    const id = await arrivedUnannounced(open.accountNumber, open.amount);
    const answer = await post(
      await transferNotice({ id, reference: open.reference, amount: open.amount }),
      'paystack',
    );
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    expect(await paymentStatus(open.paymentId)).toBe('pending');
  });

  it(
    'credits a transfer once however often its notice comes, at once or again',
    { tags: ['postgres'] },
    async () => {
      const open = await openTransfer();
      const id = await arrivedUnannounced(open.accountNumber, open.amount);
      const notice = await transferNotice({ id, reference: open.reference, amount: open.amount });
      const first = await Promise.all([post(notice), post(notice)]);
      expect(first.map((a) => a.statusCode)).toEqual([200, 200]);
      expect(first[0]?.json()).toEqual({ success: true });
      expect(await paymentStatus(open.paymentId)).toBe('executed');
      expect(await ledgerKinds(ctx.database, open.paymentId)).toEqual(['transfer_payment']);
      const streamed = await paymentEvents(ctx.database, open.paymentId);
      const eventsBefore = await eventCount();

      expect((await post(notice)).statusCode).toBe(200);
      expect(await ledgerKinds(ctx.database, open.paymentId)).toEqual(['transfer_payment']);
      expect(await paymentEvents(ctx.database, open.paymentId)).toEqual(streamed);
      expect(await eventCount()).toBe(eventsBefore);
      expect(
        await ctx.database.db
          .select({ answer: transferNotices.answer })
          .from(transferNotices)
          .where(eq(transferNotices.reference, open.reference)),
      ).toEqual([{ answer: 'taken' }]);
    },
  );

  it('refuses a body past 64 KiB with 413 in the catalogue shape, before reading it', async () => {
    const body = JSON.stringify({ event: 'transfer.received', padding: 'x'.repeat(70_000) });
    const signature = signSandboxNotice(await sandboxNoticeKey(ctx.database.db), body);
    const answer = await post({
      body,
      headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
    });
    expect(answer.statusCode).toBe(413);
    expect(answer.json()).toMatchObject({ success: false, error: { code: expect.any(String) } });
  });

  it('acknowledges a signed event it does not act on, changing nothing', async () => {
    const body = JSON.stringify({ event: 'account.statement', data: {} });
    const signature = signSandboxNotice(await sandboxNoticeKey(ctx.database.db), body);
    const before = await eventCount();
    const answer = await post({
      body,
      headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
    });
    expect(answer.statusCode).toBe(200);
    expect(await eventCount()).toBe(before);
  });
});

describe('the sandbox sends its transfers through the route', () => {
  it('completes a payment by a transfer sent with POST /api/sandbox/transfers', async () => {
    const open = await openTransfer();
    const sent = await ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/transfers',
      payload: { accountNumber: open.accountNumber, amount: open.amount },
    });
    expect(sent.json()).toMatchObject({ success: true, outcome: 'credited' });
    expect(await paymentStatus(open.paymentId)).toBe('executed');
    const [noted] = await ctx.database.db
      .select()
      .from(transferNotices)
      .where(eq(transferNotices.reference, open.reference));
    expect(noted).toMatchObject({ provider: 'sandbox', answer: 'taken', amount: open.amount });
  });

  it("tells 'Expire this account now' by the bank's notice, which alone ends the attempt", async () => {
    const open = await openTransfer();
    const watched = watchNotices();
    onTestFinished(() => watched.read.mockRestore());
    const expired = await ctx.app.inject({
      method: 'POST',
      url: `/api/sandbox/virtual-accounts/${open.accountNumber}/expire`,
    });
    expect(expired.statusCode, expired.body).toBe(200);
    expect(watched.sent().map(({ body }) => JSON.parse(body))).toEqual([
      { event: 'account.expired', data: { reference: open.reference } },
    ]);
    expect(await attemptRow(open.reference)).toMatchObject({
      failureCode: 'TRANSFER_ACCOUNT_EXPIRED',
      failureReason: 'expired',
    });
    // The same notice again changes nothing; a forged one is refused.
    const [told] = watched.sent();
    if (!told) throw new Error('no notice');
    const before = await eventCount();
    expect((await post(told)).statusCode).toBe(200);
    const forged = {
      ...told,
      headers: { ...told.headers, [SANDBOX_SIGNATURE_HEADER]: 'f'.repeat(128) },
    };
    expect((await post(forged)).statusCode).toBe(401);
    expect(await eventCount()).toBe(before);
  });

  it("ends a payment's one-time account only on the word of the provider that opened it", async () => {
    const open = await openTransfer();
    const expired = { kind: 'transfer_account_expired', reference: open.reference } as const;
    // Another provider's notice, verified as theirs, is no word on an account it did not open.
    expect(await applyProviderNotice(ctx.context, expired, 'paystack')).toBe('unchanged');
    expect(await attemptRow(open.reference)).toMatchObject({
      stage: 'awaiting_transfer',
      failureCode: null,
    });
    expect(await applyProviderNotice(ctx.context, expired, 'sandbox')).toBe('applied');
    expect(await attemptRow(open.reference)).toMatchObject({
      failureCode: 'TRANSFER_ACCOUNT_EXPIRED',
      failureReason: 'expired',
    });
  });

  it('returns through returnTransfer a transfer to a payment paid another way', async () => {
    const open = await openTransfer();
    expect((await payByCard(ctx.app, open)).statusCode).toBe(200);
    const sent = await ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/transfers',
      payload: { accountNumber: open.accountNumber, amount: open.amount },
    });
    expect(sent.json()).toMatchObject({ outcome: 'returned_already_paid' });
    const [noted] = await ctx.database.db
      .select()
      .from(transferNotices)
      .where(eq(transferNotices.reference, open.reference));
    expect(noted).toMatchObject({ answer: 'already_paid' });
    expect(await bankOutcome(Number(noted?.providerReference.replace('sbx_trf_', '')))).toBe(
      'returned_already_paid',
    );
    // Told again (its answer lost), it goes back again: the bank returns it once.
    const again = await post(
      await transferNotice({
        id: Number(noted?.providerReference.replace('sbx_trf_', '')),
        reference: open.reference,
        amount: open.amount,
      }),
    );
    expect(again.statusCode).toBe(200);
    expect(await ledgerKinds(ctx.database, open.paymentId)).toEqual(['card_payment']);
  });

  it('sends again a notice a crash left unsent, and one whose answer was lost', async () => {
    // Unsent: the bank recorded the transfer, then stopped.
    const unsent = await openTransfer();
    const unsentId = await arrivedUnannounced(unsent.accountNumber, unsent.amount);
    // Answered by us, the answer lost before the bank heard it.
    const lost = await openTransfer();
    const lostId = await arrivedUnannounced(lost.accountNumber, lost.amount);
    const lostNotice = await transferNotice({
      id: lostId,
      reference: lost.reference,
      amount: lost.amount,
    });
    expect((await post(lostNotice)).statusCode).toBe(200);
    expect(await bankOutcome(lostId)).toBe('received');

    // Not yet due: sent a moment ago.
    expect(await ctx.app.sandboxNotices.runDue()).toBe(0);
    clock.advance(SANDBOX_NOTICE_RETRY_MS + 1);
    expect(await ctx.app.sandboxNotices.runDue()).toBeGreaterThanOrEqual(2);
    expect(await bankOutcome(unsentId)).toBe('credited');
    expect(await bankOutcome(lostId)).toBe('credited');
    expect(await paymentStatus(unsent.paymentId)).toBe('executed');
    expect(await ledgerKinds(ctx.database, unsent.paymentId)).toEqual(['transfer_payment']);
    expect(await ledgerKinds(ctx.database, lost.paymentId)).toEqual(['transfer_payment']);
    // Nothing is owed any more.
    clock.advance(SANDBOX_NOTICE_RETRY_MS + 1);
    expect(await ctx.app.sandboxNotices.runDue()).toBe(0);
  });
});

describe('a notice of money is judged by what it says', () => {
  /** A transfer's notice in the port's words, as an adapter that checks nothing of it reads it. */
  const toldOf = (
    open: { reference: string; amount: number },
    providerReference: string,
    said: { amount?: number; currency?: string } = {},
  ) =>
    ({
      kind: 'transfer_received',
      reference: open.reference,
      amount: said.amount ?? open.amount,
      currency: said.currency ?? CURRENCY_CODE,
      sender: null,
      providerReference,
    }) as const;

  const recordsOf = (reference: string) =>
    ctx.database.db
      .select({
        amount: transferNotices.amount,
        currency: transferNotices.currency,
        answer: transferNotices.answer,
        returned: transferNotices.returnedAt,
      })
      .from(transferNotices)
      .where(eq(transferNotices.reference, reference))
      .orderBy(transferNotices.createdAt, transferNotices.amount);

  /** The provider's returns, answered without touching the sandbox bank's own record. */
  const spyOnReturns = () =>
    vi
      .spyOn(usable(ctx.context.providers.payments.transfersIn), 'returnTransfer')
      .mockResolvedValue({ returned: true });

  it('gives the notice of the transfer’s own amount its own answer after one of another amount was returned', async () => {
    const open = await openTransfer();
    const returns = spyOnReturns();
    const transfer = `sbx_trf_told_twice_${open.reference}`;
    const short = toldOf(open, transfer, { amount: open.amount - 100 });
    expect(await applyProviderNotice(ctx.context, short)).toBe('applied');
    expect(returns).toHaveBeenCalledWith(
      expect.objectContaining({ providerReference: transfer, amount: open.amount - 100 }),
    );
    expect(await paymentStatus(open.paymentId)).toBe('pending');

    expect(await applyProviderNotice(ctx.context, toldOf(open, transfer))).toBe('applied');
    expect(await paymentStatus(open.paymentId)).toBe('executed');
    expect(await ledgerKinds(ctx.database, open.paymentId)).toEqual(['transfer_payment']);
    // Each told again is answered as it was, and nothing more goes back.
    expect(await applyProviderNotice(ctx.context, short)).toBe('unchanged');
    expect(await applyProviderNotice(ctx.context, toldOf(open, transfer))).toBe('unchanged');
    expect(returns).toHaveBeenCalledTimes(1);
    returns.mockRestore();
    expect(await recordsOf(open.reference)).toEqual([
      {
        amount: open.amount - 100,
        currency: 'NGN',
        answer: 'wrong_amount',
        returned: expect.any(Date),
      },
      { amount: open.amount, currency: 'NGN', answer: 'taken', returned: null },
    ]);
    expect(await ledgerKinds(ctx.database, open.paymentId)).toEqual(['transfer_payment']);
  });

  it('takes a transfer into a one-time account only on the word of the provider that opened it', async () => {
    const open = await openTransfer();
    const returns = spyOnReturns();
    const transfer = `sbx_trf_elsewhere_${open.reference}`;
    // Another provider's verified notice of money for an account it never opened.
    expect(await applyProviderNotice(ctx.context, toldOf(open, transfer), 'paystack')).toBe(
      'ignored',
    );
    expect(await paymentStatus(open.paymentId)).toBe('pending');
    expect(await recordsOf(open.reference)).toEqual([]);
    expect(await applyProviderNotice(ctx.context, toldOf(open, transfer), 'sandbox')).toBe(
      'applied',
    );
    expect(await paymentStatus(open.paymentId)).toBe('executed');
    expect(returns).not.toHaveBeenCalled();
    returns.mockRestore();
  });

  it('never pays a naira payment with money in another currency: it is recorded and given back', async () => {
    const open = await openTransfer();
    const returns = spyOnReturns();
    const transfer = `sbx_trf_cedis_${open.reference}`;
    // The payment's amount, in cedis.
    const cedis = toldOf(open, transfer, { currency: 'GHS' });
    expect(await applyProviderNotice(ctx.context, cedis)).toBe('applied');
    expect(await paymentStatus(open.paymentId)).toBe('pending');
    expect(await ledgerKinds(ctx.database, open.paymentId)).toEqual([]);
    expect(returns).toHaveBeenCalledWith({
      reference: open.reference,
      providerReference: transfer,
      amount: open.amount,
      currency: 'GHS',
      reason: 'wrong_amount',
    });
    expect(await applyProviderNotice(ctx.context, cedis)).toBe('unchanged');
    expect(returns).toHaveBeenCalledTimes(1);

    // The same transfer told in naira is another notice: it pays.
    expect(await applyProviderNotice(ctx.context, toldOf(open, transfer))).toBe('applied');
    returns.mockRestore();
    expect(await paymentStatus(open.paymentId)).toBe('executed');
    expect(await recordsOf(open.reference)).toEqual([
      { amount: open.amount, currency: 'GHS', answer: 'wrong_amount', returned: expect.any(Date) },
      { amount: open.amount, currency: 'NGN', answer: 'taken', returned: null },
    ]);
  });

  it('never books a card charge taken in another currency: it is recorded and given back, and the attempt waits on', async () => {
    const { attempt, providerReference, ...consent } = await waitingThreeDs();
    const returns = spyOnReturns();
    const dollars = {
      kind: 'charge',
      channel: 'card',
      reference: attempt.id,
      currency: 'USD',
      outcome: {
        kind: 'taken',
        providerReference,
        amount: attempt.amount,
        givenBack: false,
      },
    } as const;
    expect(await applyProviderNotice(ctx.context, dollars)).toBe('applied');
    expect(await applyProviderNotice(ctx.context, dollars)).toBe('unchanged');
    expect(returns).toHaveBeenCalledTimes(1);
    expect(returns).toHaveBeenCalledWith({
      reference: attempt.id,
      providerReference,
      amount: attempt.amount,
      currency: 'USD',
      reason: 'wrong_amount',
    });
    returns.mockRestore();
    expect(await paymentStatus(consent.paymentId)).toBe('pending');
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
    const [waiting] = await ctx.database.db
      .select({ stage: paymentAttempts.stage })
      .from(paymentAttempts)
      .where(eq(paymentAttempts.id, attempt.id));
    expect(waiting?.stage).toBe('awaiting_3ds');
    expect(await recordsOf(attempt.id)).toEqual([
      {
        amount: attempt.amount,
        currency: 'USD',
        answer: 'wrong_amount',
        returned: expect.any(Date),
      },
    ]);
  });
});

describe('a charge notice meets the requery in one completion path', () => {
  it('gives back a refused transfer whose return the provider did not answer, once, at the reconciler', async () => {
    const open = await openTransfer();
    expect((await payByCard(ctx.app, open)).statusCode).toBe(200);
    const id = await arrivedUnannounced(open.accountNumber, open.amount);
    const provider = usable(ctx.context.providers.payments.transfersIn);
    const returned = vi.spyOn(provider, 'returnTransfer');
    returned.mockRejectedValueOnce(new Error('connection reset'));
    const told = await post(
      await transferNotice({ id, reference: open.reference, amount: open.amount }),
    );
    expect(told.statusCode).toBeGreaterThanOrEqual(500);
    expect(await bankOutcome(id)).toBe('received');
    // The provider never sends the notice again: past the age, the reconciler gives it back.
    clock.advance(ctx.config.reconcileAfterMs + 1);
    expect(await ctx.app.reconciler.runDue()).toMatchObject({ transfersReturned: 1 });
    expect(await bankOutcome(id)).toBe('returned_already_paid');
    expect(await ctx.app.reconciler.runDue()).toMatchObject({ transfersReturned: 0 });
    expect(returned).toHaveBeenCalledTimes(2);
    returned.mockRestore();
    expect(await ledgerKinds(ctx.database, open.paymentId)).toEqual(['card_payment']);
  });

  /**
   * A card payment waiting at its 3-D Secure check that the payer approves at the network, and
   * the network's notice of it, not the page, to tell us.
   */
  async function approvedAtNetwork() {
    const { attempt, ...consent } = await waitingThreeDs();
    const { sandbox, providers } = ctx.context;
    if (!sandbox) throw new Error('no sandbox');
    await sandbox.cards.resolveThreeDs(consent.providerReference, true);
    const outcome = await usable(providers.payments.cards).requeryCardCharge(attempt.id);
    expect(outcome.kind).toBe('taken');
    const notice = {
      kind: 'charge',
      channel: 'card',
      reference: attempt.id,
      currency: CURRENCY_CODE,
      outcome,
    } as const;
    return { consent, notice };
  }

  it('books a 3-D Secure charge the network approved once, however often told', async () => {
    const { consent, notice } = await approvedAtNetwork();
    expect(await applyProviderNotice(ctx.context, notice)).toBe('applied');
    expect(await paymentStatus(consent.paymentId)).toBe('executed');
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
    const eventsBefore = await eventCount();
    expect(await applyProviderNotice(ctx.context, notice)).toBe('unchanged');
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
    expect(await eventCount()).toBe(eventsBefore);
  });

  it('books a charge only on the word of the provider that made it', async () => {
    const { consent, notice } = await approvedAtNetwork();
    // Another provider's verified notice naming this charge: acknowledged, nothing booked.
    const eventsBefore = await eventCount();
    expect(await applyProviderNotice(ctx.context, notice, 'paystack')).toBe('ignored');
    expect(await paymentStatus(consent.paymentId)).toBe('pending');
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
    expect(await eventCount()).toBe(eventsBefore);
    expect(await applyProviderNotice(ctx.context, notice, 'sandbox')).toBe('applied');
    expect(await paymentStatus(consent.paymentId)).toBe('executed');
  });

  it('fails a 3-D Secure check a notice says was not taken as the sweep fails it, once', async () => {
    const { attempt, providerReference, ...consent } = await waitingThreeDs();
    const notice = {
      kind: 'charge',
      channel: 'card',
      reference: attempt.id,
      currency: CURRENCY_CODE,
      outcome: { kind: 'not_taken', providerReference, reason: 'three_ds_declined' },
    } as const;
    expect(await applyProviderNotice(ctx.context, notice)).toBe('applied');
    // The check failed, in its own words: not a bank that never answered.
    expect(await attemptRow(attempt.id)).toMatchObject({
      status: 'failed',
      failureCode: 'THREE_DS_FAILED',
      failureReason: 'three_ds_declined',
    });
    const streamed = await paymentEvents(ctx.database, consent.paymentId);
    expect(streamed.at(-1)).toMatchObject({
      status: 'failed',
      message: '3DS authentication failed',
    });
    expect(await applyProviderNotice(ctx.context, notice)).toBe('unchanged');
    expect(await paymentEvents(ctx.database, consent.paymentId)).toEqual(streamed);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
  });

  it('keeps the books balanced with the sandbox network’s record', async () => {
    expect(await checkLedger(ctx.database.db)).toMatchObject({
      unbalanced: [],
      balanceMismatches: [],
      paymentsNotBookedOnce: [],
    });
  });
});

describe('the sandbox card network tells its 3-D Secure answers through the route', () => {
  it.each([
    [true, 'charge.success', 'completed', 'executed', 'Approved: the payment is complete.'],
    [false, 'charge.failed', 'failed', 'pending', '3DS authentication failed'],
  ] as const)(
    'answered approved=%s on its page: its %s notice reaches the route and the attempt is %s',
    async (approved, event, status, paymentState, message) => {
      const waiting = await waitingThreeDs();
      const watched = watchNotices();
      const answer = await answerThreeDs(waiting.providerReference, approved);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toEqual({ success: true, status, message });
      // The network's signed notice, read by the adapter as a charge of our attempt's.
      expect(watched.read).toHaveBeenCalledTimes(1);
      const [sent] = watched.sent();
      expect(JSON.parse(sent?.body ?? '{}')).toMatchObject({
        event,
        data: {
          reference: waiting.attempt.id,
          amount: waiting.amount,
          currency: CURRENCY_CODE,
          providerReference: waiting.providerReference,
          card: { brand: 'visa', last4: expect.stringMatching(/^\d{4}$/) },
        },
      });
      await expect(watched.read.mock.results[0]?.value).resolves.toMatchObject({
        kind: 'charge',
        channel: 'card',
        reference: waiting.attempt.id,
        outcome: { kind: approved ? 'taken' : 'not_taken' },
      });
      watched.read.mockRestore();
      expect(await attemptRow(waiting.attempt.id)).toMatchObject({ status, stage: null });
      expect(await paymentStatus(waiting.paymentId)).toBe(paymentState);
      const kinds = approved ? ['card_payment'] : [];
      expect(await ledgerKinds(ctx.database, waiting.paymentId)).toEqual(kinds);
      // The same notice again changes nothing: answered alike, nothing booked or told again.
      const streamed = await paymentEvents(ctx.database, waiting.paymentId);
      const again = await post(sent ?? { body: '', headers: {} });
      expect(again.statusCode).toBe(200);
      expect(await ledgerKinds(ctx.database, waiting.paymentId)).toEqual(kinds);
      expect(await paymentEvents(ctx.database, waiting.paymentId)).toEqual(streamed);
    },
  );

  it('answers 401 to a charge notice forged for a waiting charge, which still waits for its own', async () => {
    const waiting = await waitingThreeDs();
    const body = JSON.stringify({
      event: 'charge.success',
      data: {
        reference: waiting.attempt.id,
        amount: waiting.amount,
        currency: CURRENCY_CODE,
        providerReference: waiting.providerReference,
        card: { brand: 'visa', first6: '400000', last4: '3253' },
        token: 'sbx_tok_forged',
      },
    });
    const headers = { 'content-type': 'application/json' };
    const before = await eventCount();
    const forged = await post({
      body,
      headers: { ...headers, [SANDBOX_SIGNATURE_HEADER]: 'ab'.repeat(64) },
    });
    expect(forged.statusCode).toBe(401);
    expect(await eventCount()).toBe(before);
    expect(await attemptRow(waiting.attempt.id)).toMatchObject({ stage: 'awaiting_3ds' });
    expect(await ledgerKinds(ctx.database, waiting.paymentId)).toEqual([]);
    // The network's own answer still pays it.
    expect((await answerThreeDs(waiting.providerReference, true)).json()).toMatchObject({
      status: 'completed',
    });
    expect(await ledgerKinds(ctx.database, waiting.paymentId)).toEqual(['card_payment']);
  });

  it('leaves a charge whose notice was not answered 2xx to the reconciler’s 3-D Secure sweep, which books it', async () => {
    const waiting = await waitingThreeDs();
    const notices = usable(ctx.context.providers.payments.notices);
    const read = vi.spyOn(notices, 'readNotice').mockRejectedValueOnce(new Error('database gone'));
    const answer = await answerThreeDs(waiting.providerReference, true);
    expect(read).toHaveBeenCalledTimes(1);
    read.mockRestore();
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({ error: { code: 'PAYMENT_IN_PROGRESS' } });
    expect(await attemptRow(waiting.attempt.id)).toMatchObject({ stage: 'awaiting_3ds' });
    expect(await ledgerKinds(ctx.database, waiting.paymentId)).toEqual([]);
    // The network took the money; the sweep asks it once the challenge has waited its time.
    clock.advance(THREE_DS_ASK_AFTER_MS + 1_000);
    expect(await ctx.app.reconciler.runDue()).toMatchObject({ challengesEnded: 1 });
    expect(await attemptRow(waiting.attempt.id)).toMatchObject({ status: 'completed' });
    expect(await paymentStatus(waiting.paymentId)).toBe('executed');
    expect(await ledgerKinds(ctx.database, waiting.paymentId)).toEqual(['card_payment']);
  });
});

describe('ledger:check against the notices of money', () => {
  it('names a notice taken that the books do not hold at its amount, in naira, and a transfer booked that no notice took', async () => {
    const open = await openTransfer();
    const sent = await ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/transfers',
      payload: { accountNumber: open.accountNumber, amount: open.amount },
    });
    expect(sent.json()).toMatchObject({ outcome: 'credited' });
    const [noted] = await ctx.database.db
      .select()
      .from(transferNotices)
      .where(eq(transferNotices.reference, open.reference));
    const [booked] = await ctx.database.db
      .select({ id: ledgerTransactions.id })
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.reference, open.reference));
    if (!noted || !booked) throw new Error('the transfer was not noted and booked');
    const amiss = async () => (await checkLedger(ctx.database.db)).noticesNotBookedAsTold;
    expect(await amiss()).toEqual([]);
    const told = (set: { amount?: number; currency?: string }) =>
      ctx.database.db
        .update(transferNotices)
        .set(set)
        .where(eq(transferNotices.reference, open.reference));
    const named = [`booking ${booked.id}`, `notice sandbox ${noted.providerReference}`];

    // The record says ₦1 less than was booked, or another currency: both sides are named.
    await told({ amount: open.amount - 100 });
    expect((await amiss()).sort()).toEqual(named);
    await told({ amount: open.amount, currency: 'USD' });
    expect((await amiss()).sort()).toEqual(named);
    expect(ledgerProblems(await checkLedger(ctx.database.db))).toContain(
      `notice sandbox ${noted.providerReference}: a notice taken and its booking disagree`,
    );
    await told({ currency: 'NGN' });
    expect(await amiss()).toEqual([]);
  });
});

describe('forged notices from one address', () => {
  it('are refused with 429 past the limit of failed verifications', async () => {
    const limited = await startTestApp({
      clock,
      rateLimits: { noticeFailuresPerAddress: { max: 2, windowMs: 60_000 } },
    });
    try {
      const forged = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/providers/sandbox/notices',
          headers: {
            'content-type': 'application/json',
            [SANDBOX_SIGNATURE_HEADER]: 'ab'.repeat(64),
          },
          payload: JSON.stringify({ event: 'transfer.received', data: {} }),
        });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await forged()).statusCode);
      // Two counted, the third counted as it fails, the fourth refused before verification.
      expect(statuses).toEqual([401, 401, 401, 429]);
      const refused = await forged();
      expect(refused.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
      expect(refused.headers['retry-after']).toBeDefined();
    } finally {
      await limited.close();
    }
  });
});

describe('a notice that cannot be applied now', () => {
  it('answers 503 in the catalogue shape, changes nothing, and is applied when sent again', async () => {
    const { reference, paymentId } = await openTransfer();
    const body = JSON.stringify({
      event: 'transfer.received',
      data: {
        reference,
        amount: 250_000,
        currency: CURRENCY_CODE,
        sender: null,
        providerReference: `sbx_trf_down_${reference}`,
      },
    });
    const signed = signSandboxNotice(await sandboxNoticeKey(ctx.database.db), body);
    const send = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/providers/sandbox/notices',
        headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signed },
        payload: body,
      });
    // The provider, asked about what its notice names, does not answer.
    const readNotice = vi
      .spyOn(usable(ctx.context.providers.payments.notices), 'readNotice')
      .mockRejectedValueOnce(new Error('connect ETIMEDOUT'));
    const refused = await send();
    readNotice.mockRestore();
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({
      success: false,
      error: { code: 'NOTICE_NOT_APPLIED', message: ERROR_CATALOGUE.NOTICE_NOT_APPLIED.message },
    });
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual([]);
    const again = await send();
    expect(again.statusCode, again.body).toBe(200);
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual(['transfer_payment']);
  });
});
