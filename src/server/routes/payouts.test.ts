// Releasing what a payer's payment requests collected (spec §7 POST /api/payments/release-pending;
// docs/payments.md "Releasing"): what the payers asked paid is held in the requester's wallet
// until the requester releases it, whole, to one of their linked accounts; once however many
// releases arrive at once; a lost bank answer settled by the reconciler's requery without a second
// credit, or put back in the wallet when the bank never had it; a refused payout back in the
// wallet; and the books balanced throughout.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerAccounts, ledgerTransactions, payouts, sandboxPayouts } from '../db/schema';
import { checkLedger } from '../services/payments/ledger';
import { releasePending } from '../services/payments/payouts';
import { reconcile } from '../services/payments/reconciler';
import type { TPayoutRequest, TPayoutsPort } from '../providers/payments';
import type { TAccountScenario } from '../sandbox/fixtures';
import { useTestApp, testClock } from '../testing/test-app';
import { provenPayer, type TSignedUpPayer } from '../testing/identity';
import { ownAccount } from '../testing/bvn';
import { linkByTestTransfer, payByTransfer, sandboxBalanceOf } from '../testing/payments';
import { usable } from '../providers/off';

const HOUR = 60 * 60 * 1_000;
const clock = testClock('2031-06-02T09:00:00Z');
const ctx = useTestApp({ clock, webhookDelivery: 'manual' });

type TPayer = TSignedUpPayer;

// Releasing sends money out: the payer's session is proven by their passkey, not a code alone.
const aPayer = (fullName: string) => provenPayer(ctx.app, ctx.config, fullName);

/** `requester` asks `payer` for `amount` now, and `payer` pays it by transfer. */
async function collected(requester: TPayer, payer: TPayer, amount: number) {
  const asked = await ctx.app.inject({
    method: 'POST',
    url: '/api/consent',
    headers: requester.headers,
    payload: {
      userId: payer.userId,
      paymentConsents: [{ type: 'immediate', amount, narration: 'Rent share' }],
      expiresAt: new Date(clock.now().getTime() + 24 * HOUR).toISOString(),
    },
  });
  expect(asked.statusCode, asked.body).toBe(201);
  const { consentId } = asked.json<{ consentId: string }>();
  const read = await ctx.app.inject({
    method: 'GET',
    url: `/api/consent/${consentId}?clientId=cli_${requester.userId}`,
    headers: payer.headers,
  });
  const paymentId = read.json<{ consent: { payments: Array<{ paymentId: string }> } }>().consent
    .payments[0]!.paymentId;
  const paid = await payByTransfer(ctx.app, { consentId, paymentId }, { token: payer.token });
  expect(paid.statusCode, paid.body).toBe(200);
  return paymentId;
}

const release = (payer: TPayer, destinationAccountId: string, headers = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/payments/release-pending',
    headers: { ...payer.headers, ...headers },
    payload: { destinationAccountId },
  });

async function walletOf(payer: TPayer): Promise<number> {
  const [row] = await ctx.database.db
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.id, `collection_wallet:mer_${payer.userId}`));
  return row?.balance ?? 0;
}

/** The sandbox bank's balance of the payer's own account of SCENARIO, the one they linked. */
const bankBalanceOf = async (payer: TPayer) =>
  sandboxBalanceOf(ctx.database, await ownAccount(ctx.app, payer.token, SCENARIO));

const payoutsOf = (payer: TPayer) =>
  ctx.database.db.select().from(payouts).where(eq(payouts.payerId, payer.userId));

const bookingsOf = async (payoutId: string) =>
  (
    await ctx.database.db
      .select({ kind: ledgerTransactions.kind })
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.reference, payoutId))
      .orderBy(ledgerTransactions.id)
  ).map((t) => t.kind);

/** The app's context with the bank's payOut replaced (the rest of the provider as it is). */
const withPayOut = (payOut: TPayoutsPort['payOut']) => {
  const { payments } = ctx.context.providers;
  return {
    ...ctx.context,
    providers: {
      ...ctx.context.providers,
      payments: { ...payments, payouts: { ...usable(payments.payouts), payOut } },
    },
  };
};

/** The real bank's payOut, for a replacement that calls through. */
const real = {
  payOut: (request: TPayoutRequest) =>
    usable(ctx.context.providers.payments.payouts).payOut(request),
};

async function expectCleanBooks() {
  expect(await checkLedger(ctx.database.db)).toMatchObject({
    unbalanced: [],
    balanceMismatches: [],
    paymentsNotBookedOnce: [],
    payoutsNotBookedAsEnded: [],
  });
}

const SCENARIO: TAccountScenario = 'links_by_test_transfer';

describe('POST /api/payments/release-pending', () => {
  it("pays the requester's whole wallet to their linked account, once", async () => {
    const tolu = await aPayer('Tolu Bakare');
    const kemi = await aPayer('Kemi Adebayo');
    const accountId = await linkByTestTransfer(ctx.app, tolu.token, SCENARIO);
    await collected(tolu, kemi, 250_000);
    await collected(tolu, kemi, 120_000);
    expect(await walletOf(tolu)).toBe(370_000);
    const before = await bankBalanceOf(tolu);

    const released = await release(tolu, accountId);
    expect(released.statusCode, released.body).toBe(200);
    const { accountNumber, accountName } = await ownAccount(ctx.app, tolu.token, SCENARIO);
    expect(released.json()).toMatchObject({
      success: true,
      released: 370_000,
      payout: {
        status: 'completed',
        amount: 370_000,
        accountId,
        accountNumber,
        accountName,
        failureReason: null,
        endedAt: clock.now().toISOString(),
      },
    });
    expect(await bankBalanceOf(tolu)).toBe(before + 370_000);
    expect(await walletOf(tolu)).toBe(0);
    const payoutId = released.json<{ payout: { payoutId: string } }>().payout.payoutId;
    expect(await bookingsOf(payoutId)).toEqual(['payout', 'payout_settled']);

    // Nothing more is held: the next release pays nothing and makes no payout.
    const again = await release(tolu, accountId);
    expect(again.json()).toEqual({ success: true, released: 0, payout: null });
    expect(await payoutsOf(tolu)).toHaveLength(1);
    expect(await bankBalanceOf(tolu)).toBe(before + 370_000);
    await expectCleanBooks();
  });

  it('pays nothing for a payer whose requests collected nothing', async () => {
    const musa = await aPayer('Musa Ibrahim');
    const accountId = await linkByTestTransfer(ctx.app, musa.token, SCENARIO);
    const released = await release(musa, accountId);
    expect(released.statusCode).toBe(200);
    expect(released.json()).toEqual({ success: true, released: 0, payout: null });
  });

  it("refuses an account that is not a linked account of the payer's, keeping the wallet", async () => {
    const ada = await aPayer('Ada Obi');
    const bola = await aPayer('Bola Ade');
    const bolasAccount = await linkByTestTransfer(ctx.app, bola.token, SCENARIO);
    await collected(ada, bola, 50_000);
    for (const destination of [bolasAccount, 'acc_unknown']) {
      const refused = await release(ada, destination);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({
        success: false,
        error: {
          code: 'PAYOUT_ACCOUNT_NOT_LINKED',
          message: 'No linked account of yours has this id',
        },
      });
    }
    expect(await walletOf(ada)).toBe(50_000);
    expect(await payoutsOf(ada)).toHaveLength(0);

    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/release-pending',
      payload: { destinationAccountId: bolasAccount },
    });
    expect(anonymous.statusCode).toBe(401);
    const empty = await release(ada, '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_FAILED' } });
  });

  it(
    'pays the wallet once however many releases arrive at once',
    { tags: ['postgres'] },
    async () => {
      const ngozi = await aPayer('Ngozi Eze');
      const femi = await aPayer('Femi Ola');
      const accountId = await linkByTestTransfer(ctx.app, ngozi.token, SCENARIO);
      await collected(ngozi, femi, 90_000);
      await collected(ngozi, femi, 10_000);
      const before = await bankBalanceOf(ngozi);

      const answers = await Promise.all(Array.from({ length: 8 }, () => release(ngozi, accountId)));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
      const amounts = answers.map((a) => a.json<{ released: number }>().released).sort();
      expect(amounts).toEqual([0, 0, 0, 0, 0, 0, 0, 100_000]);
      expect(await payoutsOf(ngozi)).toHaveLength(1);
      expect(await bankBalanceOf(ngozi)).toBe(before + 100_000);
      expect(await walletOf(ngozi)).toBe(0);
      await expectCleanBooks();
    },
  );

  it('answers a retry with the same Idempotency-Key as the first time, and refuses it with another body', async () => {
    const sade = await aPayer('Sade Ajayi');
    const tunde = await aPayer('Tunde Bello');
    const accountId = await linkByTestTransfer(ctx.app, sade.token, SCENARIO);
    await collected(sade, tunde, 30_000);
    const key = { 'idempotency-key': 'release-1' };
    const first = await release(sade, accountId, key);
    expect(first.json()).toMatchObject({ released: 30_000 });

    // More arrives; the retry of the first release answers the first release, paying nothing.
    await collected(sade, tunde, 5_000);
    const retry = await release(sade, accountId, key);
    expect(retry.json()).toEqual(first.json());
    expect(await walletOf(sade)).toBe(5_000);
    expect(await payoutsOf(sade)).toHaveLength(1);

    const other = await release(sade, 'acc_other', key);
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    // A new key releases what arrived since.
    const next = await release(sade, accountId, { 'idempotency-key': 'release-2' });
    expect(next.json()).toMatchObject({ released: 5_000 });
  });

  it('leaves a payout whose bank answer was lost paying, and the reconciler finishes it without a second credit', async () => {
    const yemi = await aPayer('Yemi Alade');
    const dayo = await aPayer('Dayo Okafor');
    const accountId = await linkByTestTransfer(ctx.app, yemi.token, SCENARIO);
    await collected(yemi, dayo, 75_000);
    const before = await bankBalanceOf(yemi);
    // The bank credits, then the connection drops before its answer arrives.
    const lost = withPayOut(async (request) => {
      await real.payOut(request);
      throw new Error('connection reset');
    });
    const answer = await releasePending(lost, yemi.userId, accountId);
    expect(answer).toMatchObject({ released: 75_000, payout: { status: 'paying', endedAt: null } });
    expect(await bankBalanceOf(yemi)).toBe(before + 75_000);
    expect(await walletOf(yemi)).toBe(0);
    // In flight, the books hold it between the wallet and the bank.
    await expectCleanBooks();

    // A fresh payout is left alone; one unanswered past the age is asked about by its reference.
    clock.advance(ctx.config.reconcileAfterMs - 1_000);
    expect(await reconcile(ctx.context)).toMatchObject({ payoutsEnded: 0 });
    clock.advance(2_000);
    expect(await reconcile(ctx.context)).toMatchObject({ payoutsEnded: 1 });
    const [payout] = await payoutsOf(yemi);
    expect(payout).toMatchObject({ status: 'completed', amount: 75_000 });
    expect(await bankBalanceOf(yemi)).toBe(before + 75_000);
    const credited = await ctx.database.db
      .select()
      .from(sandboxPayouts)
      .where(eq(sandboxPayouts.reference, payout!.id));
    expect(credited).toHaveLength(1);
    expect(await bookingsOf(payout!.id)).toEqual(['payout', 'payout_settled']);
    expect(await reconcile(ctx.context)).toMatchObject({ payoutsEnded: 0 });
    await expectCleanBooks();
  });

  it('puts a payout that never reached the bank back in the wallet once the bank says so, and a late one is refused', async () => {
    const kemi = await aPayer('Kemi Adeyemi');
    const tobi = await aPayer('Tobi Ajayi');
    const accountId = await linkByTestTransfer(ctx.app, kemi.token, SCENARIO);
    await collected(kemi, tobi, 30_000);
    const before = await bankBalanceOf(kemi);
    let late: (() => Promise<unknown>) | null = null;
    // The connection drops before the bank has the payout; it arrives much later.
    const dropped = withPayOut(async (request) => {
      late = () => real.payOut(request);
      throw new Error('connection reset');
    });
    const answer = await releasePending(dropped, kemi.userId, accountId);
    expect(answer).toMatchObject({ released: 30_000, payout: { status: 'paying' } });
    clock.advance(ctx.config.reconcileAfterMs + 1_000);
    expect(await reconcile(ctx.context)).toMatchObject({ payoutsEnded: 1 });
    const [payout] = await payoutsOf(kemi);
    expect(payout).toMatchObject({ status: 'failed', failureReason: 'expired' });
    expect(await walletOf(kemi)).toBe(30_000);
    // The bank closed the reference when asked: the payout arriving now is refused.
    expect(await late!()).toMatchObject({ kind: 'failed', reason: 'expired' });
    expect(await bankBalanceOf(kemi)).toBe(before);
    expect(await bookingsOf(payout!.id)).toEqual(['payout', 'payout_return']);
    const again = await release(kemi, accountId);
    expect(again.json()).toMatchObject({ released: 30_000, payout: { status: 'completed' } });
    await expectCleanBooks();
  });

  it('skips a lost payout whose provider this server does not run and finishes the rest of the batch', async () => {
    const lostAnswer = withPayOut(async (request) => {
      await real.payOut(request);
      throw new Error('connection reset');
    });
    const lostPayout = async (owner: string, payer: string) => {
      const requester = await aPayer(owner);
      const accountId = await linkByTestTransfer(ctx.app, requester.token, SCENARIO);
      await collected(requester, await aPayer(payer), 20_000);
      const answer = await releasePending(lostAnswer, requester.userId, accountId);
      expect(answer).toMatchObject({ payout: { status: 'paying' } });
      return answer.payout!.payoutId;
    };
    // The older one, asked about first, names a bank whose settings were taken away.
    const stranded = await lostPayout('Bola Ige', 'Uche Obi');
    await ctx.database.db
      .update(payouts)
      .set({ provider: 'retired-bank' })
      .where(eq(payouts.id, stranded));
    clock.advance(1_000);
    const fine = await lostPayout('Tunde Bakare', 'Ngozi Ike');

    clock.advance(ctx.config.reconcileAfterMs + 1_000);
    expect(await reconcile(ctx.context)).toMatchObject({ payoutsEnded: 1, unrouted: 1 });
    const statusOf = async (id: string) =>
      (await ctx.database.db.select().from(payouts).where(eq(payouts.id, id)))[0]?.status;
    expect(await statusOf(fine)).toBe('completed');
    expect(await statusOf(stranded)).toBe('paying');

    // Once the server runs its provider again, the next run asks it and ends it.
    await ctx.database.db
      .update(payouts)
      .set({ provider: 'sandbox' })
      .where(eq(payouts.id, stranded));
    clock.advance(ctx.config.reconcileAfterMs + 1_000);
    expect(await reconcile(ctx.context)).toMatchObject({ payoutsEnded: 1, unrouted: 0 });
    expect(await statusOf(stranded)).toBe('completed');
    await expectCleanBooks();
  });

  it('puts a payout the bank refused back in the wallet, to be released again', async () => {
    const ife = await aPayer('Ife Nwosu');
    const obi = await aPayer('Obi Eze');
    const accountId = await linkByTestTransfer(ctx.app, ife.token, SCENARIO);
    await collected(ife, obi, 40_000);
    const refusing = withPayOut(async () => ({
      kind: 'failed',
      providerReference: 'sbx_po_refused',
      reason: 'account_not_found',
    }));
    const refused = await releasePending(refusing, ife.userId, accountId);
    expect(refused).toMatchObject({
      released: 0,
      payout: { status: 'failed', amount: 40_000, failureReason: 'account_not_found' },
    });
    expect(await walletOf(ife)).toBe(40_000);
    expect(await bookingsOf(refused.payout!.payoutId)).toEqual(['payout', 'payout_return']);

    const released = await release(ife, accountId);
    expect(released.json()).toMatchObject({ released: 40_000, payout: { status: 'completed' } });
    expect(await walletOf(ife)).toBe(0);
    await expectCleanBooks();
  });
});
