// Mono Lookup behind the BVN registry port, on the Mono simulator (testing/mono-simulator): the
// port's contract, then what is Mono's own (its key, its refusals, the way it will not offer).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bvnRegistryContract } from '../contract/bvn-registry.contract';
import {
  startMonoSimulator,
  type TMonoSimulator,
} from '../../testing/mono-simulator/mono-simulator';
import { monoBvnRegistry } from './mono-registry';

const PERSON = {
  bvn: '22211133344',
  firstName: 'Ngozi',
  middleName: 'Ada',
  lastName: 'Obi',
  dob: '1991-04-12',
  phone: '08031234567',
  email: 'ngozi.obi@example.com',
  accounts: [
    { nipCode: '000013', bankCode: '058', accountNumber: '0123456789', name: 'NGOZI OBI' },
  ],
};

let simulator: TMonoSimulator;
beforeAll(async () => {
  simulator = await startMonoSimulator({ people: [PERSON] });
});
afterAll(async () => {
  await simulator.close();
});

const registry = () =>
  monoBvnRegistry({ secretKey: simulator.secretKey, baseUrl: simulator.url, timeoutMs: 5_000 });

bvnRegistryContract('mono (simulator)', async () => ({
  provider: registry(),
  knownBvn: PERSON.bvn,
  knownHolder: { fullName: 'Ngozi Ada Obi', dateOfBirth: '1991-04-12' },
  accountUnderBvn: { institutionCode: '058', accountNumber: '0123456789' },
  hiddenContact: PERSON.phone,
  answersAccounts: false,
  codeSent: async () => {
    const sent = simulator.sentCodes.at(-1);
    if (!sent) throw new Error('Mono sent no code');
    return sent.code;
  },
}));

describe('Mono Lookup, its own ways', () => {
  it('sends the key as mono-sec-key and the session as x-session-id, asking the identity scope', async () => {
    const opened = await registry().startVerification(PERSON.bvn);
    expect(simulator.requests.at(-1)).toEqual({
      path: '/v2/lookup/bvn/initiate',
      body: { bvn: PERSON.bvn, scope: 'identity' },
    });
    // The way NIBSS sends to a number the payer types proves the number, not the holder.
    expect(opened?.methods.map((m) => m.id)).toEqual(['phone', 'email']);
    expect(await registry().sendCode(opened!.session, 'email')).toBe('sent');
    expect(simulator.sentCodes.at(-1)).toMatchObject({ method: 'email', to: PERSON.email });
  });

  it('throws on a refused key and on Mono’s own failure, never reading them as an answer', async () => {
    const wrongKey = monoBvnRegistry({ secretKey: 'test_sk_wrong', baseUrl: simulator.url });
    await expect(wrongKey.startVerification(PERSON.bvn)).rejects.toThrow(/MONO_SECRET_KEY/);
    simulator.failNext(503);
    await expect(
      registry().accountOwner({ institutionCode: '058', accountNumber: '0123456789' }),
    ).rejects.toThrow(/HTTP 503/);
  });

  it('refuses a bank its lookup cannot name as not supported, asking and counting nothing', async () => {
    const asked = simulator.requests.length;
    let counted = 0;
    await expect(
      registry().accountOwner({ institutionCode: '999', accountNumber: '0123456789' }, async () => {
        counted += 1;
      }),
    ).rejects.toMatchObject({ code: 'ACCOUNT_NOT_SUPPORTED' });
    expect(simulator.requests.length).toBe(asked);
    // Nothing billed, nothing counted against the payer's lookups.
    expect(counted).toBe(0);
  });

  it('asks the account-number lookup by NIP code', async () => {
    await registry().accountOwner({ institutionCode: '058', accountNumber: '0123456789' });
    expect(simulator.requests.at(-1)).toEqual({
      path: '/v3/lookup/account-number',
      body: { nip_code: '000013', account_number: '0123456789' },
    });
  });
});
