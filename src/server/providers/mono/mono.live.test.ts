// The Mono adapter against Mono itself: what only Mono can confirm of what the simulator plays.
// Opt-in: it runs only where MONO_TEST_SECRET_KEY is set (vitest.config.ts leaves it out
// otherwise, and .ci/run says that it did not run). Each call is a lookup Mono bills, failed ones
// included: it opens one BVN verification (sending no code: that would reach the BVN's holder) and
// makes one account-number lookup, with Mono's sandbox credentials (docs.mono.co "Sandbox") or
// your own, and checks that a wrong key is refused in a way the adapter never reads as an answer.
import { describe, expect, it } from 'vitest';
import { monoBvnRegistry } from './mono-registry';

const secretKey = process.env.MONO_TEST_SECRET_KEY ?? '';
const bvn = process.env.MONO_TEST_BVN ?? '';
const [institutionCode = '', accountNumber = ''] = (process.env.MONO_TEST_ACCOUNT ?? '').split(':');
if (!secretKey) throw new Error('MONO_TEST_SECRET_KEY must hold a Mono secret key');
if (!/^\d{11}$/.test(bvn)) throw new Error('MONO_TEST_BVN must be an 11-digit BVN Mono holds');
if (!institutionCode || !/^\d{10}$/.test(accountNumber)) {
  throw new Error('MONO_TEST_ACCOUNT must be BANKCODE:NUBAN, e.g. 058:0123456789');
}
const baseUrl = process.env.MONO_BASE_URL ?? 'https://api.withmono.com';

describe('Mono Lookup itself', () => {
  it('opens a BVN verification with the ways NIBSS can send its code, hinted', async () => {
    const opened = await monoBvnRegistry({ secretKey, baseUrl }).startVerification(bvn);
    expect(opened?.session).toBeTruthy();
    expect(opened?.methods.length).toBeGreaterThan(0);
    for (const method of opened?.methods ?? []) expect(method.hint).not.toBe('');
  });

  it('answers the BVN an account is held under', async () => {
    const owner = await monoBvnRegistry({ secretKey, baseUrl }).accountOwner({
      institutionCode,
      accountNumber,
    });
    expect(owner === null || /^\d{11}$/.test(owner)).toBe(true);
  });

  it('refuses a wrong key, which the adapter throws rather than read as an answer', async () => {
    const wrong = monoBvnRegistry({ secretKey: `${secretKey}x`, baseUrl });
    await expect(wrong.startVerification(bvn)).rejects.toThrow(/MONO_SECRET_KEY/);
  });
});
