// The variables the server reads at start-up (README "Configuration"): each is read once, and a bad
// value stops the start with one clear line.
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

describe('DATABASE_POOL_URL', () => {
  it("is the request pool's address beside DATABASE_URL, never alone", () => {
    const direct = 'postgres://app@db.internal:5432/consent';
    const pooled = 'postgres://app@pgbouncer.internal:6432/consent';
    expect(loadConfig({ DATABASE_URL: direct, DATABASE_POOL_URL: pooled })).toMatchObject({
      databaseUrl: direct,
      databasePoolUrl: pooled,
    });
    expect(loadConfig({ DATABASE_URL: direct }).databasePoolUrl).toBeUndefined();
    expect(() => loadConfig({ DATABASE_POOL_URL: pooled })).toThrow(
      'Invalid configuration: DATABASE_POOL_URL needs DATABASE_URL',
    );
    expect(() =>
      loadConfig({ DATABASE_URL: direct, DATABASE_POOL_URL: 'mysql://pgbouncer:6432/consent' }),
    ).toThrow('Invalid configuration: DATABASE_POOL_URL must start with postgres://');
  });
});

describe('PAYMENT_PROVIDER and Paystack', () => {
  it('moves money on the sandbox network unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ paymentProvider: 'sandbox', paystack: null });
    // A key with the sandbox chosen builds Paystack's adapter standing by: the rows it took
    // still reach it, and no new work goes to it.
    const standing = loadConfig({ PAYSTACK_SECRET_KEY: 'sk_test_abc' });
    expect(standing.paystack).toMatchObject({ mode: 'test' });
    expect(standing.providerLists.cards).toEqual(['sandbox']);
    expect(standing.providerLists.notices).toEqual(['sandbox', 'paystack']);
  });

  it("takes Paystack with a test or a live secret key, at Paystack's API unless another is named", () => {
    expect(
      loadConfig({ PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: 'sk_test_abc123' }),
    ).toMatchObject({
      paymentProvider: 'paystack',
      paystack: {
        secretKey: 'sk_test_abc123',
        mode: 'test',
        baseUrl: 'https://api.paystack.co',
        pendingCheckDelaysMs: [10_000, 20_000],
      },
    });
    expect(
      loadConfig({
        PAYMENT_PROVIDER: 'paystack',
        PAYSTACK_SECRET_KEY: 'sk_live_abc123',
        PAYSTACK_BASE_URL: 'http://127.0.0.1:4010/',
        PAYSTACK_PENDING_CHECKS_MS: '20,200',
      }).paystack,
    ).toEqual({
      secretKey: 'sk_live_abc123',
      mode: 'live',
      baseUrl: 'http://127.0.0.1:4010',
      pendingCheckDelaysMs: [20, 200],
    });
  });

  it('refuses Paystack without a key, a key that is not a secret key, and a base URL that is not one, with one line that shows no key', () => {
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'paystack' })).toThrow(
      'Invalid configuration: PAYSTACK_SECRET_KEY is required with PAYMENT_PROVIDER=paystack',
    );
    for (const key of ['pk_test_abc123', 'sk_prod_abc123', 'sk_test_', 'abc']) {
      const refusal = () => loadConfig({ PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: key });
      expect(refusal).toThrow(
        /^Invalid configuration: PAYSTACK_SECRET_KEY must be a Paystack secret key, sk_test_… or sk_live_…$/,
      );
    }
    expect(() =>
      loadConfig({
        PAYMENT_PROVIDER: 'paystack',
        PAYSTACK_SECRET_KEY: 'sk_test_abc',
        PAYSTACK_BASE_URL: 'api.paystack.co',
      }),
    ).toThrow(/^Invalid configuration: PAYSTACK_BASE_URL /);
    for (const pauses of ['10s', '10000,', '-1', '10000;20000']) {
      expect(() =>
        loadConfig({
          PAYMENT_PROVIDER: 'paystack',
          PAYSTACK_SECRET_KEY: 'sk_test_abc',
          PAYSTACK_PENDING_CHECKS_MS: pauses,
        }),
      ).toThrow(
        /^Invalid configuration: PAYSTACK_PENDING_CHECKS_MS must be pauses in ms, comma-separated, e\.g\. 10000,20000$/,
      );
    }
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'stripe' })).toThrow(
      /^Invalid configuration: PAYMENT_PROVIDER /,
    );
  });
});

describe('Monnify', () => {
  const monnify = {
    MONNIFY_API_KEY: 'MK_TEST_SAF7HR5F3F',
    MONNIFY_SECRET_KEY: 'secret-that-must-not-show-4SY6TNL8CK3VPRSBTHTRG2N8XXEGC6NL',
    MONNIFY_CONTRACT_CODE: '7059707855',
  };

  it("is off without its keys, and with all three is on at Monnify's live host unless another is named", () => {
    expect(loadConfig({}).monnify).toBeNull();
    expect(loadConfig(monnify).monnify).toEqual({
      apiKey: 'MK_TEST_SAF7HR5F3F',
      secretKey: monnify.MONNIFY_SECRET_KEY,
      contractCode: '7059707855',
      mode: 'test',
      baseUrl: 'https://api.monnify.com',
      walletAccountNumber: null,
    });
    expect(
      loadConfig({
        ...monnify,
        MONNIFY_API_KEY: 'MK_PROD_ABC123',
        MONNIFY_BASE_URL: 'https://sandbox.monnify.com/',
        MONNIFY_WALLET_ACCOUNT_NUMBER: '8016472829',
      }).monnify,
    ).toMatchObject({
      mode: 'live',
      baseUrl: 'https://sandbox.monnify.com',
      walletAccountNumber: '8016472829',
    });
  });

  it('refuses one or two of the three keys, naming those missing, in one line that shows no key', () => {
    for (const name of Object.keys(monnify) as Array<keyof typeof monnify>) {
      const refusal = () => loadConfig({ ...monnify, [name]: undefined });
      expect(refusal).toThrow(
        new RegExp(
          `^Invalid configuration: Monnify needs MONNIFY_API_KEY, MONNIFY_SECRET_KEY and MONNIFY_CONTRACT_CODE together; missing ${name}$`,
        ),
      );
      expect(refusal).not.toThrow(/secret-that-must-not-show/);
    }
    expect(() => loadConfig({ MONNIFY_SECRET_KEY: monnify.MONNIFY_SECRET_KEY })).toThrow(
      /missing MONNIFY_API_KEY, MONNIFY_CONTRACT_CODE$/,
    );
  });

  it('refuses a key, contract code, host or wallet that is not one', () => {
    expect(() => loadConfig({ ...monnify, MONNIFY_API_KEY: 'sk_test_abc' })).toThrow(
      /^Invalid configuration: MONNIFY_API_KEY must be a Monnify API key/,
    );
    expect(() => loadConfig({ ...monnify, MONNIFY_CONTRACT_CODE: 'ABC' })).toThrow(
      /^Invalid configuration: MONNIFY_CONTRACT_CODE /,
    );
    expect(() => loadConfig({ ...monnify, MONNIFY_BASE_URL: 'sandbox.monnify.com' })).toThrow(
      /^Invalid configuration: MONNIFY_BASE_URL /,
    );
    expect(() => loadConfig({ ...monnify, MONNIFY_WALLET_ACCOUNT_NUMBER: '12345' })).toThrow(
      /^Invalid configuration: MONNIFY_WALLET_ACCOUNT_NUMBER /,
    );
  });
});

describe('SMS_PROVIDER and Termii', () => {
  const termii = {
    SMS_PROVIDER: 'termii',
    TERMII_API_KEY: 'TLkey-that-must-not-show',
    TERMII_SENDER_ID: 'OyaMoney',
  };

  it('keeps SMS in the sandbox outbox unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ smsProvider: 'sandbox', termii: null });
    // A key with the sandbox chosen is not used.
    expect(loadConfig({ TERMII_API_KEY: 'TLkey' }).termii).toBeNull();
  });

  it('takes Termii with its key and sender ID, at api.ng.termii.com unless another is named', () => {
    expect(loadConfig(termii)).toMatchObject({
      smsProvider: 'termii',
      termii: {
        apiKey: 'TLkey-that-must-not-show',
        senderId: 'OyaMoney',
        baseUrl: 'https://api.ng.termii.com',
      },
    });
    expect(loadConfig({ ...termii, TERMII_BASE_URL: 'http://127.0.0.1:4020/' }).termii).toEqual({
      apiKey: 'TLkey-that-must-not-show',
      senderId: 'OyaMoney',
      baseUrl: 'http://127.0.0.1:4020',
    });
  });

  it('refuses Termii without its key or sender ID, or with a sender ID Termii would not register, in one line that shows no key', () => {
    const { TERMII_API_KEY: _key, ...withoutKey } = termii;
    expect(() => loadConfig(withoutKey)).toThrow(
      /^Invalid configuration: TERMII_API_KEY is required with SMS_PROVIDER=termii$/,
    );
    const { TERMII_SENDER_ID: _sender, ...withoutSender } = termii;
    expect(() => loadConfig(withoutSender)).toThrow(
      /^Invalid configuration: TERMII_SENDER_ID is required with SMS_PROVIDER=termii$/,
    );
    for (const senderId of ['OM', 'OyaMoneyAlerts']) {
      const refusal = () => loadConfig({ ...termii, TERMII_SENDER_ID: senderId });
      expect(refusal).toThrow(
        /^Invalid configuration: TERMII_SENDER_ID must be the sender ID registered with Termii: 3 to 11 characters$/,
      );
      expect(refusal).not.toThrow(/TLkey/);
    }
    expect(() => loadConfig({ ...termii, TERMII_BASE_URL: 'api.ng.termii.com' })).toThrow(
      /^Invalid configuration: TERMII_BASE_URL /,
    );
    expect(() => loadConfig({ SMS_PROVIDER: 'twilio' })).toThrow(
      /^Invalid configuration: SMS_PROVIDER /,
    );
  });
});

describe("SMS_PROVIDER and Africa's Talking", () => {
  const at = {
    SMS_PROVIDER: 'africastalking',
    AFRICASTALKING_USERNAME: 'oyamoney',
    AFRICASTALKING_API_KEY: 'atsk_key-that-must-not-show',
    AFRICASTALKING_SENDER_ID: 'OyaMoney',
  };

  it("builds Africa's Talking when its settings are there, standing by behind the first", () => {
    expect(loadConfig({}).africastalking).toBeNull();
    const termii = { TERMII_API_KEY: 'TLk', TERMII_SENDER_ID: 'Oya' };
    const behind = loadConfig({ ...at, SMS_PROVIDER: 'termii', ...termii });
    expect(behind.smsProvider).toBe('termii');
    expect(behind.africastalking).toMatchObject({ username: 'oyamoney' });
    const listed = loadConfig({ ...at, ...termii, SMS_PROVIDERS: 'africastalking,termii' });
    expect(listed.smsProvider).toBe('africastalking');
    expect(listed.providerLists.sms).toEqual(['africastalking', 'termii']);
  });

  it("takes Africa's Talking with its username, key and sender ID, at its live host unless another is named", () => {
    expect(loadConfig(at)).toMatchObject({
      smsProvider: 'africastalking',
      termii: null,
      africastalking: {
        username: 'oyamoney',
        apiKey: 'atsk_key-that-must-not-show',
        senderId: 'OyaMoney',
        baseUrl: 'https://api.africastalking.com',
      },
    });
    const sandbox = {
      ...at,
      AFRICASTALKING_USERNAME: 'sandbox',
      AFRICASTALKING_BASE_URL: 'https://api.sandbox.africastalking.com/',
    };
    expect(loadConfig(sandbox).africastalking).toMatchObject({
      username: 'sandbox',
      baseUrl: 'https://api.sandbox.africastalking.com',
    });
  });

  it('refuses it without any of the three, in one line that shows no key', () => {
    for (const name of [
      'AFRICASTALKING_USERNAME',
      'AFRICASTALKING_API_KEY',
      'AFRICASTALKING_SENDER_ID',
    ] as const) {
      const without = () => loadConfig({ ...at, [name]: undefined });
      expect(without).toThrow(
        new RegExp(`^Invalid configuration: ${name} is required with SMS_PROVIDER=africastalking$`),
      );
      expect(without).not.toThrow(/atsk_key/);
    }
  });

  it("refuses the sandbox app's username on the live host, naming the sandbox's", () => {
    expect(() => loadConfig({ ...at, AFRICASTALKING_USERNAME: 'sandbox' })).toThrow(
      "Invalid configuration: AFRICASTALKING_USERNAME=sandbox is Africa's Talking's sandbox app: set AFRICASTALKING_BASE_URL=https://api.sandbox.africastalking.com",
    );
  });

  it('refuses a sender ID longer than Africa’s Talking registers, and a base URL that is not one', () => {
    expect(() => loadConfig({ ...at, AFRICASTALKING_SENDER_ID: 'OyaMoneyAlerts' })).toThrow(
      /^Invalid configuration: AFRICASTALKING_SENDER_ID must be the sender ID registered with Africa's Talking: at most 11 characters$/,
    );
    expect(() => loadConfig({ ...at, AFRICASTALKING_BASE_URL: 'api.africastalking.com' })).toThrow(
      /^Invalid configuration: AFRICASTALKING_BASE_URL /,
    );
  });
});

describe('the mandate provider', () => {
  const remita = {
    MANDATE_PROVIDER: 'remita',
    REMITA_MERCHANT_ID: '27768931',
    REMITA_SERVICE_TYPE_ID: '35126630',
    REMITA_API_KEY: 'key-that-must-not-show',
    REMITA_API_TOKEN: 'token-that-must-not-show',
  };

  it('keeps the sandbox mandates unless told otherwise, and takes Remita at its live host', () => {
    expect(loadConfig({})).toMatchObject({ mandateProvider: 'sandbox', remita: null });
    expect(loadConfig(remita)).toMatchObject({
      mandateProvider: 'remita',
      remita: {
        merchantId: '27768931',
        serviceTypeId: '35126630',
        apiKey: 'key-that-must-not-show',
        apiToken: 'token-that-must-not-show',
        baseUrl: 'https://login.remita.net',
      },
    });
    expect(
      loadConfig({ ...remita, REMITA_BASE_URL: 'https://remitademo.net/' }).remita?.baseUrl,
    ).toBe('https://remitademo.net');
  });

  it('stops the start without each of Remita’s credentials, naming the one missing', () => {
    for (const name of [
      'REMITA_MERCHANT_ID',
      'REMITA_SERVICE_TYPE_ID',
      'REMITA_API_KEY',
      'REMITA_API_TOKEN',
    ] as const) {
      expect(() => loadConfig({ ...remita, [name]: undefined })).toThrow(
        `Invalid configuration: ${name} is required with MANDATE_PROVIDER=remita`,
      );
    }
    expect(() => loadConfig({ MANDATE_PROVIDER: 'mono' })).toThrow(/MANDATE_PROVIDER/);
  });
});

describe('ROLE', () => {
  it('serves and works by default; an API process only queues; a worker works', () => {
    expect(loadConfig({})).toMatchObject({ role: 'all', jobsWork: true });
    expect(loadConfig({ ROLE: 'api' })).toMatchObject({ role: 'api', jobsWork: false });
    expect(loadConfig({ ROLE: 'worker' })).toMatchObject({ role: 'worker', jobsWork: true });
  });

  it('refuses a worker told to work on nothing, and a role it does not know', () => {
    expect(() => loadConfig({ ROLE: 'worker', JOBS_WORK: 'off' })).toThrow(
      'Invalid configuration: ROLE=worker works on jobs; JOBS_WORK=off leaves it none',
    );
    expect(() => loadConfig({ ROLE: 'cron' })).toThrow(/ROLE/);
  });
});

describe('the providers of each capability, in order', () => {
  const paystack = { PAYSTACK_SECRET_KEY: 'sk_test_abc' };

  it('takes PAYMENT_PROVIDER for every money capability, and a list per capability over it', () => {
    const lists = loadConfig({
      ...paystack,
      PAYMENT_PROVIDER: 'paystack',
      CARD_PROVIDERS: 'sandbox, paystack',
    }).providerLists;
    expect(lists).toMatchObject({
      cards: ['sandbox', 'paystack'],
      transfersIn: ['paystack'],
      payouts: ['paystack'],
      banks: ['paystack'],
      debits: ['paystack'],
      refunds: ['sandbox', 'paystack'],
      notices: ['paystack', 'sandbox'],
      settlement: ['paystack', 'sandbox'],
      mandates: ['sandbox'],
      bvn: ['sandbox'],
      acquirer: ['sandbox'],
      sms: ['sandbox'],
    });
  });

  it('reads the older single names as a list of one', () => {
    const lists = loadConfig({
      MANDATE_PROVIDER: 'remita',
      REMITA_MERCHANT_ID: 'm',
      REMITA_SERVICE_TYPE_ID: 's',
      REMITA_API_KEY: 'k',
      REMITA_API_TOKEN: 't',
      BVN_REGISTRY: 'mono',
      MONO_SECRET_KEY: 'live_sk_x',
    }).providerLists;
    expect(lists).toMatchObject({ mandates: ['remita'], bvn: ['mono'] });
  });

  it('lets Paystack Terminal serve beside the sandbox network with only its key', () => {
    const config = loadConfig({ ...paystack, TERMINAL_PROVIDER: 'paystack' });
    expect(config.providerLists).toMatchObject({
      acquirer: ['paystack-terminal'],
      cards: ['sandbox'],
    });
    expect(() => loadConfig({ TERMINAL_PROVIDER: 'paystack' })).toThrow(
      'Invalid configuration: PAYSTACK_SECRET_KEY is required with TERMINAL_PROVIDER=paystack',
    );
  });

  it('refuses a list naming a provider without its settings, one that does not serve it, or none', () => {
    expect(() => loadConfig({ CARD_PROVIDERS: 'paystack' })).toThrow(
      'Invalid configuration: CARD_PROVIDERS names paystack, whose settings are missing: PAYSTACK_SECRET_KEY',
    );
    expect(() => loadConfig({ ...paystack, SMS_PROVIDERS: 'paystack' })).toThrow(
      'Invalid configuration: SMS_PROVIDERS names paystack, which does not serve sms',
    );
    expect(() => loadConfig({ TRANSFER_PROVIDERS: 'stripe' })).toThrow(
      'Invalid configuration: TRANSFER_PROVIDERS names stripe, which is not a provider this server knows',
    );
    expect(() => loadConfig({ PAYOUT_PROVIDERS: ' , ' })).toThrow(
      'Invalid configuration: PAYOUT_PROVIDERS names no provider',
    );
    expect(() =>
      loadConfig({
        PAYSTACK_SECRET_KEY: 'sk_live_abc',
        PAYMENT_PROVIDER: 'paystack',
        CARD_PROVIDERS: 'sandbox',
      }),
    ).toThrow('Invalid configuration: CARD_PROVIDERS names the sandbox beside a live key');
  });

  it('leaves off beside a live key what only the sandbox would have served', () => {
    const lists = loadConfig({
      PAYSTACK_SECRET_KEY: 'sk_live_abc',
      PAYMENT_PROVIDER: 'paystack',
    }).providerLists;
    expect(lists).toMatchObject({
      cards: ['paystack'],
      bvn: [],
      mandates: [],
      acquirer: [],
      sms: [],
    });
    expect(lists.notices).toEqual(['paystack']);
  });
});
