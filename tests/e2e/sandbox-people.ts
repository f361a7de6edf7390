// Fresh payers for browser tests: every spec shares one server, and one BVN belongs to one payer,
// so a spec that verifies a BVN or links an account mints its own person.
import { expect, type APIRequestContext } from '@playwright/test';
import {
  ZSandboxPersonResponse,
  type TSandboxPersonRequest,
} from '../../src/domain/schemas/sandbox';
import type { TMintedPerson } from '../../src/server/testing/sandbox-people';
import { latestCode } from './auth-support';
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

/**
 * A signed-in payer (`authorization`, their bearer) proves a minted person's BVN through the calls
 * the BVN form makes, on the server at `origin`: the registry opens a verification, sends its code
 * the one way the sandbox registry has (SMS to the BVN's registered phone, not the payer's), and
 * the code read there is given back.
 */
export async function verifyBvnByCalls(
  request: APIRequestContext,
  person: TMintedPerson,
  { authorization, origin = E2E.appOrigin }: { authorization: string; origin?: string },
): Promise<void> {
  const headers = { authorization };
  const opened = await request.post(`${origin}/api/identity/bvn`, {
    headers,
    data: { bvn: person.bvn },
  });
  expect(opened.status(), await opened.text()).toBe(200);
  const { methods } = (await opened.json()) as { methods: Array<{ id: string }> };
  expect(methods.map(({ id }) => id)).toEqual(['phone']);
  const sent = await request.post(`${origin}/api/identity/bvn/code`, {
    headers,
    data: { method: 'phone' },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const code = await latestCode(request, person.phoneNumber, origin);
  const verified = await request.post(`${origin}/api/identity/bvn/verify`, {
    headers,
    data: { code },
  });
  expect(verified.status(), await verified.text()).toBe(200);
}
