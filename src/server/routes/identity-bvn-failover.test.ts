// BVN_REGISTRIES=mono,sandbox, Mono on its simulator: a verification opens at the first registry
// health routing names that answers, each asked once (every ask may be billed). Mono down (no
// answer) hands the ask to the sandbox's registry; Mono answering that it holds no such BVN ends
// it. The code is then sent and checked at the registry that opened the verification, never at
// another, whatever routing says later. Each opening ask's outcome is recorded for its registry
// (services/identity/bvn.ts, docs/identity.md "The BVN"), and the payer's list of lookups names
// the registry that answered, from the ask on (docs/payer-consents.md "Who looked at your BVN").
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TBvnLookup } from '../../domain/schemas/payer-protections';
import { bvnCodes } from '../db/schema';
import { latestCode, signedUpPayer, type TSignedUpPayer } from '../testing/identity';
import {
  startMonoSimulator,
  type TMonoPerson,
  type TMonoSimulator,
} from '../testing/mono-simulator/mono-simulator';
import { mintPerson } from '../testing/sandbox-people';
import { outcomesOf, recordingHealth } from '../testing/recording-health';
import { startTestApp } from '../testing/test-app';

let mono: TMonoSimulator;
let ctx: Awaited<ReturnType<typeof startTestApp>>;

const health = recordingHealth();

beforeAll(async () => {
  mono = await startMonoSimulator();
  ctx = await startTestApp({
    env: {
      BVN_REGISTRIES: 'mono,sandbox',
      MONO_SECRET_KEY: mono.secretKey,
      MONO_BASE_URL: mono.url,
    },
    providers: { health },
  });
});
afterAll(async () => {
  await ctx?.close();
  await mono?.close();
});
beforeEach(() => health.reset());

const post = (url: string, payer: TSignedUpPayer, payload: object) =>
  ctx.app.inject({ method: 'POST', url, headers: payer.headers, payload });

/** The registries' outcomes recorded, as registry and health, oldest first. */
const outcomes = () => outcomesOf(health, 'bvn');

/** How many times Mono was asked to open a verification of `bvn`. */
const monoOpenings = (bvn: string) =>
  mono.requests.filter(
    (r) => r.path === '/v2/lookup/bvn/initiate' && (r.body as { bvn?: string }).bvn === bvn,
  ).length;

/** The registry the payer's verification names. */
async function registryOfVerification(payer: TSignedUpPayer) {
  const [row] = await ctx.database.db
    .select({ registry: bvnCodes.registry })
    .from(bvnCodes)
    .where(eq(bvnCodes.payerId, payer.userId));
  return row?.registry;
}

let bvnSeq = 0;
/** A person NIBSS holds on Mono's simulator, and nowhere else. */
function monoPerson(): TMonoPerson {
  const person: TMonoPerson = {
    bvn: `228${String(Date.now()).slice(-6)}${String(bvnSeq++).padStart(2, '0')}`,
    firstName: 'Bola',
    middleName: null,
    lastName: 'Adeyemi',
    dob: '1990-02-03',
    phone: `0805${String(Date.now()).slice(-7)}`,
    email: null,
    accounts: [],
  };
  mono.addPerson(person);
  return person;
}

describe('a BVN verification when the first registry is down', () => {
  it("opens at the sandbox's registry when Mono gives no answer, and finishes there", async () => {
    const payer = await signedUpPayer(ctx.app);
    const person = await mintPerson(ctx.app);
    mono.failNext(503);
    const opened = await post('/api/identity/bvn', payer, { bvn: person.bvn });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ codeSender: 'sandbox' });
    expect(monoOpenings(person.bvn)).toBe(1);
    expect(outcomes()).toEqual([
      { provider: 'mono', health: 'failed' },
      { provider: 'sandbox', health: 'answered' },
    ]);
    expect(await registryOfVerification(payer)).toBe('sandbox');

    // Mono is back and first again: the code is still sent and checked where the session is.
    const asked = mono.requests.length;
    const [method] = opened.json<{ methods: Array<{ id: string }> }>().methods;
    const sent = await post('/api/identity/bvn/code', payer, { method: method?.id ?? '' });
    expect(sent.statusCode, sent.body).toBe(200);
    const code = await latestCode(ctx.app, person.phoneNumber);
    const verified = await post('/api/identity/bvn/verify', payer, { code });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ bvn: { last4: person.bvn.slice(-4) } });
    expect(mono.requests.length).toBe(asked);
  });

  it('answers BVN_REGISTRY_UNAVAILABLE when no registry answered, each asked once', async () => {
    health.routeAs('bvn', ['mono']);
    const payer = await signedUpPayer(ctx.app);
    const person = monoPerson();
    mono.failNext(503);
    const opened = await post('/api/identity/bvn', payer, { bvn: person.bvn });
    expect(opened.statusCode, opened.body).toBe(502);
    expect(opened.json().error.code).toBe('BVN_REGISTRY_UNAVAILABLE');
    expect(monoOpenings(person.bvn)).toBe(1);
    expect(outcomes()).toEqual([{ provider: 'mono', health: 'failed' }]);
  });
});

describe('the payer’s list of lookups of their BVN', () => {
  const lookupsOf = async (payer: TSignedUpPayer) => {
    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/bvn-lookups',
      headers: payer.headers,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    return listed
      .json<{ lookups: TBvnLookup[] }>()
      .lookups.map(({ kind, provider }) => ({ kind, provider }));
  };

  it('names the registry that answered when Mono did not, finished or not', async () => {
    const payer = await signedUpPayer(ctx.app);
    const person = await mintPerson(ctx.app);
    mono.failNext(503);
    const opened = await post('/api/identity/bvn', payer, { bvn: person.bvn });
    expect(opened.statusCode, opened.body).toBe(200);
    // The payer has not given the code yet: the BVN was given to the sandbox's registry all the same.
    const asked = [{ kind: 'bvn_verification', provider: 'sandbox' }];
    expect(await lookupsOf(payer)).toEqual(asked);

    const [method] = opened.json<{ methods: Array<{ id: string }> }>().methods;
    const sent = await post('/api/identity/bvn/code', payer, { method: method?.id ?? '' });
    expect(sent.statusCode, sent.body).toBe(200);
    const code = await latestCode(ctx.app, person.phoneNumber);
    const verified = await post('/api/identity/bvn/verify', payer, { code });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(await lookupsOf(payer)).toEqual(asked);
  });

  it('lists an ask the registry answered that it holds no such BVN', async () => {
    const payer = await signedUpPayer(ctx.app);
    const person = await mintPerson(ctx.app);
    const opened = await post('/api/identity/bvn', payer, { bvn: person.bvn });
    expect(opened.json().error.code).toBe('BVN_NOT_FOUND');
    expect(await lookupsOf(payer)).toEqual([{ kind: 'bvn_verification', provider: 'mono' }]);
  });

  it('lists no ask no registry answered', async () => {
    health.routeAs('bvn', ['mono']);
    const payer = await signedUpPayer(ctx.app);
    mono.failNext(503);
    const opened = await post('/api/identity/bvn', payer, { bvn: monoPerson().bvn });
    expect(opened.json().error.code).toBe('BVN_REGISTRY_UNAVAILABLE');
    expect(await lookupsOf(payer)).toEqual([]);
  });
});

describe('a BVN verification when the first registry answers', () => {
  it('does not move a BVN Mono does not hold: its answer is the answer', async () => {
    const payer = await signedUpPayer(ctx.app);
    // The sandbox's registry holds this BVN; NIBSS, through Mono, does not.
    const person = await mintPerson(ctx.app);
    const opened = await post('/api/identity/bvn', payer, { bvn: person.bvn });
    expect(opened.statusCode, opened.body).toBe(404);
    expect(opened.json().error.code).toBe('BVN_NOT_FOUND');
    expect(monoOpenings(person.bvn)).toBe(1);
    expect(outcomes()).toEqual([{ provider: 'mono', health: 'answered' }]);
  });

  it('sends and checks the code at Mono, which opened it, though routing now names the sandbox', async () => {
    const payer = await signedUpPayer(ctx.app);
    const person = monoPerson();
    const opened = await post('/api/identity/bvn', payer, { bvn: person.bvn });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ codeSender: 'nibss' });
    expect(await registryOfVerification(payer)).toBe('mono');

    health.routeAs('bvn', ['sandbox', 'mono']);
    const sent = await post('/api/identity/bvn/code', payer, { method: 'phone' });
    expect(sent.statusCode, sent.body).toBe(200);
    const code = mono.sentCodes.findLast((sentCode) => sentCode.bvn === person.bvn)?.code ?? '';
    const verified = await post('/api/identity/bvn/verify', payer, { code });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ bvn: { last4: person.bvn.slice(-4) } });
  });
});
