// The Monnify adapter against Monnify's own sandbox (sandbox.monnify.com with its test keys): the
// calls whose shape only Monnify can confirm, with its published test cards. Opt-in: it runs only
// where MONNIFY_TEST_API_KEY is set (vitest.config.ts leaves it out otherwise, and .ci/run says
// that it did not run). Nothing here needs a person: the 3-D Secure page and a transfer into a
// one-time account are left to the simulator's tests.
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock';
import { openTestDatabase } from '../../testing/test-app';
import { monnifyProvider } from './monnify-provider';

const apiKey = process.env.MONNIFY_TEST_API_KEY ?? '';
const secretKey = process.env.MONNIFY_TEST_SECRET_KEY ?? '';
const contractCode = process.env.MONNIFY_TEST_CONTRACT_CODE ?? '';
if (!apiKey.startsWith('MK_TEST_') || !secretKey || !contractCode) {
  throw new Error(
    'MONNIFY_TEST_API_KEY (MK_TEST_…), MONNIFY_TEST_SECRET_KEY and MONNIFY_TEST_CONTRACT_CODE must hold the keys of a Monnify sandbox integration',
  );
}

const database = await openTestDatabase();
afterAll(() => database.close());

const provider = monnifyProvider({
  apiKey,
  secretKey,
  contractCode,
  baseUrl: process.env.MONNIFY_BASE_URL ?? 'https://sandbox.monnify.com',
  db: database.db,
  clock: systemClock,
});

const reference = (what: string) => `att_live_${what}_${Date.now().toString(36)}`;
const card = (number: string, pin: string | null) => ({ number, expiry: '12/30', cvv: '123', pin });

describe("Monnify's sandbox", () => {
  it('lists the Nigerian banks, GTBank among them', async () => {
    const banks = await provider.banks.listBanks();
    expect(banks.map((bank) => bank.institutionCode)).toContain('058');
  });

  it('opens a one-time account for a transfer, the same one when asked again', async () => {
    const request = { reference: reference('transfer'), amount: 10_000, accountName: 'Live check' };
    const account = await provider.transfersIn.openTransferAccount(request);
    expect(account.accountNumber).toMatch(/^\d{10}$/);
    expect(account.expiresAt.getTime()).toBeGreaterThan(Date.now());
    expect(await provider.transfersIn.openTransferAccount(request)).toEqual(account);
  });

  it('charges the test card that asks no step, and a requery by our reference says taken', async () => {
    const ours = reference('paid');
    const outcome = await provider.cards.chargeCard({
      reference: ours,
      amount: 10_000,
      narration: 'Live check',
      card: card('4111111111111111', '1234'),
    });
    expect(outcome).toMatchObject({ kind: 'succeeded', card: { last4: '1111' } });
    expect(await provider.cards.requeryCardCharge(ours)).toMatchObject({
      kind: 'taken',
      amount: 10_000,
      givenBack: false,
    });
    // Part of it given back: Monnify takes the refund (in progress or completed at once).
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

  it('asks the OTP test card for its OTP', async () => {
    expect(
      await provider.cards.chargeCard({
        reference: reference('otp'),
        amount: 10_000,
        narration: 'Live check',
        card: card('5060995994247093', '1234'),
      }),
    ).toMatchObject({ kind: 'otp_required' });
  });

  it('raises 3-D Secure for its test card charged without a PIN', async () => {
    expect(
      await provider.cards.chargeCard({
        reference: reference('3ds'),
        amount: 10_000,
        narration: 'Live check',
        card: card('4000000000000002', null),
      }),
    ).toMatchObject({ kind: 'three_ds_required', challengeUrl: expect.stringMatching(/^https:/) });
  });

  it('fails the failing test card, and a requery says not taken', async () => {
    const ours = reference('declined');
    expect(
      await provider.cards.chargeCard({
        reference: ours,
        amount: 10_000,
        narration: 'Live check',
        card: card('4111111111111110', '1234'),
      }),
    ).toMatchObject({ kind: 'failed' });
    expect(await provider.cards.requeryCardCharge(ours)).toMatchObject({ kind: 'not_taken' });
  });
});
