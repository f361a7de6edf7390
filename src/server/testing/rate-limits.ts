// Test support for rate limits: what every refusal of a limit with a window looks like.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { formatErrorMessage } from '../../domain/errors';

/** The catalogue's 429: RATE_LIMITED, its message naming the seconds Retry-After gives. */
export function expectRateLimited(response: LightMyRequestResponse, windowMs: number) {
  expect(response.statusCode).toBe(429);
  const seconds = Number(response.headers['retry-after']);
  expect(Number.isInteger(seconds)).toBe(true);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(windowMs / 1000);
  expect(response.json()).toEqual({
    success: false,
    error: { code: 'RATE_LIMITED', message: formatErrorMessage('RATE_LIMITED', { seconds }) },
  });
  expect(response.json().error.message).toBe(
    `Too many requests. Please try again in ${seconds} seconds.`,
  );
}
