import { ERROR_CATALOGUE } from '../../domain/errors';
// Paying by transfer into a one-time account: the exact amount completes the payment; a wrong
// amount, a late or a second transfer goes back to its sender, reported, never lost and never
// counted twice.
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { ONE_TIME_ACCOUNT_TTL_MS } from '../../domain/constants';
import { maskOrigin } from '../../domain/origin-privacy';
import { payments, sandboxTransfers } from '../db/schema';
import { checkLedger } from '../services/payments/ledger';
import { useTestApp, testClock } from '../testing/test-app';
import { ownAccount } from '../testing/bvn';
import { signUp, testPhone } from '../testing/identity';
import {
  consentWithPayment,
  keepPageToken,
  ledgerKinds,
  linkByTestTransfer,
  pageQuery,
  paymentEvents,
  payByCard,
  payByTransfer,
  sandboxAccount,
  sandboxTransfer,
} from '../testing/payments';
import { usable } from '../providers/off';

const clock = testClock('2027-03-02T10:00:00Z');
const ctx = useTestApp({ clock });

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
  return keepPageToken(consent.paymentId, response).json<{ transferDetails: TDetails }>()
    .transferDetails;
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
      url: `/api/payments/${consent.paymentId}?${pageQuery(consent)}`,
    })
  ).json<{
    status: string;
    stepText: string | null;
    transferDetails: TDetails | null;
    attempt: unknown;
  }>();

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

  it('gives two requests at once the same account', { tags: ['postgres'] }, async () => {
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
    // The payer is told the money went back, and the account stays open for the right amount.
    const returnedWrong = {
      state: 'awaiting_transfer',
      returned: { amount: consent.amount - 1, reason: 'wrong_amount' },
    };
    expect(await state(consent)).toMatchObject({
      status: 'in_progress',
      transferDetails: details,
      attempt: returnedWrong,
    });

    const exact = await send(details.accountNumber, consent.amount);
    expect(exact.json()).toMatchObject({ success: true, outcome: 'credited' });
    expect(await state(consent)).toMatchObject({ status: 'completed', transferDetails: null });

    const second = await send(details.accountNumber, consent.amount);
    expect(second.json()).toMatchObject({ outcome: 'returned_already_paid' });

    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['transfer_payment']);
    const streamed = await paymentEvents(ctx.database, consent.paymentId);
    expect(streamed.map((e) => e.status)).toEqual([
      'in_progress',
      'in_progress',
      'completed',
      'completed',
    ]);
    expect(streamed[1]).toMatchObject({ attempt: returnedWrong });
    // The second transfer went back too: told with the paid attempt, not as a second success.
    expect(streamed[3]).toEqual(
      expect.objectContaining({
        attempt: expect.objectContaining({
          state: 'completed',
          returned: { amount: consent.amount, reason: 'already_paid' },
        }),
      }),
    );
    expect(streamed[3]).not.toHaveProperty('eventType');
    expect(await state(consent)).toMatchObject({
      attempt: { returned: { amount: consent.amount, reason: 'already_paid' } },
    });
    expect(streamed[2]).toMatchObject({
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

  it(
    'credits exactly one of ten transfers sent at once to one account',
    { tags: ['postgres'] },
    async () => {
      const consent = await consentWithPayment(ctx.app, ctx.database);
      const details = await openTransfer(consent);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => send(details.accountNumber, consent.amount)),
      );
      const outcomes = answers.map((a) => a.json<{ outcome: string }>().outcome).sort();
      expect(outcomes.filter((o) => o === 'credited')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'returned_already_paid')).toHaveLength(9);
      expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['transfer_payment']);
    },
  );

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

describe('a one-time account lives no longer than its consent', () => {
  /** A consent that expires 10 minutes from now, before its account's 30 minutes. */
  const expiringConsent = () =>
    consentWithPayment(ctx.app, ctx.database, {
      expiresAt: new Date(clock.now().getTime() + 10 * 60_000),
    });

  /** What a late transfer must leave: returned, nothing booked, the payment unpaid, books balanced. */
  async function expectReturnedLate(
    consent: Awaited<ReturnType<typeof expiringConsent>>,
    details: TDetails,
  ) {
    const late = await send(details.accountNumber, consent.amount);
    expect(late.json()).toEqual({
      success: true,
      outcome: 'returned_expired',
      message: 'Returned to the sender: this one-time account has expired.',
    });
    const recorded = await ctx.database.db
      .select({ outcome: sandboxTransfers.outcome })
      .from(sandboxTransfers)
      .where(eq(sandboxTransfers.accountNumber, details.accountNumber));
    expect(recorded).toEqual([{ outcome: 'returned_expired' }]);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
    const [payment] = await ctx.database.db
      .select({ status: payments.status, executedAt: payments.executedAt })
      .from(payments)
      .where(eq(payments.id, consent.paymentId));
    expect(payment).toEqual({ status: 'pending', executedAt: null });
    // The payer's page hears it: the account expired and the money went back.
    expect(await paymentEvents(ctx.database, consent.paymentId)).toEqual([
      expect.objectContaining({
        status: 'failed',
        message: ERROR_CATALOGUE.TRANSFER_ACCOUNT_EXPIRED.message,
        attempt: expect.objectContaining({
          state: 'failed',
          failureCode: 'TRANSFER_ACCOUNT_EXPIRED',
          returned: { amount: consent.amount, reason: 'expired' },
        }),
      }),
    ]);
    expect(await checkLedger(ctx.database.db)).toMatchObject({
      unbalanced: [],
      balanceMismatches: [],
      paymentsNotBookedOnce: [],
    });
  }

  it(
    "shows the consent's expiry when it comes first, and returns a transfer 10 s after it",
    { tags: ['postgres'] },
    async () => {
      const consent = await expiringConsent();
      const consentExpiry = new Date(clock.now().getTime() + 10 * 60_000).toISOString();
      const details = await openTransfer(consent);
      expect(details.expiresAt).toBe(consentExpiry);
      expect((await state(consent)).transferDetails?.expiresAt).toBe(consentExpiry);
      // Past the consent's expiry, well within the account's own 30 minutes.
      clock.advance(10 * 60_000 + 10_000);
      await expectReturnedLate(consent, details);
    },
  );

  it(
    'returns the late transfer even from a provider whose account kept its own 30 minutes',
    { tags: ['postgres'] },
    async () => {
      const provider = usable(ctx.context.providers.payments.transfersIn);
      const open = provider.openTransferAccount.bind(provider);
      const spy = vi
        .spyOn(provider, 'openTransferAccount')
        .mockImplementation(({ notAfter: _ignored, ...request }) => open(request));
      const consent = await expiringConsent();
      let details: TDetails;
      try {
        details = await openTransfer(consent);
      } finally {
        spy.mockRestore();
      }
      // Our answer shows the earlier time whatever the provider's account says.
      expect(details.expiresAt).toBe(new Date(clock.now().getTime() + 10 * 60_000).toISOString());
      clock.advance(10 * 60_000 + 10_000);
      await expectReturnedLate(consent, details);
      // The late transfer ended the attempt: the page reads a failed attempt, no account to pay.
      expect(await state(consent)).toMatchObject({ status: 'failed', transferDetails: null });
    },
  );
});

describe('a transfer whose notice names its sender', () => {
  const adaeze = sandboxAccount('links_by_test_transfer');
  const from = { institutionCode: adaeze.institutionCode, accountNumber: adaeze.accountNumber };
  const adaezeBank = {
    bankName: 'Guaranty Trust Bank',
    accountName: adaeze.accountName,
    accountNumber: adaeze.accountNumber,
    institutionCode: adaeze.institutionCode,
  };

  type TConsent = Awaited<ReturnType<typeof consentWithPayment>>;

  /** The payment's origin as the consent read shows it (spec §3). */
  async function originOf(consent: TConsent) {
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/consent/${consent.consentId}?clientId=${consent.client.clientId}`,
    });
    expect(read.statusCode, read.body).toBe(200);
    return read
      .json<{ consent: { payments: Array<{ paymentId: string; origin: unknown }> } }>()
      .consent.payments.find((p) => p.paymentId === consent.paymentId)?.origin;
  }

  /** The payment's status read (GET /api/payments/{id}), as a payer who reloaded sees it. */
  const statusRead = async (consent: TConsent, token?: string) =>
    (
      await ctx.app.inject({
        method: 'GET',
        url: token
          ? `/api/payments/${consent.paymentId}`
          : `/api/payments/${consent.paymentId}?${pageQuery(consent)}`,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      })
    ).json();

  /**
   * The completed status event, the status read and the origin all name the same sender (or
   * none) and the same shouldPromptBankAccountLinking: the log keeps it in full, the status read
   * shows it in full to the payer who paid (`token`) and masked to the page that paid without
   * sign-in, and the consent read, which anyone with the link may make, not at all: only how it
   * was paid and whether to offer the link.
   */
  async function expectSender(
    consent: TConsent,
    payerBank: typeof adaezeBank | null,
    shouldPromptBankAccountLinking: boolean,
    token?: string,
  ) {
    const masked = payerBank && maskOrigin(payerBank);
    const events = await paymentEvents(ctx.database, consent.paymentId);
    expect(events.find((e) => e.status === 'completed')).toMatchObject({
      eventType: 'payment_success',
      paymentType: 'bank_transfer',
      payerBank,
      shouldPromptBankAccountLinking,
    });
    expect(await statusRead(consent, token)).toMatchObject({
      status: 'completed',
      payerBank: token ? payerBank : masked,
      shouldPromptBankAccountLinking,
    });
    expect(await originOf(consent)).toEqual({
      paymentMethod: 'bank_transfer',
      shouldPromptBankAccountLinking,
    });
  }

  it("names an anonymous payer's sender on the origin, the status event and the status read (masked: the bank and last four), and offers to link it", async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const sent = await payByTransfer(ctx.app, consent, { from });
    expect(sent.json()).toMatchObject({ success: true, outcome: 'credited' });
    await expectSender(consent, adaezeBank, true);
  });

  /** An account of the payer's own person as a completed payment's `payerBank` names it. */
  const bankOf = (account: {
    bankName: string;
    accountName: string;
    accountNumber: string;
    institutionCode: string;
  }) => ({
    bankName: account.bankName,
    accountName: account.accountName,
    accountNumber: account.accountNumber,
    institutionCode: account.institutionCode,
  });

  it('does not offer to link a sender the signed-in payer has already linked', async () => {
    const { token } = await signUp(ctx.app, testPhone(), adaeze.accountName);
    await linkByTestTransfer(ctx.app, token, 'links_by_test_transfer');
    const linked = await ownAccount(ctx.app, token, 'links_by_test_transfer');
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const sent = await payByTransfer(ctx.app, consent, {
      from: { institutionCode: linked.institutionCode, accountNumber: linked.accountNumber },
      token,
    });
    expect(sent.json()).toMatchObject({ outcome: 'credited' });
    await expectSender(consent, bankOf(linked), false, token);
  });

  it('offers a signed-in payer to link a sender that is not one of their linked accounts', async () => {
    const { token } = await signUp(ctx.app, testPhone(), adaeze.accountName);
    await linkByTestTransfer(ctx.app, token, 'links_by_test_transfer');
    // Another account of the payer's own, not linked.
    const other = await ownAccount(ctx.app, token, 'links_by_auth_params');
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const sent = await payByTransfer(ctx.app, consent, {
      from: { institutionCode: other.institutionCode, accountNumber: other.accountNumber },
      token,
    });
    expect(sent.json()).toMatchObject({ outcome: 'credited' });
    expect(other.bankName).toBe('First Bank of Nigeria');
    await expectSender(consent, bankOf(other), true, token);
  });

  it('leaves the sender unknown without `from`, and offers nothing to link', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    expect((await payByTransfer(ctx.app, consent)).json()).toMatchObject({ outcome: 'credited' });
    await expectSender(consent, null, false);
  });

  it('refuses a sender the sandbox bank does not hold with a 400 naming `from`, crediting nothing', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    // Adaeze's number at another bank: no such test account.
    const refused = await payByTransfer(ctx.app, consent, {
      from: { institutionCode: '044', accountNumber: adaeze.accountNumber },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: 'from: the sandbox bank holds no test account with this number at this bank',
      },
    });
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
    expect(await statusRead(consent)).toMatchObject({ status: 'pending', payerBank: null });

    // The one-time account still takes the right transfer.
    const sent = await payByTransfer(ctx.app, consent, { from });
    expect(sent.json()).toMatchObject({ outcome: 'credited' });
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['transfer_payment']);
    await expectSender(consent, adaezeBank, true);
  });

  it('refuses a malformed `from` with a 400 naming its field', async () => {
    const response = await sandboxTransfer(ctx.app, {
      accountNumber: '1250000009',
      amount: 100,
      from: { institutionCode: adaeze.institutionCode, accountNumber: '12345' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'from.accountNumber: must be 10 digits',
    });
  });

  it('keeps the books balanced', async () => {
    expect(await checkLedger(ctx.database.db)).toMatchObject({
      unbalanced: [],
      balanceMismatches: [],
      paymentsNotBookedOnce: [],
    });
  });
});
