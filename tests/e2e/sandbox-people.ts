// Fresh payers for browser tests: every spec shares one server, and one BVN belongs to one payer,
// so a spec that verifies a BVN or links an account mints its own person.
import type { APIRequestContext } from '@playwright/test';
import {
  ZSandboxPersonResponse,
  type TSandboxPersonRequest,
} from '../../src/domain/schemas/sandbox';
import type { TMintedPerson } from '../../src/server/testing/sandbox-people';
import { E2E } from './e2e-env';

export {
  personAccount,
  personCard,
  type TMintedPerson,
} from '../../src/server/testing/sandbox-people';

/**
 * Mints a person on the test server (POST /api/sandbox/people): a new BVN registered to
 * `input.phoneNumber` (any way a Nigerian mobile is written; a fresh number when absent), an
 * account per account scenario and a card per card scenario.
 */
export async function mintPerson(
  request: APIRequestContext,
  input: NonNullable<TSandboxPersonRequest> = {},
): Promise<TMintedPerson> {
  const response = await request.post(`${E2E.appOrigin}/api/sandbox/people`, { data: input });
  if (response.status() !== 200) {
    throw new Error(
      `POST /api/sandbox/people answered ${response.status()}: ${await response.text()}`,
    );
  }
  return ZSandboxPersonResponse.parse(await response.json()).person;
}
