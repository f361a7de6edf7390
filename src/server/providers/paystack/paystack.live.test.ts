// The Paystack adapter against Paystack's own test mode (api.paystack.co with a sk_test_ key): the
// calls whose shape only Paystack can confirm, with its published test cards. Opt-in: it runs
// only where PAYSTACK_TEST_SECRET_KEY is set (vitest.config.ts leaves it out otherwise, and
// .ci/run says that it did not run). Nothing here needs a person: the 3-D Secure page and a
// transfer into a one-time account are left to the simulator's tests.
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock';
import { openTestDatabase } from '../../testing/test-app';
import { paystackProvider } from './paystack-provider';

const secretKey = process.env.PAYSTACK_TEST_SECRET_KEY ?? '';
if (!secretKey.startsWith('sk_test_')) {
  throw new Error('PAYSTACK_TEST_SECRET_KEY must be a Paystack test key (sk_test_…)');
}

const database = await openTestDatabase();
afterAll(() => database.close());

const provider = paystackProvider({
  secretKey,
  baseUrl: process.env.PAYSTACK_BASE_URL ?? 'https://api.paystack.co',
  db: database.db,
  clock: systemClock,
});

const reference = (what: string) => `att_live_${what}_${Date.now().toString(36)}`;
const card = (number: string, cvv: string, pin: string | null) => ({
  number,
  expiry: '12/30',
  cvv,
  pin,
});

describe("Paystack's test mode", () => {
  it('lists the Nigerian banks, GTBank among them', async () => {
    const banks = await provider.banks.listBanks();
    expect(banks.map((bank) => bank.institutionCode)).toContain('058');
  });

  it('charges the test card that asks no step, and a requery by our reference says taken', async () => {
    const ours = reference('paid');
    const outcome = await provider.cards.chargeCard({
      reference: ours,
      amount: 10_000,
      narration: 'Live check',
      card: card('4084084084084081', '408', null),
    });
    expect(outcome).toMatchObject({ kind: 'succeeded', card: { last4: '4081' } });
    expect(await provider.cards.requeryCardCharge(ours)).toMatchObject({
      kind: 'taken',
      amount: 10_000,
      givenBack: false,
    });
    // Part of it given back: Paystack takes the refund (pending or processed at once).
    const refund = await provider.refunds.refund({
      reference: reference('refund'),
      providerReference: outcome.kind === 'succeeded' ? outcome.providerReference : '',
      channel: 'card',
      amount: 5_000,
      sender: null,
      reason: 'Live check',
      createdAt: new Date(),
    });
    expect(refund.kind).not.toBe('failed');
  });

  it('asks the Verve test card for its OTP after the PIN, and the OTP completes it', async () => {
    const asked = await provider.cards.chargeCard({
      reference: reference('otp'),
      amount: 10_000,
      narration: 'Live check',
      card: card('507850785078507812', '081', '1111'),
    });
    expect(asked).toMatchObject({ kind: 'otp_required' });
    if (asked.kind !== 'otp_required') return;
    expect(
      await provider.cards.submitCardOtp({
        providerReference: asked.providerReference,
        otp: '123456',
      }),
    ).toMatchObject({ kind: 'succeeded' });
  });

  it('fails the declined test card as declined, and a requery says not taken', async () => {
    const ours = reference('declined');
    expect(
      await provider.cards.chargeCard({
        reference: ours,
        amount: 10_000,
        narration: 'Live check',
        card: card('4084080000005408', '001', null),
      }),
    ).toMatchObject({ kind: 'failed', reason: 'declined' });
    expect(await provider.cards.requeryCardCharge(ours)).toMatchObject({ kind: 'not_taken' });
  });
});
