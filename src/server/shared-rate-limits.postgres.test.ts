// @module-tag postgres
// One limit for every process: two real server processes of `src/server/main.ts` on one PostgreSQL
// and one Redis (REDIS_URL), as a deployment behind one address runs them. The codes one address
// may ask for are counted across both: the limit's worth split between them is answered, and the
// next on either is the catalogue's 429 with Retry-After. Without REDIS_URL each would have allowed
// the whole limit. Skipped, with a line saying so, where no Redis answers; PostgreSQL only, as
// PGlite is one process's database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatErrorMessage } from '../domain/errors';
import { DEFAULT_RATE_LIMITS } from './rate-limits';
import { testPhone } from './testing/identity';
import {
  removeTestRedisKeys,
  TEST_REDIS_URL,
  testRedisPrefix,
  testRedisReachable,
} from './testing/redis';
import {
  scratchDatabase,
  startServerProcess,
  stopServerProcess,
  type TServerProcess,
} from './testing/server-process';

const reachable = await testRedisReachable();
const prefix = testRedisPrefix();
const env = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix };
let database: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
const servers: TServerProcess[] = [];

beforeAll(async () => {
  if (reachable) database = await scratchDatabase('test_limits');
});
afterAll(async () => {
  await Promise.all(servers.map((server) => stopServerProcess(server.child)));
  await database?.drop();
  if (reachable) await removeTestRedisKeys(prefix);
});

async function start(): Promise<TServerProcess> {
  const server = await startServerProcess(database?.url ?? '', env);
  servers.push(server);
  return server;
}

const sendCode = (base: string) =>
  fetch(`${base}/api/auth/phone-codes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone: testPhone() }),
  });

async function expectRateLimited(response: Response, windowMs: number) {
  expect(response.status).toBe(429);
  const seconds = Number(response.headers.get('retry-after'));
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(windowMs / 1000);
  expect(await response.json()).toEqual({
    success: false,
    error: { code: 'RATE_LIMITED', message: formatErrorMessage('RATE_LIMITED', { seconds }) },
  });
}

describe.skipIf(!reachable)('two server processes on one PostgreSQL and one Redis', () => {
  it('hold one limit between them: the codes one address asks for are counted across both', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    const { max, windowMs } = DEFAULT_RATE_LIMITS.codeSendsPerAddress;
    // Both see this test as 127.0.0.1: one address, alternating between the servers.
    const answers: number[] = [];
    for (let i = 0; i < max; i += 1) answers.push((await sendCode((i % 2 ? b : a).base)).status);
    expect(answers).toEqual(Array<number>(max).fill(200));

    await expectRateLimited(await sendCode(a.base), windowMs);
    await expectRateLimited(await sendCode(b.base), windowMs);
  }, 600_000);
});
