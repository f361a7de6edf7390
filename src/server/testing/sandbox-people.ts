// Fresh payers for server tests: one BVN belongs to one payer, so a test that verifies a BVN or
// links an account mints its own person rather than sharing a fixture person with other tests.
import type { FastifyInstance } from 'fastify';
import {
  ZSandboxPersonResponse,
  type TSandboxPersonDetails,
  type TSandboxPersonRequest,
} from '../../domain/schemas/sandbox';
import type { TAccountScenario, TCardScenario } from '../sandbox/fixtures';

export type TMintedPerson = TSandboxPersonDetails;

/**
 * Mints a person through POST /api/sandbox/people on `app` (a sandbox app): a new BVN registered
 * to `input.phoneNumber` (any way a Nigerian mobile is written; a fresh number when absent), an
 * account per account scenario and a card per card scenario.
 */
export async function mintPerson(
  app: FastifyInstance,
  input: NonNullable<TSandboxPersonRequest> = {},
): Promise<TMintedPerson> {
  const response = await app.inject({ method: 'POST', url: '/api/sandbox/people', payload: input });
  if (response.statusCode !== 200) {
    throw new Error(`POST /api/sandbox/people answered ${response.statusCode}: ${response.body}`);
  }
  return ZSandboxPersonResponse.parse(response.json()).person;
}

/** The person's account of a scenario (e.g. 'links_by_test_transfer'). */
export function personAccount(person: TMintedPerson, scenario: TAccountScenario) {
  const account = person.accounts.find((a) => a.scenario === scenario);
  if (!account) throw new Error(`${person.fullName} has no ${scenario} account`);
  return account;
}

/** The person's card of a scenario (e.g. 'pin_only'), with the account it is issued on. */
export function personCard(person: TMintedPerson, scenario: TCardScenario) {
  const card = person.cards.find((c) => c.scenario === scenario);
  if (!card) throw new Error(`${person.fullName} has no ${scenario} card`);
  return card;
}
