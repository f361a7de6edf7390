import { describe, expect, it } from 'vitest';
import { PHONE_CODE_MAX_WRONG_TRIES } from '../../domain/schemas/auth';
import { useTestApp } from '../testing/test-app';
import { latestCode, loginWithCode, openDiscovery, sendCode, testPhone } from '../testing/identity';

// The test sends a code a round from one address: the test app's relaxed send limits let it.
const ctx = useTestApp();

const GUESSES = 60;
const ROUNDS = 20;

/** A code that is certainly not the one sent, different for each i. */
const wrongCode = (code: string, i: number) =>
  String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

describe('phone codes under concurrent guessing', () => {
  it(
    `lets ${GUESSES} simultaneous guesses, the right one last, sign in 0 times in ${ROUNDS} rounds`,
    { tags: ['postgres'], timeout: 600_000 },
    async () => {
      let signIns = 0;
      let wrongAnswers = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        const phone = testPhone();
        expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
        const code = await latestCode(ctx.app, phone);
        // Each guess comes from its own address with its own discovery, as from a botnet: the
        // limits per address do not stop it, so the code's own limit must.
        const addresses = Array.from(
          { length: GUESSES },
          (_, i) => `10.${round}.${i >> 8}.${i & 255}`,
        );
        const discoveries = await Promise.all(
          addresses.map((address) => openDiscovery(ctx.app, undefined, address)),
        );
        const answers = await Promise.all(
          discoveries.map((discoveryId, i) =>
            loginWithCode(ctx.app, {
              phone,
              discoveryId,
              remoteAddress: addresses[i],
              code: i === GUESSES - 1 ? code : wrongCode(code, i),
              fullName: 'Bola Ade',
            }),
          ),
        );
        for (const answer of answers) {
          expect(answer.statusCode).toBeLessThan(500);
          if (answer.statusCode === 200) signIns += 1;
          if (answer.json().error?.code === 'PHONE_CODE_INCORRECT') wrongAnswers += 1;
        }
      }
      expect(signIns).toBe(0);
      // Exactly the allowed tries were counted as tries; every other guess was refused unread.
      expect(wrongAnswers).toBe(ROUNDS * (PHONE_CODE_MAX_WRONG_TRIES - 1));
    },
  );
});
