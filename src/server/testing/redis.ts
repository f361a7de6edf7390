import { randomBytes } from 'node:crypto';

import { Redis } from 'ioredis';
import { accepts } from './sockets';

/*
 * The Redis the tests of shared rate limits count in: REDIS_URL, or the one these machines run on
 * 127.0.0.1:6379. Where none answers, those tests are skipped with a line that says so on a
 * developer's machine; under CI=true, where a Redis is part of the machine, they fail with that
 * line instead, so a run without one never passes as if they had. Each test run writes under a
 * key prefix of its own, so runs side by side never meet each other's counters, and removes its
 * keys at the end.
 */

export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether something accepts TCP connections where the URL points. */
function answers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return accepts(hostname, Number(port || 6379));
}

/**
 * Whether the tests' Redis answers; when not, says once that the Redis tests did not run, or
 * under CI=true throws that line (the test file fails).
 */
export async function testRedisReachable(
  url = TEST_REDIS_URL,
  ci = process.env.CI === 'true',
): Promise<boolean> {
  const reachable = await answers(url);
  if (!reachable && ci) {
    throw new Error(
      `Redis is not reachable at ${url}: under CI=true the tests of rate limits shared through Redis must run (start Redis, or set REDIS_URL).`,
    );
  }
  if (!reachable) {
    console.warn(
      `Redis is not reachable at ${url}: the tests of rate limits shared through Redis did not run (they run wherever a Redis answers).`,
    );
  }
  return reachable;
}

/** A key prefix no other test run uses. */
export const testRedisPrefix = () => `oya-test:${randomBytes(6).toString('hex')}:`;

async function withClient<T>(work: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis(TEST_REDIS_URL, { lazyConnect: true });
  await client.connect();
  try {
    return await work(client);
  } finally {
    client.disconnect();
  }
}

/** The keys under the prefix, sorted. */
export const testRedisKeys = (prefix: string): Promise<string[]> =>
  withClient(async (client) => (await client.keys(`${prefix}*`)).sort());

/** Removes every key under the prefix. */
export async function removeTestRedisKeys(prefix: string): Promise<void> {
  await withClient(async (client) => {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
  });
}
