// Rate limits (docs/security.md "Rate limits"): wrong merchant secrets per address and per client
// id, SMS code sends per address and overall, discoveries, challenges and logins per address. Every
// refusal is the catalogue's 429 with Retry-After. Each test calls from addresses of its own, so
// the counters of one test never reach another.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_PARTY_CLIENT_ID } from '../../domain/schemas/auth';
import { DEFAULT_RATE_LIMITS } from '../rate-limits';
import { expectRateLimited } from '../testing/rate-limits';
import { createTestClient, startTestApp } from '../testing/test-app';
import { signUp, testPhone } from '../testing/identity';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let client: Awaited<ReturnType<typeof createTestClient>>;
beforeAll(async () => {
  ctx = await startTestApp({ rateLimits: DEFAULT_RATE_LIMITS });
  client = await createTestClient(ctx.database, { name: 'Mama Put Foods' });
});
afterAll(() => ctx.close());

const MINUTE = 60_000;

let addressSeq = 0;
/** An address no other call has used. */
const newAddress = () => {
  addressSeq += 1;
  return `10.7.${addressSeq >> 8}.${addressSeq & 255}`;
};

/** Sends one request after another (the counters are what is tested, not concurrency). */
async function repeat(times: number, send: (i: number) => Promise<LightMyRequestResponse>) {
  const answers: LightMyRequestResponse[] = [];
  for (let i = 0; i < times; i += 1) answers.push(await send(i));
  return answers.map((answer) => answer.statusCode);
}

const statuses = (times: number, status: number) => Array<number>(times).fill(status);

const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;

const createConsent = (authorization: string, remoteAddress: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    remoteAddress,
    headers: { authorization },
    payload: { payments: [{ type: 'immediate', amount: 250_000, narration: 'Order 17' }] },
  });

describe('wrong merchant credentials', () => {
  // The promises of docs/security.md, spelled out rather than read from the code.
  const perAddress = { max: 20, windowMs: MINUTE };
  const perClient = { max: 10, windowMs: MINUTE };

  it('refuse an address past its failures, even with the right secret, while others still get in', async () => {
    const address = newAddress();
    // Distinct unknown client ids: only the address's own counter grows.
    const failures = await repeat(perAddress.max, (i) =>
      createConsent(basic(`cli_guess_${address}_${i}`, 'sk_x'), address),
    );
    expect(failures).toEqual(statuses(perAddress.max, 401));

    expectRateLimited(
      await createConsent(basic(`cli_guess_${address}_last`, 'sk_x'), address),
      perAddress.windowMs,
    );
    expectRateLimited(await createConsent(client.authorization, address), perAddress.windowMs);
    expect((await createConsent(client.authorization, newAddress())).statusCode).toBe(201);
  });

  it('answer wrong secrets for a client from many addresses with 429, and its right secret with 201', async () => {
    const target = await createTestClient(ctx.database, { name: 'Suya Spot' });
    const wrong = basic(target.clientId, 'sk_wrong');
    const failures = await repeat(perClient.max, () => createConsent(wrong, newAddress()));
    expect(failures).toEqual(statuses(perClient.max, 401));

    expectRateLimited(await createConsent(wrong, newAddress()), perClient.windowMs);
    expectRateLimited(await createConsent(wrong, newAddress()), perClient.windowMs);
    // The attacker cannot lock the merchant out.
    expect((await createConsent(target.authorization, newAddress())).statusCode).toBe(201);
  });

  it('count no call without Basic credentials: after 25 of them and 25 without an operator token, the right secret gets in', async () => {
    const address = newAddress();
    const anonymous = await repeat(25, (i) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/consents',
        remoteAddress: address,
        // No header, as a client that waits for the challenge first sends, or another scheme.
        headers: i % 2 === 0 ? {} : { authorization: 'Bearer not-a-basic-credential' },
        payload: {},
      }),
    );
    expect(anonymous).toEqual(statuses(25, 401));
    const operatorCalls = await repeat(25, () =>
      ctx.app.inject({
        method: 'GET',
        url: '/api/operator/clients/cli_x',
        remoteAddress: address,
      }),
    );
    expect(operatorCalls).toEqual(statuses(25, 401));

    expect((await createConsent(client.authorization, address)).statusCode).toBe(201);
  });

  it('count wrong operator tokens like wrong client credentials', async () => {
    const address = newAddress();
    const wrong = await repeat(perAddress.max + 1, () =>
      ctx.app.inject({
        method: 'GET',
        url: '/api/operator/clients/cli_x',
        remoteAddress: address,
        headers: { authorization: 'Bearer wrong' },
      }),
    );
    expect(wrong).toEqual([...statuses(perAddress.max, 401), 429]);
    expectRateLimited(await createConsent(client.authorization, address), perAddress.windowMs);
  });

  it('limit an unknown client id like a known one, so a 429 does not tell which ids exist', async () => {
    const unknown = basic('cli_nobody_here', 'sk_wrong');
    const failures = await repeat(perClient.max, () => createConsent(unknown, newAddress()));
    expect(failures).toEqual(statuses(perClient.max, 401));

    expectRateLimited(await createConsent(unknown, newAddress()), perClient.windowMs);
  });
});

const sendCode = (remoteAddress: string, app = ctx.app) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/phone-codes',
    remoteAddress,
    payload: { phone: testPhone() },
  });

describe('SMS code sends', () => {
  const perAddress = { max: 10, windowMs: 10 * MINUTE };

  it('refuse the 11th code from one address in 10 minutes with 429, while another address gets its code', async () => {
    const address = newAddress();
    expect(await repeat(perAddress.max, () => sendCode(address))).toEqual(
      statuses(perAddress.max, 200),
    );

    expectRateLimited(await sendCode(address), perAddress.windowMs);
    expect((await sendCode(newAddress())).statusCode).toBe(200);
  });

  it('refuse every address once the overall ceiling is reached', async () => {
    const overall = { max: 5, windowMs: 60 * MINUTE };
    const small = await startTestApp({
      rateLimits: { ...DEFAULT_RATE_LIMITS, smsOverall: overall },
    });
    try {
      const sends = await repeat(overall.max, () => sendCode(newAddress(), small.app));
      expect(sends).toEqual(statuses(overall.max, 200));

      expectRateLimited(await sendCode(newAddress(), small.app), overall.windowMs);
      expectRateLimited(await sendCode(newAddress(), small.app), overall.windowMs);
    } finally {
      await small.close();
    }
  });

  it('keep an overall ceiling of 1,000 an hour by default', () => {
    expect(DEFAULT_RATE_LIMITS.smsOverall).toEqual({ max: 1_000, windowMs: 60 * MINUTE });
  });
});

describe('discoveries, challenges and logins', () => {
  const { max, windowMs } = { max: 60, windowMs: MINUTE };
  const post = (
    url: string,
    remoteAddress: string,
    extra: { token?: string; body?: object } = {},
  ) =>
    ctx.app.inject({
      method: 'POST',
      url,
      remoteAddress,
      headers: extra.token ? { authorization: `Bearer ${extra.token}` } : {},
      ...(extra.body ? { payload: extra.body } : {}),
    });

  it('refuse the 61st discovery from one address in a minute with 429, while another address opens one', async () => {
    const address = newAddress();
    const open = (from: string) =>
      post('/api/auth/discovery', from, { body: { clientId: FIRST_PARTY_CLIENT_ID } });
    expect(await repeat(max, () => open(address))).toEqual(statuses(max, 200));

    expectRateLimited(await open(address), windowMs);
    expect((await open(newAddress())).statusCode).toBe(200);
  });

  it('refuse the 61st sign-in-options from one address in a minute with 429, while another address gets them', async () => {
    const address = newAddress();
    const options = (from: string) => post('/api/auth/passkeys/sign-in-options', from);
    expect(await repeat(max, () => options(address))).toEqual(statuses(max, 200));

    expectRateLimited(await options(address), windowMs);
    expect((await options(newAddress())).statusCode).toBe(200);
  });

  it('count registration options and grant challenges against the same challenge limit', async () => {
    const { token } = await signUp(ctx.app, testPhone());
    const address = newAddress();
    await repeat(max, () => post('/api/auth/passkeys/sign-in-options', address));

    expectRateLimited(
      await post('/api/auth/passkeys/registration-options', address, { token }),
      windowMs,
    );
    expectRateLimited(
      await post('/api/auth/grant-challenges', address, {
        token,
        body: { consentId: 'cns_anything' },
      }),
      windowMs,
    );
    expect(
      (await post('/api/auth/passkeys/registration-options', newAddress(), { token })).statusCode,
    ).toBe(200);
  });

  it('refuse the 61st login from one address in a minute with 429, whatever the logins held', async () => {
    const address = newAddress();
    const login = () => post('/api/auth/login', address, { body: { method: 'phone-code' } });
    expect(await repeat(max, login)).toEqual(statuses(max, 400));

    expectRateLimited(await login(), windowMs);
  });
});

describe('who the caller is', () => {
  it('does not let a forged X-Forwarded-For name a new address for each try', async () => {
    const address = newAddress();
    const forged = await repeat(11, (i) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/phone-codes',
        remoteAddress: address,
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
        payload: { phone: testPhone() },
      }),
    );
    expect(forged).toEqual([...statuses(10, 200), 429]);
  });

  it('counts every address of one IPv6 /64 as one caller', async () => {
    const answers = await repeat(11, (i) => sendCode(`2001:db8:7:${addressSeq}::${i + 1}`));
    expect(answers).toEqual([...statuses(10, 200), 429]);
  });

  it('counts malformed credentials against their address only, never against a shared client', async () => {
    const answers = await repeat(12, () => createConsent('Basic !!!', newAddress()));
    expect(answers).toEqual(statuses(12, 401));
  });
});
