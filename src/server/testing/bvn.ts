// The payer's BVN for server tests, through the real routes: a person minted in the sandbox's
// BVN registry (one BVN belongs to one payer, so each payer gets a person no test shares), a
// verification opened, the registry's code sent to the BVN's registered phone, and its check.
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { latestCode } from './identity';
import type { TAccountScenario } from '../sandbox/fixtures';
import { mintPerson, personAccount, type TMintedPerson } from './sandbox-people';

export type TSandboxPerson = TMintedPerson;
export { mintPerson };

/** Opens a verification of `bvn` at the registry: the server's answer (its ways, masked). */
export function startBvnVerification(app: FastifyInstance, token: string, bvn: string) {
  return app.inject({
    method: 'POST',
    url: '/api/identity/bvn',
    headers: { authorization: `Bearer ${token}` },
    payload: { bvn },
  });
}

/** Has the registry send the open verification's code by `method`: the server's answer. */
export function sendBvnCodeBy(app: FastifyInstance, token: string, method: string) {
  return app.inject({
    method: 'POST',
    url: '/api/identity/bvn/code',
    headers: { authorization: `Bearer ${token}` },
    payload: { method },
  });
}

/**
 * Opens a verification of `bvn` and has the registry send its code by its first way (the
 * sandbox's one: the BVN's registered phone): the server's last answer.
 */
export async function requestBvnCode(app: FastifyInstance, token: string, bvn: string) {
  const opened = await startBvnVerification(app, token, bvn);
  if (opened.statusCode !== 200) return opened;
  const [method] = opened.json<{ methods: Array<{ id: string }> }>().methods;
  if (!method) throw new Error('The registry offered no way to send the code');
  return sendBvnCodeBy(app, token, method.id);
}

/** Checks a code the BVN's registered phone received: the server's answer. */
export function submitBvnCode(app: FastifyInstance, token: string, code: string) {
  return app.inject({
    method: 'POST',
    url: '/api/identity/bvn/verify',
    headers: { authorization: `Bearer ${token}` },
    payload: { code },
  });
}

/** Verifies `person`'s BVN as the payer of `token`: the code read off its registered phone. */
export async function verifyBvn(
  app: FastifyInstance,
  token: string,
  person: { bvn: string; phoneNumber: string },
): Promise<void> {
  const sent = await requestBvnCode(app, token, person.bvn);
  expect(sent.statusCode, sent.body).toBe(200);
  const verified = await submitBvnCode(app, token, await latestCode(app, person.phoneNumber));
  expect(verified.statusCode, verified.body).toBe(200);
}

/** The payer a token names (its `sub`): tokens of one payer share their person. */
function payerOfToken(token: string): string {
  const [, payload = ''] = token.split('.');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).sub as string;
}

const people = new WeakMap<FastifyInstance, Map<string, Promise<TSandboxPerson>>>();

/**
 * The person whose BVN the payer of `token` verified: minted and verified on first ask, so every
 * account of theirs links and debits as the payer's own.
 */
export function ownPerson(app: FastifyInstance, token: string): Promise<TSandboxPerson> {
  const perApp = people.get(app) ?? new Map<string, Promise<TSandboxPerson>>();
  people.set(app, perApp);
  const payerId = payerOfToken(token);
  let person = perApp.get(payerId);
  if (!person) {
    person = (async () => {
      const minted = await mintPerson(app);
      await verifyBvn(app, token, minted);
      return minted;
    })();
    perApp.set(payerId, person);
  }
  return person;
}

/** The account of `scenario` of the person whose BVN the payer of `token` verified. */
export async function ownAccount(app: FastifyInstance, token: string, scenario: TAccountScenario) {
  return personAccount(await ownPerson(app, token), scenario);
}
