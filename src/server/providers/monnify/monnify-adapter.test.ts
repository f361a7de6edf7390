// What the contract suites do not cover of the Monnify adapter, against its simulator: the token
// and its refresh, notices refused for their signature, short and over payments by transfer,
// a lost answer asked about by reference and never repeated, the payout held for the merchant's
// OTP, and the settlement report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import {
  startMonnifySimulator,
  type TMonnifySimulator,
} from '../../testing/monnify-simulator/monnify-simulator';
import { startNoticeReceiver, type TNoticeReceiver } from '../../testing/notice-receiver';
import { openTestDatabase } from '../../testing/test-app';
import { contractReference as reference } from '../contract/contract-references';
import type { TRawNotice } from '../payments';
import { ProviderNoAnswer } from '../provider-call';
import { monnifyProvider, type TMonnifyProvider } from './monnify-provider';

let simulator: TMonnifySimulator;
let receiver: TNoticeReceiver;
let provider: TMonnifyProvider;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
/** The adapter's clock, moved by the token's tests. */
let now = Date.now();
const clock = { now: () => new Date(now) };

const PAID_CARD = { number: '4111111111111111', expiry: '12/35', cvv: '123', pin: '1234' };
const PAYEE = { institutionCode: '058', accountNumber: '0123456789', accountName: 'ADAEZE OKAFOR' };

const providerOn = (sim: TMonnifySimulator) =>
  monnifyProvider({
    apiKey: sim.apiKey,
    secretKey: sim.secretKey,
    contractCode: sim.contractCode,
    baseUrl: sim.url,
    walletAccountNumber: sim.walletAccountNumber,
    db: database.db,
    clock,
    readRetryDelaysMs: [20, 100],
  });

beforeAll(async () => {
  database = await openTestDatabase();
  receiver = await startNoticeReceiver();
  simulator = await startMonnifySimulator({ noticeUrl: receiver.url });
  provider = providerOn(simulator);
});
afterAll(async () => {
  await simulator.close();
  await receiver.close();
  await database.close();
});

const charge = (ref = reference()) =>
  provider.cards.chargeCard({
    reference: ref,
    amount: 250_000,
    narration: 'Order 9',
    card: PAID_CARD,
  });

/** A one-time account paid `paid` kobo for `asked`, and the notice of it as it reached us. */
async function paidTransfer(asked: number, paid: number) {
  const ours = reference();
  const account = await provider.transfersIn.openTransferAccount({
    reference: ours,
    amount: asked,
    accountName: 'Tola Stores',
  });
  const before = receiver.received.length;
  await simulator.payTransfer(account.accountNumber, paid);
  const notice = receiver.received.slice(before).at(-1) as TRawNotice;
  return { ours, notice };
}

describe('the access token', () => {
  it('logs in once for many calls, and again a minute before the token expires', async () => {
    const before = simulator.logins();
    await charge();
    await charge();
    expect(simulator.logins() - before).toBeLessThanOrEqual(1);
    const kept = simulator.logins();
    now += 3_600_000 - 59_000;
    await charge();
    expect(simulator.logins()).toBe(kept + 1);
  });

  it('logs in again once when Monnify answers 401 to a kept token, and the call goes through', async () => {
    await charge();
    const kept = simulator.logins();
    simulator.expireTokens();
    expect(await charge()).toMatchObject({ kind: 'succeeded' });
    expect(simulator.logins()).toBe(kept + 1);
  });

  it('refuses wrong credentials as a configuration fault, never a payer refusal', async () => {
    const wrong = monnifyProvider({
      apiKey: simulator.apiKey,
      secretKey: 'not-the-secret-0000000000000000',
      contractCode: simulator.contractCode,
      baseUrl: simulator.url,
      db: database.db,
      clock,
    });
    await expect(wrong.banks.listBanks()).rejects.toThrow(
      /refused our key \(401\).*MONNIFY_API_KEY and MONNIFY_SECRET_KEY/,
    );
  });
});

describe('notices', () => {
  it('reads nothing signed with another secret, with a signature that is not hex, or with two', async () => {
    const { notice } = await paidTransfer(100_000, 100_000);
    expect(await provider.notices.readNotice(notice)).toMatchObject({ kind: 'transfer_received' });
    const forged = createHmac('sha512', 'another-secret').update(notice.body).digest('hex');
    for (const signature of [forged, 'zz'.repeat(64), [forged, forged]]) {
      expect(
        await provider.notices.readNotice({
          ...notice,
          headers: { 'monnify-signature': signature },
        }),
      ).toBeNull();
    }
  });

  it('names the account a transfer came from, its bank named by the bank list', async () => {
    const { notice } = await paidTransfer(100_000, 100_000);
    expect(await provider.notices.readNotice(notice)).toMatchObject({
      kind: 'transfer_received',
      sender: {
        institutionCode: '058',
        bankName: 'Guaranty Trust Bank',
        accountNumber: '0065432190',
        accountName: 'ADAEZE OKAFOR',
      },
    });
  });

  it('tells a short and an over payment by what arrived, and gives either back whole', async () => {
    for (const paid of [99_000, 100_500]) {
      const { ours, notice } = await paidTransfer(100_000, paid);
      const read = await provider.notices.readNotice(notice);
      expect(read).toMatchObject({
        kind: 'transfer_received',
        reference: ours,
        amount: paid,
        currency: 'NGN',
      });
      if (read?.kind !== 'transfer_received') return;
      await provider.transfersIn.returnTransfer({
        reference: ours,
        providerReference: read.providerReference,
        amount: read.amount,
        currency: read.currency,
        reason: 'wrong_amount',
      });
      const refunds = simulator.requests.filter(
        (r) =>
          r.path === '/api/v1/refunds/initiate-refund' &&
          (r.body as { transactionReference: string }).transactionReference ===
            read.providerReference,
      );
      expect(refunds.map((r) => r.body)).toEqual([
        expect.objectContaining({ refundAmount: paid / 100 }),
      ]);
    }
  });

  it("reads a payout's and a refund's notices as the port's", async () => {
    const ref = reference();
    const before = receiver.received.length;
    await provider.payouts?.payOut({
      reference: ref,
      ...PAYEE,
      amount: 10_000,
      narration: 'Release',
    });
    const paid = await charge();
    if (paid.kind !== 'succeeded') throw new Error('not paid');
    const refundRef = reference();
    await provider.refunds.refund({
      reference: refundRef,
      providerReference: paid.providerReference,
      channel: 'card',
      amount: 1_000,
      sender: null,
      reason: 'Returned goods',
      createdAt: new Date(),
    });
    await simulator.idle();
    const read = await Promise.all(
      receiver.received.slice(before).map((n) => provider.notices.readNotice(n)),
    );
    expect(read).toContainEqual(
      expect.objectContaining({ kind: 'payout', reference: ref, outcome: 'succeeded' }),
    );
    expect(read).toContainEqual({
      kind: 'refunds',
      refunds: [
        { reference: refundRef, outcome: { kind: 'processed', providerReference: refundRef } },
      ],
    });
  });
});

describe('a card whose issuer wants its PIN, charged without it', () => {
  const chargesOf = (transactionReference: string) =>
    simulator.requests.filter(
      (r) =>
        r.path === '/api/v1/merchant/cards/charge' &&
        (r.body as { transactionReference?: string }).transactionReference === transactionReference,
    );

  it('asks the payer for the PIN, then charges the same transaction with it', async () => {
    const card = { ...PAID_CARD, pin: null };
    const asked = await provider.cards.chargeCard({
      reference: reference(),
      amount: 250_000,
      narration: 'Order 10',
      card,
    });
    expect(asked).toMatchObject({
      kind: 'pin_required',
      card: { brand: 'visa', first6: '411111', last4: '1111' },
    });
    if (asked.kind !== 'pin_required') throw new Error('expected the PIN asked for');
    const paid = await provider.cards.submitCardPin({
      providerReference: asked.providerReference,
      pin: '1234',
      card,
    });
    expect(paid).toMatchObject({ kind: 'succeeded', providerReference: asked.providerReference });
    // Two charges of one transaction: without the PIN (refused, left open), then with it.
    const sent = chargesOf(asked.providerReference).map(
      (r) => (r.body as { card: { pin?: string } }).card.pin ?? null,
    );
    expect(sent).toEqual([null, '1234']);
  });

  it("refuses a wrong PIN given when asked as the payer's wrong PIN", async () => {
    const card = { ...PAID_CARD, pin: null };
    const asked = await provider.cards.chargeCard({
      reference: reference(),
      amount: 250_000,
      narration: 'Order 11',
      card,
    });
    if (asked.kind !== 'pin_required') throw new Error('expected the PIN asked for');
    expect(
      await provider.cards.submitCardPin({
        providerReference: asked.providerReference,
        pin: '9999',
        card,
      }),
    ).toMatchObject({ kind: 'failed', reason: 'incorrect_pin' });
  });
});

describe('a lost answer', () => {
  it('asks about a card charge by reference and never charges it again', async () => {
    simulator.loseNextAnswer('/api/v1/merchant/cards/charge');
    const before = simulator.requests.filter(
      (r) => r.path === '/api/v1/merchant/cards/charge',
    ).length;
    expect(await charge()).toMatchObject({ kind: 'succeeded' });
    const after = simulator.requests.filter(
      (r) => r.path === '/api/v1/merchant/cards/charge',
    ).length;
    expect(after - before).toBe(1);
  });

  it('asks about a payout by reference and never sends it again', async () => {
    const ref = reference();
    simulator.loseNextAnswer('/api/v2/disbursements/single');
    expect(
      await provider.payouts?.payOut({
        reference: ref,
        ...PAYEE,
        amount: 20_000,
        narration: 'Release',
      }),
    ).toMatchObject({ kind: 'succeeded' });
    expect(
      simulator.requests.filter(
        (r) =>
          r.path === '/api/v2/disbursements/single' &&
          (r.body as { reference: string }).reference === ref,
      ),
    ).toHaveLength(1);
  });

  it('throws no answer, unsent again, when Monnify fails a charge with a 5xx', async () => {
    simulator.failNext('/api/v1/merchant/cards/charge', 503);
    await expect(charge()).rejects.toBeInstanceOf(ProviderNoAnswer);
  });
});

describe('a payout Monnify holds for the merchant OTP', () => {
  it('is pending, never sent again, until the operator gives the OTP; then paid', async () => {
    const held = await startMonnifySimulator({ payoutOtp: true });
    try {
      const monnify = providerOn(held);
      const ref = reference();
      const request = { reference: ref, ...PAYEE, amount: 30_000, narration: 'Release' };
      await expect(monnify.payouts?.payOut(request)).rejects.toThrow(/merchant's OTP/);
      await expect(monnify.payouts?.payOut(request)).rejects.toThrow(/merchant's OTP/);
      expect(held.requests.filter((r) => r.path === '/api/v2/disbursements/single')).toHaveLength(
        1,
      );
      expect(await monnify.payouts?.requeryPayout(ref)).toMatchObject({ kind: 'pending' });
      const otp = held.disbursementOtp(ref) ?? '';
      expect(await monnify.authorisePayout({ reference: ref, otp })).toMatchObject({
        kind: 'taken',
        amount: 30_000,
      });
    } finally {
      await held.close();
    }
  });
});

describe('the settlement report', () => {
  it("lists card charges, a merchant's refunds and payouts by our reference; a charge given back whole nets to nothing", async () => {
    const kept = reference();
    const back = reference();
    const paid = await charge(kept);
    const returned = await charge(back);
    if (paid.kind !== 'succeeded' || returned.kind !== 'succeeded') throw new Error('not paid');
    const refundRef = reference();
    await provider.refunds.refund({
      reference: refundRef,
      providerReference: paid.providerReference,
      channel: 'card',
      amount: 50_000,
      sender: null,
      reason: 'Part',
      createdAt: new Date(),
    });
    await provider.cards.refundCard({
      providerReference: returned.providerReference,
      amount: 250_000,
      reference: back,
    });
    const payout = reference();
    await provider.payouts?.payOut({
      reference: payout,
      ...PAYEE,
      amount: 40_000,
      narration: 'Release',
    });
    const lines = await provider.settlement.settlementReport();
    const of = (ref: string) => lines.filter((line) => line.reference === ref);
    expect(of(kept)).toEqual([
      { channel: 'card', reference: kept, amount: 250_000, givenBack: false },
    ]);
    expect(of(back)).toEqual([
      { channel: 'card', reference: back, amount: 250_000, givenBack: true },
    ]);
    expect(of(refundRef)).toEqual([
      { channel: 'refund', reference: refundRef, amount: 50_000, givenBack: false },
    ]);
    expect(of(payout)).toEqual([
      { channel: 'payout', reference: payout, amount: 40_000, givenBack: false },
    ]);
    expect(lines.filter((line) => line.reference.startsWith('gb-'))).toEqual([]);
  });
});
