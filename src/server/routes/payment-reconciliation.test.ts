// A provider answer that was lost (docs/payments.md "Reconciliation"): for a card charge, a
// saved account's debit and a chip purchase, an attempt whose money the provider took but whose
// booking never happened is not charged again — the reconciler asks the provider about its
// reference and books it once; one the provider never got is failed and the payment is paid
// again; money owed back is given back; and ledger:check's comparison with the provider's record
// names what differs. On PGlite, and on PostgreSQL (each test is tagged). The accounts and cards
// payers link are their own: their sandbox person's, whose BVN they verified.
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  accountLinks,
  ledgerTransactions,
  paymentAttempts,
  payments,
  sandboxCardCharges,
  terminalPurchases,
} from '../db/schema';
import { checkLedger, ledgerProblems } from '../services/payments/ledger';
import { ownAccount, ownPerson } from '../testing/bvn';
import { oneTapGrant, payerWithPasskey, signedUpPayer } from '../testing/identity';
import {
  consentWithPayment,
  encryptedCard,
  cardLinkRow,
  ledgerKinds,
  linkByTestTransfer,
  payByCard,
  payByTransfer,
  paymentEvents,
  sandboxBalanceOf,
  sandboxCard,
} from '../testing/payments';
import { startTestApp, testClock } from '../testing/test-app';
import { chipPurchase, readChipCard } from '../testing/terminal';
import { usable } from '../providers/off';

const clock = testClock(new Date());
let ctx: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  ctx = await startTestApp({ clock, webhookDelivery: 'manual' });
});
afterAll(async () => {
  await ctx.close();
});

// Each test runs on PostgreSQL in CI, on PGlite without it; `npm run test:postgres` runs these.
const PG: { tags: ['postgres'] } = { tags: ['postgres'] };

/** The calls that move money a test loses the answer of, each with its capability. */
const MONEY_CALLS = {
  chargeCard: 'cards',
  debitAccount: 'debits',
  terminalChipPurchase: 'acquirer',
  reverseDebit: 'debits',
} as const;
type TMoneyCall = keyof typeof MONEY_CALLS;

/**
 * The provider's next `call` answers nothing: the connection drops `after` the provider did it
 * (money moved, the answer lost, as when the process is killed there) or `before` it arrived.
 */
function loseNextAnswer(call: TMoneyCall, when: 'after' | 'before') {
  const provider = ctx.context.providers.payments[MONEY_CALLS[call]] as unknown as Record<
    TMoneyCall,
    (request: unknown) => Promise<never>
  >;
  const real = provider[call].bind(provider);
  vi.spyOn(provider, call).mockImplementationOnce(async (request: unknown) => {
    if (when === 'after') await real(request);
    throw new Error('connection reset');
  });
}

/**
 * Six minutes on: past the age at which an unanswered call is asked about (RECONCILE_AFTER_MS),
 * and past the five minutes after which such a call was once given up and charged again.
 */
const later = () => clock.advance(6 * 60_000);

const reconcile = () => ctx.app.reconciler.runDue();

const attemptsOf = (paymentId: string) =>
  ctx.database.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, paymentId))
    .orderBy(paymentAttempts.createdAt);

/** How many of the payment's attempts the provider's record holds as taken and kept. */
async function takenAtProvider(paymentId: string): Promise<number> {
  const references = new Set((await attemptsOf(paymentId)).map((a) => a.id));
  const lines = await usable(ctx.context.providers.payments.settlement).settlementReport();
  return lines.filter((line) => references.has(line.reference) && !line.givenBack).length;
}

async function paymentRow(paymentId: string) {
  const [row] = await ctx.database.db.select().from(payments).where(eq(payments.id, paymentId));
  return row;
}

async function expectBooksMatchProvider() {
  const report = await checkLedger(ctx.database.db, {
    provider: ctx.context.providers.payments.settlement,
  });
  expect(ledgerProblems(report)).toEqual([]);
}

describe('a card charge whose answer was lost', () => {
  it('taken: not charged again meanwhile, then booked once by the reconciler', PG, async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    loseNextAnswer('chargeCard', 'after');
    const first = await payByCard(ctx.app, consent);
    expect(first.json()).toMatchObject({ status: 'charging' });
    // Whether the card was charged is not known: nothing may charge the payment meanwhile.
    const retry = await payByCard(ctx.app, consent);
    expect(retry.json()).toMatchObject({ error: { code: 'PAYMENT_IN_PROGRESS' } });

    later();
    expect(await reconcile()).toMatchObject({ attempts: { booked: 1 } });
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
    expect(await takenAtProvider(consent.paymentId)).toBe(1);
    expect(await paymentRow(consent.paymentId)).toMatchObject({
      status: 'executed',
      origin: { paymentMethod: 'card', obfuscatedCard: '408408******0003' },
    });
    expect((await paymentEvents(ctx.database, consent.paymentId)).at(-1)).toMatchObject({
      status: 'completed',
      paymentType: 'card',
    });

    const late = await payByCard(ctx.app, consent);
    expect(late.json()).toMatchObject({ error: { code: 'PAYMENT_ALREADY_MADE' } });
    expect(await reconcile()).toMatchObject({ attempts: {} });
    expect(await takenAtProvider(consent.paymentId)).toBe(1);
    await expectBooksMatchProvider();
  });

  it(
    'taken: a payer paying again past the age has it asked about first, and is told it is paid',
    PG,
    async () => {
      const consent = await consentWithPayment(ctx.app, ctx.database);
      loseNextAnswer('chargeCard', 'after');
      expect((await payByCard(ctx.app, consent)).json()).toMatchObject({ status: 'charging' });
      later();
      const again = await payByCard(ctx.app, consent);
      expect(again.json()).toMatchObject({ error: { code: 'PAYMENT_ALREADY_MADE' } });
      expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
      expect(await takenAtProvider(consent.paymentId)).toBe(1);
      await expectBooksMatchProvider();
    },
  );

  it(
    'waiting for its OTP at the network: back at the OTP step, where the payer who started it completes it',
    PG,
    async () => {
      // A signed-in payer: the charge is theirs to answer whatever answer was lost.
      const payer = await signedUpPayer(ctx.app, 'Kunle Ade');
      const consent = await consentWithPayment(ctx.app, ctx.database, { requiresAuth: true });
      loseNextAnswer('chargeCard', 'after');
      const started = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/card',
        headers: payer.headers,
        payload: {
          paymentId: consent.paymentId,
          cardDetails: await encryptedCard(ctx.app, sandboxCard('pin_otp')),
          saveCard: false,
        },
      });
      expect(started.json()).toMatchObject({ status: 'charging' });
      later();
      expect(await reconcile()).toMatchObject({ attempts: { pending: 1 } });
      expect((await attemptsOf(consent.paymentId))[0]).toMatchObject({
        status: 'in_progress',
        stage: 'awaiting_otp',
      });
      const done = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/card/complete',
        headers: payer.headers,
        payload: { paymentId: consent.paymentId, otp: sandboxCard('pin_otp').otp },
      });
      expect(done.statusCode, done.body).toBe(200);
      expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
      expect(await takenAtProvider(consent.paymentId)).toBe(1);
      await expectBooksMatchProvider();
    },
  );

  it(
    'never taken: failed when asked about (the reference closed), and the payment is paid again',
    PG,
    async () => {
      const consent = await consentWithPayment(ctx.app, ctx.database);
      loseNextAnswer('chargeCard', 'before');
      expect((await payByCard(ctx.app, consent)).json()).toMatchObject({ status: 'charging' });
      later();
      expect(await reconcile()).toMatchObject({ attempts: { failed: 1 } });
      const [lost] = await attemptsOf(consent.paymentId);
      expect(lost).toMatchObject({
        status: 'failed',
        stage: null,
        failureCode: 'CARD_BANK_NO_ANSWER',
        failureReason: 'expired',
      });
      // The payer is told plainly that nothing was charged.
      expect((await paymentEvents(ctx.database, consent.paymentId)).at(-1)).toMatchObject({
        status: 'failed',
        message: 'Your bank did not answer. Nothing was charged.',
        attempt: { state: 'failed', failureCode: 'CARD_BANK_NO_ANSWER', charged: false },
      });
      expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);

      expect((await payByCard(ctx.app, consent)).statusCode).toBe(200);
      expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
      expect(await takenAtProvider(consent.paymentId)).toBe(1);
      await expectBooksMatchProvider();
    },
  );
});

describe('a saved-account debit whose answer was lost (OneTap at the grant)', () => {
  async function payerAndConsent() {
    const who = await payerWithPasskey(ctx.app, ctx.config);
    const accountId = await linkByTestTransfer(ctx.app, who.token, 'links_by_test_transfer');
    const consent = await consentWithPayment(ctx.app, ctx.database, { requiresAuth: true });
    const grant = () => oneTapGrant(ctx.app, who, consent.consentId, accountId);
    const account = await ownAccount(ctx.app, who.token, 'links_by_test_transfer');
    /** The sandbox bank's balance of the payer's own account the grant debits. */
    const balance = () => sandboxBalanceOf(ctx.database, account);
    return { who, consent, grant, account, balance };
  }

  it(
    'taken: not debited again meanwhile, booked once by the reconciler, then granted',
    PG,
    async () => {
      const { consent, grant, account, balance } = await payerAndConsent();
      const before = await balance();
      loseNextAnswer('debitAccount', 'after');
      expect((await grant()).json()).toMatchObject({
        status: 'pending',
        error: 'Direct debit payment failed',
      });
      const retry = await grant();
      expect(retry.json()).toMatchObject({ error: { code: 'PAYMENT_IN_PROGRESS' } });

      later();
      expect(await reconcile()).toMatchObject({ attempts: { booked: 1 } });
      expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['account_debit']);
      expect(await takenAtProvider(consent.paymentId)).toBe(1);
      expect(await paymentRow(consent.paymentId)).toMatchObject({
        status: 'executed',
        origin: { paymentMethod: 'bank_transfer', accountNumber: account.accountNumber },
      });
      // The grant now finds the payment paid, and debits nothing more.
      expect((await grant()).json()).toMatchObject({
        status: 'granted',
        paymentResults: { failed: 0 },
      });
      expect(await balance()).toBe(before - consent.amount);
      await expectBooksMatchProvider();
    },
  );

  it('never taken: failed when asked about, and the grant then debits it', PG, async () => {
    const { consent, grant } = await payerAndConsent();
    loseNextAnswer('debitAccount', 'before');
    expect((await grant()).json()).toMatchObject({ status: 'pending' });
    later();
    expect(await reconcile()).toMatchObject({ attempts: { failed: 1 } });
    expect((await attemptsOf(consent.paymentId))[0]).toMatchObject({
      status: 'failed',
      failureCode: 'DIRECT_DEBIT_FAILED',
      failureReason: 'expired',
    });
    expect((await grant()).json()).toMatchObject({ status: 'granted' });
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['account_debit']);
    expect(await takenAtProvider(consent.paymentId)).toBe(1);
    await expectBooksMatchProvider();
  });

  it(
    'taken after the payment was paid by transfer: booked in and out, and reversed even when the reversal is lost once',
    PG,
    async () => {
      const { who, consent, grant, balance } = await payerAndConsent();
      const before = await balance();
      loseNextAnswer('debitAccount', 'after');
      await grant();
      // Meanwhile the payer pays by transfer: the payment is executed by that attempt.
      expect((await payByTransfer(ctx.app, consent, { token: who.token })).statusCode).toBe(200);
      later();
      loseNextAnswer('reverseDebit', 'before');
      expect(await reconcile()).toMatchObject({ attempts: { paid_otherwise: 1 } });
      expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([
        'transfer_payment',
        'account_debit',
        'card_refund',
      ]);
      const debit = (await attemptsOf(consent.paymentId)).find((a) => a.method === 'account');
      expect(debit).toMatchObject({ status: 'failed', refund: 'owed' });
      // The bank still holds the debit the books gave back: ledger:check names it.
      const owed = ledgerProblems(
        await checkLedger(ctx.database.db, { provider: ctx.context.providers.payments.settlement }),
      );
      expect(owed).toEqual([
        `debit ${debit?.id}: sandbox's record holds ${consent.amount} kobo taken, the books 0`,
      ]);

      later();
      expect(await reconcile()).toMatchObject({ refunds: { given_back: 1 } });
      expect(
        (await attemptsOf(consent.paymentId)).find((a) => a.method === 'account'),
      ).toMatchObject({ refund: 'settled' });
      expect(await balance()).toBe(before);
      expect(await takenAtProvider(consent.paymentId)).toBe(0);
      await expectBooksMatchProvider();
    },
  );
});

describe('a chip purchase whose answer was lost', () => {
  const purchaseBody = async (consent: {
    paymentId: string;
    consentId: string;
    amount: number;
  }) => ({
    ...(await readChipCard(ctx.app, 'chip_approved', consent.amount)),
    paymentId: consent.paymentId,
    consentId: consent.consentId,
  });

  it('taken: not sent again meanwhile, then booked once by the reconciler', PG, async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    loseNextAnswer('terminalChipPurchase', 'after');
    const first = await chipPurchase(ctx.app, await purchaseBody(consent));
    expect(first.json()).toMatchObject({ error: { code: 'TERMINAL_TIMEOUT' } });
    const retry = await chipPurchase(ctx.app, await purchaseBody(consent));
    expect(retry.json()).toMatchObject({ error: { code: 'PAYMENT_IN_PROGRESS' } });

    later();
    expect(await reconcile()).toMatchObject({ attempts: { booked: 1 } });
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['chip_card_payment']);
    expect(await takenAtProvider(consent.paymentId)).toBe(1);
    const [lost] = await attemptsOf(consent.paymentId);
    const [purchase] = await ctx.database.db
      .select()
      .from(terminalPurchases)
      .where(eq(terminalPurchases.attemptId, lost!.id));
    expect(purchase).toMatchObject({
      responseCode: '00',
      authCode: expect.stringMatching(/^\d{6}$/),
    });
    expect(await paymentRow(consent.paymentId)).toMatchObject({ status: 'executed' });
    await expectBooksMatchProvider();
  });

  it('never taken: failed when asked about, and a new read pays it', PG, async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    loseNextAnswer('terminalChipPurchase', 'before');
    expect((await chipPurchase(ctx.app, await purchaseBody(consent))).statusCode).toBe(504);
    later();
    expect(await reconcile()).toMatchObject({ attempts: { failed: 1 } });
    expect((await attemptsOf(consent.paymentId))[0]).toMatchObject({
      status: 'failed',
      failureCode: 'TERMINAL_TIMEOUT',
      failureReason: 'expired',
    });
    expect((await chipPurchase(ctx.app, await purchaseBody(consent))).statusCode).toBe(200);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['chip_card_payment']);
    expect(await takenAtProvider(consent.paymentId)).toBe(1);
    await expectBooksMatchProvider();
  });
});

describe('a card link’s test charge whose answer was lost', () => {
  it(
    'taken: given back, booked in and out, the link failed; the payer links again',
    PG,
    async () => {
      const payer = await signedUpPayer(ctx.app, 'Funmilayo Adebayo');
      // Their own card, on their own account a card links.
      const person = await ownPerson(ctx.app, payer.token);
      const card = person.cards.find((c) => c.scenario === 'pin_only');
      const account = person.accounts.find((a) => a.scenario === 'links_by_card');
      if (!card || !account) throw new Error('the person has no pin_only card on a card account');
      const linkCard = async () =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/payments/card',
          headers: payer.headers,
          payload: {
            saveCard: true,
            saveToAccount: {
              accountNumber: account.accountNumber,
              institutionCode: account.institutionCode,
            },
            cardDetails: await encryptedCard(ctx.app, card),
          },
        });
      // The network charges the card; its answer does not come back while the reconciler runs.
      const provider = usable(ctx.context.providers.payments.cards);
      const real = provider.chargeCard.bind(provider);
      let answerLost: (error: Error) => void = () => {};
      vi.spyOn(provider, 'chargeCard').mockImplementationOnce(async (request) => {
        await real(request);
        return new Promise((_, reject) => {
          answerLost = reject;
        });
      });
      const first = linkCard();
      // Charged at the network (its record, read without asking it: a requery would close it).
      const charging = async () => {
        const [row] = await ctx.database.db
          .select({ id: accountLinks.id, status: sandboxCardCharges.status })
          .from(accountLinks)
          .innerJoin(sandboxCardCharges, eq(sandboxCardCharges.reference, accountLinks.id))
          .innerJoin(paymentAttempts, eq(paymentAttempts.id, accountLinks.id))
          .where(
            and(
              eq(accountLinks.payerId, payer.userId),
              eq(accountLinks.state, 'created'),
              eq(paymentAttempts.stage, 'charging'),
            ),
          );
        return row?.status === 'succeeded' ? row : undefined;
      };
      await vi.waitFor(async () => expect(await charging()).toBeDefined());
      const link = (await charging())!;

      later();
      expect(await reconcile()).toMatchObject({ linkCharges: { given_back: 1 } });
      expect(await cardLinkRow(ctx.database, link.id)).toMatchObject({
        state: 'cancelled',
        chargeStage: null,
        charge: { status: 'completed', refund: 'settled' },
      });
      expect(await provider.requeryCardCharge(link.id)).toMatchObject({
        kind: 'taken',
        givenBack: true,
      });
      const booked = await ctx.database.db
        .select({ kind: ledgerTransactions.kind })
        .from(ledgerTransactions)
        .where(eq(ledgerTransactions.reference, link.id))
        .orderBy(ledgerTransactions.id);
      expect(booked.map((b) => b.kind)).toEqual(['link_test_charge', 'test_charge_refund']);
      await expectBooksMatchProvider();

      // The lost answer fails at last: the link is settled already, nothing more happens.
      answerLost(new Error('connection reset'));
      expect((await first).statusCode).toBe(502);
      expect((await linkCard()).statusCode).toBe(200);
      await expectBooksMatchProvider();
    },
  );
});

describe('ledger:check against the provider’s record', () => {
  it(
    'fails when the provider took money the books do not hold, or the books hold money the provider never took',
    PG,
    async () => {
      const provider = usable(ctx.context.providers.payments.cards);
      const { settlement } = ctx.context.providers.payments;
      const consent = await consentWithPayment(ctx.app, ctx.database);
      expect((await payByCard(ctx.app, consent)).statusCode).toBe(200);
      const [paid] = await attemptsOf(consent.paymentId);
      await expectBooksMatchProvider();

      // A charge the network took by a reference our books never booked.
      const stray = await provider.chargeCard({
        reference: 'att_never_booked',
        amount: 4_200,
        narration: 'Stray',
        card: { number: '4084080000000003', expiry: '12/30', cvv: '408', pin: '1234' },
      });
      if (stray.kind !== 'succeeded') throw new Error(stray.kind);
      // And the network's record of the booked payment, lost.
      const [record] = await ctx.database.db
        .delete(sandboxCardCharges)
        .where(inArray(sandboxCardCharges.reference, [paid!.id]))
        .returning();

      const report = await checkLedger(ctx.database.db, { provider: settlement });
      expect(report.providerDifferences).toHaveLength(2);
      expect(report.providerDifferences).toEqual(
        expect.arrayContaining([
          {
            holder: 'sandbox',
            channel: 'card',
            reference: paid!.id,
            provider: 0,
            books: consent.amount,
          },
          {
            holder: 'sandbox',
            channel: 'card',
            reference: 'att_never_booked',
            provider: 4_200,
            books: 0,
          },
        ]),
      );
      expect(ledgerProblems(report).sort()).toEqual(
        [
          `card ${paid!.id}: sandbox's record holds 0 kobo taken, the books ${consent.amount}`,
          "card att_never_booked: sandbox's record holds 4200 kobo taken, the books 0",
        ].sort(),
      );

      // Put right (the stray charge refunded, the record back): they agree again.
      await provider.refundCard({
        providerReference: stray.providerReference,
        amount: 4_200,
        reference: 'att_never_booked',
      });
      await ctx.database.db.insert(sandboxCardCharges).values(record!);
      await expectBooksMatchProvider();
    },
  );

  it(
    'over a period, compares what was booked within it with the provider’s record of it, widened a day',
    PG,
    async () => {
      const { settlement } = ctx.context.providers.payments;
      const asked: unknown[] = [];
      const recording = {
        settlementReport: (period?: { from: Date; to: Date }) => {
          asked.push(period);
          return settlement.settlementReport(period);
        },
      };
      const consent = await consentWithPayment(ctx.app, ctx.database);
      expect((await payByCard(ctx.app, consent)).statusCode).toBe(200);
      const [paid] = await attemptsOf(consent.paymentId);
      // The network's record of the booked payment, lost.
      const [record] = await ctx.database.db
        .delete(sandboxCardCharges)
        .where(inArray(sandboxCardCharges.reference, [paid!.id]))
        .returning();
      const differencesOver = async (period: { from: Date; to: Date }) =>
        (await checkLedger(ctx.database.db, { provider: recording, period })).providerDifferences;

      const before = {
        from: new Date('2020-01-01T00:00:00Z'),
        to: new Date('2020-02-01T00:00:00Z'),
      };
      expect(await differencesOver(before)).toEqual([]);
      expect(asked.at(-1)).toEqual({
        from: new Date('2019-12-31T00:00:00Z'),
        to: new Date('2020-02-02T00:00:00Z'),
      });
      const until = new Date(Date.now() + 365 * 24 * 60 * 60 * 1000);
      expect(await differencesOver({ from: before.from, to: until })).toEqual([
        {
          holder: 'sandbox',
          channel: 'card',
          reference: paid!.id,
          provider: 0,
          books: consent.amount,
        },
      ]);

      await ctx.database.db.insert(sandboxCardCharges).values(record!);
      await expectBooksMatchProvider();
    },
  );
});
