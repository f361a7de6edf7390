import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock';
import { openTestDatabase } from '../../testing/test-app';
import { startNoticeReceiver, type TNoticeReceiver } from '../../testing/notice-receiver';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../testing/paystack-simulator/paystack-simulator';
import { contractReference as reference } from '../contract/contract-references';
import type { TPlainCard } from '../payments';
import { ProviderKeyRefused, ProviderNoAnswer } from '../provider-call';
import {
  PAYSTACK_PAYER_EMAIL,
  paystackProvider,
  type TPaystackProvider,
} from './paystack-provider';
import { toPaystackReference } from './paystack-references';

// What the Paystack adapter does beyond the port's contract, against the Paystack simulator: how
// its calls look, what it does when an answer is lost or refused, the steps the spec's screens
// cannot take, and its notices.

let simulator: TPaystackSimulator;
let receiver: TNoticeReceiver;
let provider: TPaystackProvider;
let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  database = await openTestDatabase();
  receiver = await startNoticeReceiver();
  simulator = await startPaystackSimulator({ noticeUrl: receiver.url });
  provider = paystackProvider({
    secretKey: simulator.secretKey,
    baseUrl: simulator.url,
    db: database.db,
    clock: systemClock,
    pendingCheckDelaysMs: [20, 200, 1_000],
    readRetryDelaysMs: [20, 200],
  });
});
afterAll(async () => {
  await simulator.close();
  await receiver.close();
  await database.close();
});

const card = (number: string, pin: string | null = null): TPlainCard => ({
  number,
  expiry: '12/35',
  cvv: '408',
  pin,
});
const SUCCEEDS = card('4084084084084081');
const charge = (ref: string, paid = SUCCEEDS) =>
  provider.cards.chargeCard({ reference: ref, amount: 250_000, narration: 'Order 30', card: paid });
const requestsTo = (method: string, path: string) =>
  simulator.requests.filter((r) => r.method === method && r.path.startsWith(path));
/** The notices received since `before`, of one event, read as JSON. */
const noticesOf = (event: string, before: number) =>
  receiver.received.slice(before).filter((raw) => raw.body.toString().includes(`"${event}"`));

describe('Paystack calls', () => {
  it('carry the secret key as a Bearer token, our reference in Paystack’s characters, kobo and the payers’ email', async () => {
    const ref = reference();
    expect(await charge(ref)).toMatchObject({ kind: 'succeeded' });
    const [sent] = requestsTo('POST', '/charge').filter(
      (r) => (r.body as { reference?: string }).reference === toPaystackReference(ref),
    );
    expect(sent).toMatchObject({
      authorized: true,
      body: { amount: 250_000, email: PAYSTACK_PAYER_EMAIL, reference: toPaystackReference(ref) },
    });
  });

  it('stop at a key Paystack refuses, never reading it as a decline', async () => {
    const wrongKey = paystackProvider({
      secretKey: 'sk_test_notthekey',
      baseUrl: simulator.url,
      db: database.db,
      clock: systemClock,
    });
    await expect(
      wrongKey.cards.chargeCard({
        reference: reference(),
        amount: 100,
        narration: 'x',
        card: SUCCEEDS,
      }),
    ).rejects.toBeInstanceOf(ProviderKeyRefused);
  });
});

describe('A lost answer', () => {
  it('of a charge Paystack made is asked about by reference, and the charge is not made again', async () => {
    const ref = reference();
    simulator.loseNextAnswer('/charge');
    expect(await charge(ref)).toMatchObject({
      kind: 'succeeded',
      providerReference: toPaystackReference(ref),
    });
    const ours = (r: { body: unknown }) =>
      (r.body as { reference?: string }).reference === toPaystackReference(ref);
    expect(requestsTo('POST', '/charge').filter(ours)).toHaveLength(1);
    expect(requestsTo('GET', `/charge/${toPaystackReference(ref)}`)).toHaveLength(1);
  });

  it('of a charge Paystack never made is left unknown (thrown), then closed by the requery: never charged under it again', async () => {
    const ref = reference();
    simulator.failNext('/charge', 503);
    await expect(charge(ref)).rejects.toBeInstanceOf(ProviderNoAnswer);
    expect(await provider.cards.requeryCardCharge(ref)).toMatchObject({ kind: 'not_taken' });
    expect(await charge(ref)).toMatchObject({ kind: 'failed', reason: 'expired' });
    const ours = (r: { body: unknown }) =>
      (r.body as { reference?: string }).reference === toPaystackReference(ref);
    // The 503 one only: no second charge with that reference, or with another for it.
    expect(requestsTo('POST', '/charge').filter(ours)).toHaveLength(1);
  });

  it('of an OTP is asked about by reference: the charge it completed is answered', async () => {
    const waiting = await charge(reference(), card('507850785078507812', '1111'));
    if (waiting.kind !== 'otp_required') throw new Error(waiting.kind);
    simulator.loseNextAnswer('/charge/submit_otp');
    expect(
      await provider.cards.submitCardOtp({
        providerReference: waiting.providerReference,
        otp: '123456',
      }),
    ).toMatchObject({ kind: 'succeeded', providerReference: waiting.providerReference });
  });

  it('of a read is asked again: a requery outlives a 503', async () => {
    const ref = reference();
    await charge(ref);
    simulator.failNext('/transaction/verify', 503);
    expect(await provider.cards.requeryCardCharge(ref)).toMatchObject({ kind: 'taken' });
    expect(requestsTo('GET', `/transaction/verify/${toPaystackReference(ref)}`)).toHaveLength(2);
  });

  it('is what a 429 is: a name enquiry is asked again, never read as no such account', async () => {
    simulator.failNext('/bank/resolve', 429);
    expect(
      await provider.banks.nameEnquiry({ institutionCode: '058', accountNumber: '0123456789' }),
    ).toMatchObject({ accountName: 'ADAEZE OKAFOR' });
  });

  it('is what a 429 is: a charge refused for too many requests is asked about, never read as declined', async () => {
    const ref = reference();
    simulator.failNext('/charge', 429);
    // Paystack took nothing: the charge is unknown (thrown), and its requery then closes it.
    await expect(charge(ref)).rejects.toBeInstanceOf(ProviderNoAnswer);
    expect(await provider.cards.requeryCardCharge(ref)).toMatchObject({ kind: 'not_taken' });
  });
});

describe('Steps the spec’s screens cannot take', () => {
  it.each([
    ['a phone number', card('507850785078507804', '0000')],
    ['a birthday', card('5399830000000008')],
  ])(
    'refuse a card whose issuer asks for %s (the OTP screen takes six digits)',
    async (_step, asking) => {
      expect(await charge(reference(), asking)).toMatchObject({
        kind: 'failed',
        reason: 'declined',
      });
    },
  );
});

describe('Paystack’s notices', () => {
  it('read a card charge taken, a merchant’s refund ended, and a payout paid, each by our reference', async () => {
    const before = receiver.received.length;
    const ref = reference();
    const paid = await charge(ref);
    if (paid.kind !== 'succeeded') throw new Error(paid.kind);
    const refundRef = reference();
    await provider.refunds.refund({
      reference: refundRef,
      providerReference: paid.providerReference,
      channel: 'card',
      amount: 100_000,
      sender: null,
      reason: null,
      createdAt: new Date(),
    });
    const payoutRef = reference();
    await provider.payouts.payOut({
      reference: payoutRef,
      institutionCode: '058',
      accountNumber: '0123456789',
      accountName: 'ADAEZE OKAFOR',
      amount: 50_000,
      narration: 'Release',
    });
    await simulator.idle();

    const [charged] = noticesOf('charge.success', before);
    expect(charged && (await provider.notices.readNotice(charged))).toEqual({
      kind: 'charge',
      channel: 'card',
      reference: ref,
      currency: 'NGN',
      outcome: {
        kind: 'taken',
        providerReference: paid.providerReference,
        amount: 250_000,
        givenBack: false,
        // The card as the charge's own answer named it, and its reusable authorization.
        card: paid.card,
        token: paid.token,
      },
    });
    expect(paid.token).toMatch(/^AUTH_/);
    const [processed] = noticesOf('refund.processed', before);
    expect(processed && (await provider.notices.readNotice(processed))).toEqual({
      kind: 'refunds',
      refunds: [
        {
          reference: refundRef,
          outcome: { kind: 'processed', providerReference: expect.any(String) },
        },
      ],
    });
    const [transferred] = noticesOf('transfer.success', before);
    expect(transferred && (await provider.notices.readNotice(transferred))).toEqual({
      kind: 'payout',
      reference: payoutRef,
      outcome: 'succeeded',
      providerReference: expect.stringMatching(/^TRF_/),
    });
  });

  it('acknowledge money we gave back, and events we do not act on, as nothing to do', async () => {
    const before = receiver.received.length;
    const ref = reference();
    const paid = await charge(ref);
    if (paid.kind !== 'succeeded') throw new Error(paid.kind);
    await provider.cards.refundCard({
      providerReference: paid.providerReference,
      amount: 250_000,
      reference: ref,
    });
    await simulator.idle();
    const [processed] = noticesOf('refund.processed', before);
    expect(processed && (await provider.notices.readNotice(processed))).toEqual({
      kind: 'ignored',
      event: 'refund.processed',
    });
    const [pending] = noticesOf('refund.pending', before);
    expect(pending && (await provider.notices.readNotice(pending))).toEqual({
      kind: 'ignored',
      event: 'refund.pending',
    });
  });
});
