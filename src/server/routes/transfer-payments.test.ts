// Paying by transfer into a one-time account (issue 9 "Transfers"): the exact amount completes
// the payment; a wrong amount, a late or a second transfer goes back to its sender, reported,
// never lost and never counted twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_TIME_ACCOUNT_TTL_MS } from '../../domain/constants';
import { sandboxTransfers } from '../db/schema';
import { checkLedger } from '../services/ledger';
import { startTestApp, testClock } from '../test-support';
import {
  consentWithPayment,
  ledgerKinds,
  paymentEvents,
  payByCard,
} from '../test-support-payments';

const clock = testClock('2027-03-02T10:00:00Z');
let ctx: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  ctx = await startTestApp({ clock });
});
afterAll(async () => {
  await ctx.close();
});

type TDetails = {
  amount: number;
  bankName: string;
  accountNumber: string;
  accountName: string;
  expiresAt: string;
};

async function openTransfer(consent: { paymentId: string; consentId: string }) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/payments/${consent.paymentId}/transfer?consentId=${consent.consentId}`,
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ transferDetails: TDetails }>().transferDetails;
}

const send = (accountNumber: string, amount: number) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/sandbox/transfers',
    payload: { accountNumber, amount },
  });

const state = async (consent: { paymentId: string; consentId: string }) =>
  (
    await ctx.app.inject({
      method: 'GET',
      url: `/api/payments/${consent.paymentId}?consentId=${consent.consentId}`,
    })
  ).json<{ status: string; stepText: string | null; transferDetails: TDetails | null }>();

describe('paying by transfer', () => {
  it('issues one account for 30 minutes, the same on asking again, in Rubies MFB', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const details = await openTransfer(consent);
    expect(details).toMatchObject({
      amount: consent.amount,
      bankName: 'Rubies MFB',
      accountName: 'Tola Stores',
      accountNumber: expect.stringMatching(/^\d{10}$/),
    });
    expect(Date.parse(details.expiresAt) - clock.now().getTime()).toBe(ONE_TIME_ACCOUNT_TTL_MS);
    expect(await openTransfer(consent)).toEqual(details);
  });

  it('gives two requests at once the same account', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const both = await Promise.all([openTransfer(consent), openTransfer(consent)]);
    expect(both[0]).toEqual(both[1]);
  });

  it('walks confirm → wrong amount returned → exact amount credited → second transfer returned', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const details = await openTransfer(consent);

    const confirm = await ctx.app.inject({
      method: 'POST',
      url: `/api/payments/${consent.paymentId}/transfer/confirm?consentId=${consent.consentId}`,
    });
    expect(confirm.json()).toMatchObject({
      status: 'in_progress',
      stepText: 'Waiting for transfer confirmation...',
    });
    expect(await state(consent)).toMatchObject({
      status: 'in_progress',
      stepText: 'Waiting for transfer confirmation...',
      transferDetails: details,
    });

    const wrong = await send(details.accountNumber, consent.amount - 1);
    expect(wrong.json()).toMatchObject({ success: true, outcome: 'returned_wrong_amount' });
    expect(await state(consent)).toMatchObject({ status: 'in_progress' });

    const exact = await send(details.accountNumber, consent.amount);
    expect(exact.json()).toMatchObject({ success: true, outcome: 'credited' });
    expect(await state(consent)).toMatchObject({ status: 'completed', transferDetails: null });

    const second = await send(details.accountNumber, consent.amount);
    expect(second.json()).toMatchObject({ outcome: 'returned_already_paid' });

    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['transfer_payment']);
    const streamed = await paymentEvents(ctx.database, consent.paymentId);
    expect(streamed.map((e) => e.status)).toEqual(['in_progress', 'completed']);
    expect(streamed[1]).toMatchObject({
      eventType: 'payment_success',
      paymentType: 'bank_transfer',
      // The sandbox's notice does not name the sender: no account is passed off as theirs.
      payerBank: null,
      shouldPromptBankAccountLinking: false,
    });
    // Confirming after the money arrived answers completed.
    const late = await ctx.app.inject({
      method: 'POST',
      url: `/api/payments/${consent.paymentId}/transfer/confirm?consentId=${consent.consentId}`,
    });
    expect(late.json()).toMatchObject({ status: 'completed' });
  });

  it('returns a transfer after the account expired, and issues a new account', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const details = await openTransfer(consent);
    clock.advance(ONE_TIME_ACCOUNT_TTL_MS + 1_000);
    const late = await send(details.accountNumber, consent.amount);
    expect(late.json()).toMatchObject({ outcome: 'returned_expired' });
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
    const fresh = await openTransfer(consent);
    expect(fresh.accountNumber).not.toBe(details.accountNumber);
    expect((await send(fresh.accountNumber, consent.amount)).json()).toMatchObject({
      outcome: 'credited',
    });
  });

  it("'Expire this account now' on the sandbox ends the account, and a transfer to it is returned", async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const details = await openTransfer(consent);
    const expired = await ctx.app.inject({
      method: 'POST',
      url: `/api/sandbox/virtual-accounts/${details.accountNumber}/expire`,
    });
    expect(expired.statusCode).toBe(200);
    expect((await send(details.accountNumber, consent.amount)).json()).toMatchObject({
      outcome: 'returned_expired',
    });
    expect(await state(consent)).toMatchObject({ status: 'failed', transferDetails: null });
  });

  it('closes the open account when the payment is paid another way; money sent to it is returned', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const details = await openTransfer(consent);
    const card = await payByCard(ctx.app, consent);
    expect(card.statusCode).toBe(200);
    expect(await state(consent)).toMatchObject({ status: 'completed', transferDetails: null });
    expect((await send(details.accountNumber, consent.amount)).json()).toMatchObject({
      outcome: 'returned_already_paid',
    });
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
  });

  it('returns a transfer to an account nobody issued', async () => {
    expect((await send('1250000009', 100)).json()).toMatchObject({
      outcome: 'returned_unknown_account',
    });
  });

  it('credits exactly one of ten transfers sent at once to one account', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const details = await openTransfer(consent);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => send(details.accountNumber, consent.amount)),
    );
    const outcomes = answers.map((a) => a.json<{ outcome: string }>().outcome).sort();
    expect(outcomes.filter((o) => o === 'credited')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'returned_already_paid')).toHaveLength(9);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['transfer_payment']);
  });

  it('records every transfer with what became of it, and keeps the books balanced', async () => {
    const recorded = await ctx.database.db.select().from(sandboxTransfers);
    expect(recorded.length).toBeGreaterThanOrEqual(17);
    expect(await checkLedger(ctx.database.db)).toMatchObject({
      unbalanced: [],
      balanceMismatches: [],
      paymentsNotBookedOnce: [],
    });
  });
});
