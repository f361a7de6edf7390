// The grant with the payer's linked accounts (spec §2 'OneTap', §4 grant outcome, §7 grant data):
// the immediate payment debited from a saved account at the grant, once, with its ledger entries;
// a failed debit ('Direct debit payment failed') grants nothing; future payments bound to the
// accounts chosen; and 'Decline'. The accounts are the payer's own: their sandbox person's,
// whose BVN they verified (docs/accounts.md "Ownership").
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  consentEvents,
  futurePaymentAccounts,
  paymentAttempts,
  payments,
  sandboxDebits,
} from '../db/schema';
import { checkLedger } from '../services/payments/ledger';
import { createTestClient, useTestApp } from '../testing/test-app';
import { ownAccount } from '../testing/bvn';
import { payerWithPasskey, signedGrant } from '../testing/identity';
import {
  ledgerKinds,
  linkByTestTransfer,
  paymentEvents,
  sandboxBalanceOf,
} from '../testing/payments';
import type { TAccountScenario } from '../sandbox/fixtures';

const ctx = useTestApp();

/** A signed-in payer with a passkey, and what signs their grants. */
const payer = (countsSignatures = true) => payerWithPasskey(ctx.app, ctx.config, countsSignatures);

/** A consent asking for an immediate payment and two monthly future payments, with sign-in. */
async function consentWithFuture(amount = 400_000) {
  const merchant = await createTestClient(ctx.database, { name: 'Tola Stores' });
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: merchant.authorization },
    payload: {
      payments: [
        { type: 'immediate', amount, narration: 'Registration fee' },
        ...[1, 2].map((month) => ({
          type: 'future',
          amount: 1_500_000,
          amountType: 'fixed',
          narration: 'Membership',
          dueDate: new Date(Date.UTC(2031, month, 1, 9)).toISOString(),
        })),
      ],
      requirements: { requiresAuth: true },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const consentId = created.json<{ consentId: string }>().consentId;
  const read = await ctx.app.inject({
    method: 'GET',
    url: `/api/consent/${consentId}?clientId=${merchant.clientId}`,
  });
  const consentPayments = read.json<{
    consent: { payments: Array<{ paymentId: string; type: string }> };
  }>().consent.payments;
  const immediate = consentPayments.find((p) => p.type === 'immediate');
  if (!immediate) throw new Error('no immediate payment');
  return {
    consentId,
    clientId: merchant.clientId,
    paymentId: immediate.paymentId,
    futureIds: consentPayments.filter((p) => p.type === 'future').map((p) => p.paymentId),
    amount,
  };
}

const grantData = (consentId: string, debitFrom: string | null, futureFrom: string[]) => ({
  originalRequestId: null,
  consentData: { consentId },
  userAuthenticated: true,
  attestDiscoveryId: null,
  futurePayments: {
    granted: futureFrom.length > 0,
    selectedAccounts: futureFrom,
    paymentMethods: futureFrom.map((accountId) => ({ type: 'account' as const, accountId })),
  },
  immediatePayments: {
    granted: true,
    selectedAccounts: debitFrom ? [debitFrom] : [],
    paymentMethods: debitFrom ? [{ type: 'account' as const, accountId: debitFrom }] : [],
  },
});

async function grant(
  who: Awaited<ReturnType<typeof payer>>,
  consentId: string,
  data: ReturnType<typeof grantData>,
) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    headers: who.headers,
    payload: await signedGrant(ctx.app, who.soft, who.token, consentId, data),
  });
}

/** The sandbox bank's balance of the payer's own account of `scenario`, the one they linked. */
const balanceOf = async (who: { token: string }, scenario: TAccountScenario) =>
  sandboxBalanceOf(ctx.database, await ownAccount(ctx.app, who.token, scenario));

async function debitsOf(paymentId: string) {
  const attempts = await ctx.database.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, paymentId));
  const debits = await Promise.all(
    attempts.map((a) =>
      ctx.database.db.select().from(sandboxDebits).where(eq(sandboxDebits.reference, a.id)),
    ),
  );
  return { attempts, debits: debits.flat() };
}

describe('paying the immediate payment from a saved account at the grant', () => {
  it('debits the account once, books it, executes the payment with its origin, and grants', async () => {
    const who = await payer();
    const accountId = await linkByTestTransfer(ctx.app, who.token, 'links_by_test_transfer');
    const consent = await consentWithFuture();
    const before = await balanceOf(who, 'links_by_test_transfer');

    const answer = await grant(
      who,
      consent.consentId,
      grantData(consent.consentId, accountId, [accountId]),
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({
      status: 'granted',
      paymentResults: { total: 1, succeeded: 1, failed: 0 },
      message: 'Consent granted',
    });
    const paid = body.consent.payments.find((p: { type: string }) => p.type === 'immediate');
    expect(paid).toMatchObject({
      status: 'executed',
      origin: {
        paymentMethod: 'bank_transfer',
        bankId: accountId,
        accountNumber: (await ownAccount(ctx.app, who.token, 'links_by_test_transfer'))
          .accountNumber,
      },
    });
    expect(await balanceOf(who, 'links_by_test_transfer')).toBe(before - consent.amount);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['account_debit']);
    const { attempts, debits } = await debitsOf(consent.paymentId);
    expect(attempts.map((a) => [a.method, a.status])).toEqual([['account', 'completed']]);
    expect(debits.map((d) => d.outcome)).toEqual(['succeeded']);
    const streamed = await paymentEvents(ctx.database, consent.paymentId);
    expect(streamed.at(-1)).toMatchObject({ status: 'completed', paymentType: 'account' });

    // Each future payment is bound to the chosen account, on its active mandate.
    const bound = await ctx.database.db.select().from(futurePaymentAccounts);
    for (const futureId of consent.futureIds) {
      expect(bound.filter((b) => b.paymentId === futureId)).toEqual([
        expect.objectContaining({
          accountId,
          position: 0,
          mandateId: expect.stringMatching(/^alk_/),
        }),
      ]);
    }

    // A retry (another tab) answers the same and debits nothing more.
    const again = await grant(
      who,
      consent.consentId,
      grantData(consent.consentId, accountId, [accountId]),
    );
    expect(again.json()).toMatchObject({ status: 'granted', paymentResults: { failed: 0 } });
    expect(await balanceOf(who, 'links_by_test_transfer')).toBe(before - consent.amount);
    expect((await checkLedger(ctx.database.db)).paymentsNotBookedOnce).toEqual([]);
  });

  it('five grants at once debit the account once', { tags: ['postgres'] }, async () => {
    // A synced passkey keeps its counter at 0, so five signatures made first verify in any order.
    const who = await payer(false);
    const accountId = await linkByTestTransfer(ctx.app, who.token, 'links_by_test_transfer');
    const consent = await consentWithFuture(123_400);
    const data = grantData(consent.consentId, accountId, [accountId]);
    const signed = await Promise.all(
      Array.from({ length: 5 }, () =>
        signedGrant(ctx.app, who.soft, who.token, consent.consentId, data),
      ),
    );
    const answers = await Promise.all(
      signed.map((payload) =>
        ctx.app.inject({
          method: 'POST',
          url: `/api/consent/${consent.consentId}/grant`,
          headers: who.headers,
          payload,
        }),
      ),
    );
    // Each answers: granted, or the debit another grant has under way (409), never a 500.
    for (const a of answers) expect([200, 409], a.body).toContain(a.statusCode);
    const { debits } = await debitsOf(consent.paymentId);
    expect(debits.filter((d) => d.outcome === 'succeeded')).toHaveLength(1);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['account_debit']);
    const [row] = await ctx.database.db
      .select()
      .from(payments)
      .where(eq(payments.id, consent.paymentId));
    expect(row?.status).toBe('executed');
  });

  it('a debit the account cannot cover fails with "Direct debit payment failed" and the bank\'s reason, and grants nothing', async () => {
    const who = await payer();
    const poor = await linkByTestTransfer(ctx.app, who.token, 'insufficient_funds');
    const consent = await consentWithFuture();
    const before = await balanceOf(who, 'insufficient_funds');

    const answer = await grant(who, consent.consentId, grantData(consent.consentId, poor, [poor]));
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      status: 'pending',
      paymentResults: { total: 1, succeeded: 0, failed: 1 },
      error: 'Direct debit payment failed: Insufficient funds',
      consent: { status: 'pending', grantedAt: null },
    });
    expect(await balanceOf(who, 'insufficient_funds')).toBe(before);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
    const { attempts } = await debitsOf(consent.paymentId);
    expect(attempts).toEqual([
      expect.objectContaining({
        method: 'account',
        status: 'failed',
        failureCode: 'DIRECT_DEBIT_FAILED',
        failureReason: 'insufficient_funds',
      }),
    ]);
    expect((await paymentEvents(ctx.database, consent.paymentId)).at(-1)).toMatchObject({
      status: 'failed',
      message: 'Direct debit payment failed',
    });
    const bound = await ctx.database.db
      .select()
      .from(futurePaymentAccounts)
      .where(eq(futurePaymentAccounts.paymentId, consent.futureIds[0] ?? ''));
    expect(bound).toEqual([]);

    // Another account of theirs then pays it, and the consent is granted.
    const rich = await linkByTestTransfer(ctx.app, who.token, 'links_by_test_transfer');
    const retried = await grant(
      who,
      consent.consentId,
      grantData(consent.consentId, rich, [rich, poor]),
    );
    expect(retried.json()).toMatchObject({ status: 'granted', paymentResults: { failed: 0 } });
    const order = await ctx.database.db
      .select()
      .from(futurePaymentAccounts)
      .where(eq(futurePaymentAccounts.paymentId, consent.futureIds[0] ?? ''));
    expect(order.sort((a, b) => a.position - b.position).map((b) => b.accountId)).toEqual([
      rich,
      poor,
    ]);
  });

  it('refuses an account that is not linked, or is another payer’s, naming it', async () => {
    const who = await payer();
    const other = await payer();
    const theirs = await linkByTestTransfer(ctx.app, other.token, 'links_by_test_transfer');
    const consent = await consentWithFuture();
    for (const accountId of [theirs, 'acc_unknown']) {
      const answer = await grant(
        who,
        consent.consentId,
        grantData(consent.consentId, accountId, [accountId]),
      );
      expect(answer.statusCode).toBe(400);
      expect(answer.json().error.message).toBe(
        `selectedAccounts: no linked account of yours has the id ${accountId}`,
      );
    }
    const { attempts } = await debitsOf(consent.paymentId);
    expect(attempts).toEqual([]);
  });
});

describe('declining', () => {
  it('a signed-in payer declines: the consent is declined once, with its audit row; a grant then is refused', async () => {
    const who = await payer();
    const consent = await consentWithFuture();
    const url = `/api/consent/${consent.consentId}/decline`;
    expect((await ctx.app.inject({ method: 'POST', url })).statusCode).toBe(401);
    const declined = await ctx.app.inject({ method: 'POST', url, headers: who.headers });
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toMatchObject({
      success: true,
      status: 'declined',
      message: 'Consent was rejected by user',
    });
    const again = await ctx.app.inject({ method: 'POST', url, headers: who.headers });
    expect(again.json()).toMatchObject({ status: 'declined' });
    const audit = await ctx.database.db
      .select()
      .from(consentEvents)
      .where(
        and(
          eq(consentEvents.consentId, consent.consentId),
          eq(consentEvents.type, 'consent.declined'),
        ),
      );
    expect(audit).toHaveLength(1);
    const refused = await grant(who, consent.consentId, grantData(consent.consentId, null, []));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('Consent was rejected by user');
  });
});
