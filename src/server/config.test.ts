// The variables of issue 27 (items 9 and 11): each is read once at start-up, and a bad value
// stops the start with one clear line (README "Configuration").
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('SECRETS_KEY', () => {
  const bytes = randomBytes(32);
  const keyOf = (text: string) => loadConfig({ SECRETS_KEY: text }).secretsKey;

  it('takes 32 bytes as 64 hex digits or in base64 (padded or not, or base64url)', () => {
    expect(keyOf(bytes.toString('hex'))).toEqual(bytes);
    expect(keyOf(bytes.toString('hex').toUpperCase())).toEqual(bytes);
    expect(keyOf(bytes.toString('base64'))).toEqual(bytes);
    expect(keyOf(bytes.toString('base64url'))).toEqual(bytes);
    expect(loadConfig({}).secretsKey).toBeUndefined();
  });

  it('refuses any other length or text with one clear line', () => {
    for (const text of [
      randomBytes(16).toString('hex'),
      randomBytes(31).toString('base64'),
      randomBytes(33).toString('base64'),
      'correct horse battery staple correct horse battery staple!!!!!!',
    ]) {
      expect(() => loadConfig({ SECRETS_KEY: text })).toThrow(
        'Invalid configuration: SECRETS_KEY must be 32 bytes, as 64 hex digits or in base64 (openssl rand -base64 32)',
      );
    }
  });
});

describe('REDIS_URL and REDIS_KEY_PREFIX', () => {
  it('takes redis:// and rediss:// URLs; unset, every process counts alone', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl).toBe(
      'redis://127.0.0.1:6379',
    );
    expect(loadConfig({ REDIS_URL: 'rediss://cache.internal:6380/2' }).redisUrl).toBe(
      'rediss://cache.internal:6380/2',
    );
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({}).redisKeyPrefix).toBe('oya-consent:');
    expect(loadConfig({ REDIS_KEY_PREFIX: 'staging:' }).redisKeyPrefix).toBe('staging:');
  });

  it('refuses another scheme with one clear line', () => {
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(
      'Invalid configuration: REDIS_URL must start with redis:// or rediss://',
    );
  });
});
