import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { loggerOptions } from '../log-redaction';
import { PROVIDER_SERVES, PROVIDER_SETTINGS, SETTLED_IN } from '../provider-lists';
import { PROVIDERS, SECRET_SETTINGS, SETTINGS_BLOCKS } from './adapters';

// The composition table: what the configuration, the providers' lists and the log read of each
// provider comes from its descriptor, one line of the table each.

describe('the composition table', () => {
  it('names each provider once, and the lists read what each serves and needs from it', () => {
    const names = PROVIDERS.map((provider) => provider.name);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(PROVIDER_SERVES)).toEqual(names);
    for (const provider of PROVIDERS) {
      expect(PROVIDER_SERVES[provider.name]).toEqual(provider.serves);
      expect(PROVIDER_SETTINGS[provider.name]).toEqual(provider.settings?.required ?? []);
      // A payment adapter, an SMS one, or both (the sandbox).
      expect('adapter' in provider || 'sms' in provider).toBe(true);
      expect('sms' in provider).toBe(provider.serves.includes('sms'));
    }
    expect(SETTLED_IN).toEqual({ 'paystack-terminal': 'paystack' });
  });

  it('gives every settings block a place in the configuration, null until its settings are there', () => {
    const config = loadConfig({}) as unknown as Record<string, unknown>;
    for (const settings of SETTINGS_BLOCKS) expect(config[settings.key]).toBeNull();
    const monnify = loadConfig({
      MONNIFY_API_KEY: 'MK_TEST_TABLE000',
      MONNIFY_SECRET_KEY: 'table-secret-0000000000',
      MONNIFY_CONTRACT_CODE: '1234567890',
    }).monnify;
    expect(monnify).toMatchObject({ apiKey: 'MK_TEST_TABLE000', mode: 'test' });
  });

  it("censors every provider's secret settings in the log, wherever a line carries them", () => {
    expect(SECRET_SETTINGS).toEqual(
      expect.arrayContaining([
        'PAYSTACK_SECRET_KEY',
        'MONNIFY_API_KEY',
        'MONNIFY_SECRET_KEY',
        'MONO_SECRET_KEY',
        'REMITA_API_KEY',
        'REMITA_API_TOKEN',
        'TERMII_API_KEY',
        'AFRICASTALKING_API_KEY',
      ]),
    );
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = pino(loggerOptions('info', SECRET_SETTINGS), sink);
    const values = Object.fromEntries(SECRET_SETTINGS.map((name) => [name, `value-of-${name}`]));
    logger.info({ settings: values, ...values, at: { deeper: values } }, 'settings');
    const text = lines.join('');
    expect(text).toContain('[redacted]');
    for (const value of Object.values(values)) expect(text).not.toContain(value);
    expect(text).toContain('MONNIFY_SECRET_KEY');
  });
});
