// The operator's authorisation of a payout Monnify holds for the merchant's OTP (`npm run
// payout:authorise`), against the Monnify simulator holding every transfer for its code: a
// payout sent there stays paying; a wrong code is refused and changes nothing; the code Monnify
// sent has it sent, and the reconciler's requery then ends the payout completed. Payouts of
// another provider, ended ones and unknown ids are refused without asking Monnify.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payouts } from '../../db/schema';
import { reconcilePayouts } from '../../services/payments/payouts';
import {
  startMonnifySimulator,
  type TMonnifySimulator,
} from '../../testing/monnify-simulator/monnify-simulator';
import { payoutInFlight, TEST_PAYEE } from '../../testing/payouts-in-flight';
import { createTestClient, startTestApp, testClock } from '../../testing/test-app';
import { usable } from '../off';
import { authoriseMonnifyPayout } from './payout-otp';

const clock = testClock(new Date());
let monnify: TMonnifySimulator;
let ctx: Awaited<ReturnType<typeof startTestApp>>;
let merchantId: string;

beforeAll(async () => {
  monnify = await startMonnifySimulator({ payoutOtp: true });
  ctx = await startTestApp({
    clock,
    env: {
      PAYOUT_PROVIDERS: 'monnify',
      MONNIFY_API_KEY: monnify.apiKey,
      MONNIFY_SECRET_KEY: monnify.secretKey,
      MONNIFY_CONTRACT_CODE: monnify.contractCode,
      MONNIFY_BASE_URL: monnify.url,
      MONNIFY_WALLET_ACCOUNT_NUMBER: monnify.walletAccountNumber,
    },
  });
  ({ merchantId } = await createTestClient(ctx.database));
});
afterAll(async () => {
  await ctx.close();
  await monnify.close();
});

const { bankName: _bank, ...PAYEE } = TEST_PAYEE;
let payoutCount = 0;

/** A payout of 1,000 kobo booked in flight, naming `provider`, as releasing a wallet makes one. */
async function inFlight(provider: string): Promise<string> {
  payoutCount += 1;
  const id = `pout_otp_${payoutCount}_${Date.now()}`;
  await payoutInFlight(ctx.database.db, {
    id,
    merchantId,
    provider,
    amount: 1_000,
    now: clock.now(),
  });
  return id;
}

const statusOf = async (id: string) =>
  (await ctx.database.db.select().from(payouts).where(eq(payouts.id, id)))[0]?.status;

const authorise = (id: string, otp: string) =>
  authoriseMonnifyPayout({ db: ctx.database.db, clock, monnify: ctx.config.monnify }, id, otp);

describe('authorising a payout Monnify holds for its OTP', () => {
  it('refuses a wrong code, sends the payout with the right one, and the requery ends it', async () => {
    const id = await inFlight('monnify');
    const port = usable(ctx.context.providers.payments.payouts);
    expect(port.provider).toBe('monnify');
    // Held for the merchant's OTP: no end yet, asked about by reference later.
    await expect(
      port.payOut({ reference: id, ...PAYEE, amount: 1_000, narration: 'Release' }),
    ).rejects.toThrow(/waits for the merchant's OTP/);
    const code = monnify.disbursementOtp(id);
    expect(code).toMatch(/^\d+$/);

    const wrong = await authorise(id, code === '000000' ? '111111' : '000000');
    expect(wrong).toMatchObject({ kind: 'refused' });
    expect(await port.requeryPayout(id)).toMatchObject({ kind: 'pending' });

    expect(await authorise(id, code ?? '')).toMatchObject({
      kind: 'authorised',
      outcome: { kind: 'taken', amount: 1_000, givenBack: false },
    });
    expect(await statusOf(id)).toBe('paying');
    clock.advance(1_000);
    await reconcilePayouts(ctx.context, 0);
    expect(await statusOf(id)).toBe('completed');
    // Ended: a second authorisation asks Monnify nothing.
    const asked = monnify.requests.length;
    expect(await authorise(id, code ?? '')).toEqual({ kind: 'ended', status: 'completed' });
    expect(monnify.requests.length).toBe(asked);
  });

  it("refuses another provider's payout and an unknown id without asking Monnify", async () => {
    const asked = monnify.requests.length;
    const sandboxPayout = await inFlight('sandbox');
    expect(await authorise(sandboxPayout, '123456')).toEqual({
      kind: 'elsewhere',
      provider: 'sandbox',
    });
    expect(await authorise('pout_nothing', '123456')).toEqual({ kind: 'unknown' });
    expect(monnify.requests.length).toBe(asked);
    // The sandbox's payout is the sandbox's to end: its bank holds no such account, so it fails
    // there and the amount is back in the wallet.
    const sandbox = ctx.context.providers.registry.portOf('sandbox', 'payouts');
    await sandbox.payOut({
      reference: sandboxPayout,
      ...PAYEE,
      amount: 1_000,
      narration: 'Release',
    });
    clock.advance(1_000);
    await reconcilePayouts(ctx.context, 0);
    expect(await statusOf(sandboxPayout)).toBe('failed');
  });

  it('says so when the server runs no Monnify adapter', async () => {
    const id = await inFlight('monnify');
    expect(
      await authoriseMonnifyPayout({ db: ctx.database.db, clock, monnify: null }, id, '123456'),
    ).toEqual({ kind: 'not_configured' });
    // Left paying for the operator: sent and authorised, it completes like any other.
    const port = usable(ctx.context.providers.payments.payouts);
    await port
      .payOut({ reference: id, ...PAYEE, amount: 1_000, narration: 'Release' })
      .catch(() => null);
    await authorise(id, monnify.disbursementOtp(id) ?? '');
    clock.advance(1_000);
    await reconcilePayouts(ctx.context, 0);
    expect(await statusOf(id)).toBe('completed');
  });
});
