// Generators, fixtures and checks of the fuzz suite (fuzz.test.ts). Every input is derived from
// what a route registered — its URL, its zod schemas, what its guard lets through — so a new
// route is fuzzed by being registered, never by someone remembering to list it.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { z } from 'zod';
import { isErrorCode } from '../../domain/errors';
import { ZApiErrorBody } from '../../domain/schemas/api-error';
import type { TRouteEntry } from '../app';
import { buildApp } from '../app';
import { systemClock } from '../clock';
import {
  apiClients,
  authSessions,
  dashboardSessions,
  dashboardStaff,
  passkeys,
  payments,
} from '../db/schema';
import { operatorActor } from '../services/dashboard/audit';
import { createInvitation } from '../services/dashboard/staff';
import {
  CSRF_HEADER,
  endDashboardSession,
  openDashboardSession,
  sessionCookieName,
} from '../services/dashboard/staff-sessions';
import { addMerchantAgent } from '../services/merchants/merchant-agents';
import { createWebhookEndpoint } from '../services/merchants/webhook-endpoints';
import { createSession, tokenForSession } from '../services/identity/payer-sessions';
import { createTestClient, openTestDatabase, testConfig } from './test-app';
import { dashboardOrigin, staffMember } from './dashboard';
import { testHostResolver } from './host-resolver';
import { addPasskey, openDiscovery, signUp, softAuthenticatorFor, testPhone } from './identity';

/** Fixed, so a failure replays; FUZZ_SEED=… explores other inputs. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_260_707);

/** Header that ties a server-side error (onError) to the generated case that caused it. */
const CASE_HEADER = 'x-fuzz-case';

/** Most body mutations tried per route; the kinds known to have broken something
 * (PRIORITY_LABELS) are always kept. Bounded because a merchant's credentials cost a 46 ms
 * scrypt per request while secrets are scrypt hashes: every field × every value of
 * POST /api/v1/consents alone would then take over a minute. */
const MUTATION_BUDGET = 200;

/** Seeded random inputs per route, on top of the fixed lists (which run whole every time). */
const RANDOM_RUNS = {
  pathParam: 50,
  query: 90,
  headers: 30,
  /** Whole random JSON bodies, for routes that declare a body and for those that do not. */
  body: 20,
  bodyUndeclared: 8,
  /** One field of a valid-looking body replaced by a random junk value. */
  mutation: 40,
};

/** Routes that serve a file of the build read neither query nor body, and a file can weigh
 * megabytes (a source map): they get the fixed lists and a few random inputs only. */
const FILE_ROUTE_RUNS = { ...RANDOM_RUNS, query: 20, headers: 10, bodyUndeclared: 5 };

const runsFor = (plan: TRoutePlan) => (plan.servesFile ? FILE_ROUTE_RUNS : RANDOM_RUNS);

// ---------------------------------------------------------------------------------------------
// The app, its fixtures and valid credentials

export type TFuzzApp = Awaited<ReturnType<typeof startFuzzApp>>;

/**
 * startTestApp() without the page cannot serve the page routes, so this is startTestApp() with
 * the built page (webDir): the same fresh database (PGlite, or PostgreSQL with DATABASE_URL),
 * the same config and DNS. An onError hook only watches: it keeps each error's message by case, so a
 * 500 in the report says what threw.
 */
/** The operator's bearer token of the fuzz app (`npm run client:*` calls). */
export const FUZZ_OPERATOR_TOKEN = 'fuzz-operator-token-0123456789abcdefghij';

export async function startFuzzApp(webDir: string) {
  if (!existsSync(path.join(webDir, 'index.html'))) {
    throw new Error(
      `The fuzz suite needs the built page to fuzz the page routes: ${webDir}/index.html is ` +
        'missing. Run `npm run build` first (`npm test` builds before the unit tests).',
    );
  }
  const database = await openTestDatabase();
  const config = testConfig();
  const app = await buildApp({
    config,
    database,
    logger: false,
    webDir,
    operatorToken: FUZZ_OPERATOR_TOKEN,
    providers: { dns: testHostResolver() },
    // The fixtures' webhooks are at names the tests' DNS resolves to a public address: their
    // deliveries are queued, never sent, so no test posts to the network.
    webhookDelivery: 'manual',
    // An erasure asked by a fuzz case would end the payer's session the later cases use.
    payerRights: 'manual',
  });
  const causes = new Map<string, string>();
  app.addHook('onError', async (request, _reply, error) => {
    const id = request.headers[CASE_HEADER];
    if (typeof id === 'string') causes.set(id, errorText(error));
  });
  await app.ready();
  return {
    app,
    database,
    config,
    causes,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** An error's message, with its cause's: a failed query's cause is the database's own words. */
function errorText(error: Error): string {
  const cause = error.cause instanceof Error ? ` ← ${error.cause.message}` : '';
  return `${error.message.replace(/\s+/g, ' ').slice(0, 120)}${cause}`.slice(0, 300);
}

export type TFixtures = Awaited<ReturnType<typeof makeFixtures>>;

/** The calls that replace a client's secret: the merchant's own, and the operator's. */
const SECRET_ROTATION_URL = '/api/v1/client/secret';
const OPERATOR_SECRET_URL = '/api/operator/clients/:clientId/secret';

/**
 * A merchant client, a consent of it, a signed-in payer with a passkey who may act for the
 * merchant, and an owner of the merchant on the dashboard, through the real routes. Further payer
 * tokens are minted as sessions of that payer, proven by the passkey, directly, so that a route
 * that revokes its token (logout) or a per-address limit on sign-ins cannot starve the other
 * routes of a valid token; dashboard sessions likewise (staffFixture).
 */
export async function makeFixtures(fuzz: TFuzzApp) {
  const { app, database, config } = fuzz;
  const merchant = await createTestClient(database, {
    name: 'Fuzz Stores',
    origins: ['https://shop.fuzz.example'],
  });
  const consentId = await createConsentFixture(app, merchant.authorization);
  const phone = testPhone();
  const payer = await signUp(app, phone);
  await addPasskey(app, payer.token, softAuthenticatorFor(config));
  const payerId = payer.user.userId;
  await addMerchantAgent(database.db, { merchantId: merchant.merchantId, payerId, role: 'owner' });
  const [signedIn] = await database.db
    .select()
    .from(authSessions)
    .where(eq(authSessions.payerId, payerId));
  if (!signedIn) throw new Error('fuzz fixtures: the sign-up left no session');
  const mintToken = async (): Promise<string> => {
    const now = new Date();
    const session = await createSession(
      database.db,
      config,
      {
        payerId,
        clientId: signedIn.clientId,
        discoveryId: signedIn.discoveryId,
        authAppId: null,
        method: 'phone-code',
        // Proven by the payer's passkey (as after a step-up), so the routes that need the
        // passkey's proof (docs/identity.md "Actions and the proof they need") are fuzzed past
        // their 403 too: their bodies, parameters and services.
        passkeyProvenAt: now,
      },
      now,
    );
    return tokenForSession(database.db, config, { payerId, ...session }, now);
  };
  const nonce = await grantNonce(app, payer.token, consentId);
  const hints: THints = {
    clientId: merchant.clientId,
    consentId,
    // Opened for the merchant's own consent, so a login naming the merchant's clientId matches.
    discoveryId: await openDiscovery(app, { clientId: merchant.clientId, consentId }),
    nonce,
    phone,
    code: '123456',
    fullName: 'Adaeze Okonkwo',
    merchantId: merchant.merchantId,
    // The operator's rotation of a secret names a client of its own (below).
    [`${OPERATOR_SECRET_URL} clientId`]: (
      await createTestClient(database, { name: 'Fuzz Operator Rotations' })
    ).clientId,
  };
  // Rotating a secret twice ends the first one: the calls that rotate one rotate a client's of
  // their own, so the fixture merchant's credentials hold for the other routes.
  const rotatingMerchant = await createTestClient(database, { name: 'Fuzz Rotations' });
  const staff = await staffFixture(fuzz, merchant.merchantId);
  Object.assign(hints, staff.hints);
  return { merchant, rotatingMerchant, hints, mintToken, staff };
}

/** The headers the dashboard's page sends: its session's cookie, our Origin, the CSRF token. */
export type TStaffHeaders = { cookie: string; origin: string; [CSRF_HEADER]: string };

/**
 * The fixture merchant's dashboard owner, who accepted the operator's invitation with an SMS code
 * and made a passkey through the real routes (testing/dashboard.ts). Each route gets a session of
 * its own (mintSession, opened directly as after a passkey sign-in), and a route that ends its
 * session (sign-out) one per case, so neither the 300 calls a minute per session nor a sign-out
 * can starve the other routes. The owner may do every action, so every staff route, those added
 * later too, is fuzzed past its guard into its handler.
 *
 * The routes under /api/dashboard/ work on things of their own: a second member and an open
 * invitation of the team (remove, change, withdraw), a second API client of the merchant (rotate,
 * origins, webhooks added to it) with two webhooks (the deletion takes the other one) and a
 * consent of their own, so what they end or change is not the fixture merchant's credentials or
 * the consent the other routes are fuzzed with.
 */
async function staffFixture(fuzz: TFuzzApp, merchantId: string) {
  const { db } = fuzz.database;
  const now = new Date();
  const { owner, removed, changed, ownerPasskeyId } = await fixtureTeam(fuzz, merchantId, now);
  const open = (method: 'passkey' | 'phone-code') =>
    openOwnerSession(fuzz, { payerId: owner.payerId, staffId: owner.id, ownerPasskeyId }, method);
  const mintSession = async () => (await open('passkey')).headers;
  const signedOut = await open('passkey');
  await endDashboardSession(db, signedOut.sessionId, new Date());
  const { invitationId } = await createInvitation(
    db,
    fuzz.config,
    {
      merchantId,
      role: 'viewer',
      refundLimit: null,
      phoneNumber: null,
      invitedBy: operatorActor(merchantId),
    },
    now,
  );
  const spare = await spareClientFixture(fuzz, merchantId);
  const hints: THints = {
    staffId: changed.id,
    // Removing a member ends them: the removal takes another member than the change.
    'DELETE /api/dashboard/team/:staffId staffId': removed.id,
    invitationId,
    ...spareClientHints(fuzz.app, spare),
  };
  return {
    origin: dashboardOrigin(fuzz.config),
    mintSession,
    /** A session signed out, and one an SMS code opened (no passkey yet), of the owner. */
    signedOut: signedOut.headers,
    codeSession: (await open('phone-code')).headers,
    hints,
  };
}

/**
 * The fixture merchant's team, invited and accepted through the real routes: the owner (and the
 * passkey it made), a member the fuzz removes and another whose role it changes.
 */
async function fixtureTeam(fuzz: TFuzzApp, merchantId: string, now: Date) {
  const { db } = fuzz.database;
  await staffMember(fuzz, { merchantId, role: 'owner' }, now);
  await staffMember(fuzz, { merchantId, role: 'support', refundLimit: 100_000 }, now);
  await staffMember(fuzz, { merchantId, role: 'viewer' }, now);
  const members = await db
    .select()
    .from(dashboardStaff)
    .where(eq(dashboardStaff.merchantId, merchantId));
  const owner = members.find((m) => m.role === 'owner');
  const removed = members.find((m) => m.role === 'support');
  const changed = members.find((m) => m.role === 'viewer');
  if (!owner || !removed || !changed)
    throw new Error('fuzz fixtures: the invitations left no staff');
  // A passkey's session names the passkey that signed in: the owner's, made through the routes.
  const [ownerPasskey] = await db
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(eq(passkeys.payerId, owner.payerId));
  if (!ownerPasskey) throw new Error('fuzz fixtures: the owner made no passkey');
  return { owner, removed, changed, ownerPasskeyId: ownerPasskey.id };
}

/** A dashboard session of the owner's, opened directly as after a sign-in, and the headers that carry it. */
async function openOwnerSession(
  fuzz: TFuzzApp,
  owner: { payerId: string; staffId: string; ownerPasskeyId: string },
  method: 'passkey' | 'phone-code',
) {
  const { database, config } = fuzz;
  const { db } = database;
  const session = await openDashboardSession(
    db,
    {
      payerId: owner.payerId,
      staffId: owner.staffId,
      method,
      passkeyId: method === 'passkey' ? owner.ownerPasskeyId : null,
    },
    new Date(),
  );
  const [row] = await db
    .select({ csrfToken: dashboardSessions.csrfToken })
    .from(dashboardSessions)
    .where(eq(dashboardSessions.id, session.sessionId));
  const headers: TStaffHeaders = {
    cookie: `${sessionCookieName(config)}=${session.token}`,
    origin: dashboardOrigin(config),
    [CSRF_HEADER]: row?.csrfToken ?? '',
  };
  return { sessionId: session.sessionId, headers };
}

/**
 * A second API client of the merchant's, with a consent of its own (and its payment) and two
 * webhooks: one the fuzz changes, one it deletes.
 */
async function spareClientFixture(fuzz: TFuzzApp, merchantId: string) {
  const { app, database, config } = fuzz;
  const { db } = database;
  const spare = await createTestClient(database, { name: 'Fuzz Spare Key' });
  await db.update(apiClients).set({ merchantId }).where(eq(apiClients.clientId, spare.clientId));
  const authorization = `Basic ${Buffer.from(`${spare.clientId}:${spare.secret}`).toString('base64')}`;
  const ownConsent = await createConsentFixture(app, authorization);
  const webhookContext = { db, config, clock: systemClock, providers: { dns: testHostResolver() } };
  const [changedWebhook, deletedWebhook] = await Promise.all(
    ['changed', 'deleted'].map((name) =>
      createWebhookEndpoint(webhookContext, spare.clientId, `${FUZZ_WEBHOOK_URL}/${name}`),
    ),
  );
  const [payment] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.consentId, ownConsent));
  return { clientId: spare.clientId, ownConsent, changedWebhook, deletedWebhook, payment };
}

/** The hints that point every /api/dashboard/ route at the spare client's own things. */
function spareClientHints(
  app: FastifyInstance,
  spare: Awaited<ReturnType<typeof spareClientFixture>>,
): THints {
  const { clientId, ownConsent, changedWebhook, deletedWebhook, payment } = spare;
  const dashboardUrls = app.routeTable
    .map(({ url }) => url)
    .filter((url) => url.startsWith('/api/dashboard/'));
  return {
    ...Object.fromEntries(
      dashboardUrls.flatMap((url) => [
        [`${url} clientId`, clientId],
        [`${url} consentId`, ownConsent],
        [`${url} paymentId`, payment?.id ?? 'abc'],
        [`${url} webhookId`, changedWebhook?.id ?? 'abc'],
        [`${url} url`, `${FUZZ_WEBHOOK_URL}/added`],
      ]),
    ),
    'DELETE /api/dashboard/webhooks/:webhookId webhookId': deletedWebhook?.id ?? 'abc',
  };
}

/** Where the fixtures' webhooks point: a name the tests' DNS resolves to a public address. */
const FUZZ_WEBHOOK_URL = 'https://hooks.fuzz.example';

async function createConsentFixture(app: FastifyInstance, authorization: string) {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization },
    payload: {
      payments: [{ type: 'immediate', amount: 250_000, narration: 'Fuzz order' }],
      dataSharing: { bvnData: true },
      requirements: { requiresAuth: true },
    },
  });
  if (created.statusCode !== 201) throw new Error(`fuzz fixtures: consent ${created.body}`);
  return created.json<{ consentId: string }>().consentId;
}

async function grantNonce(app: FastifyInstance, token: string, consentId: string) {
  const issued = await app.inject({
    method: 'POST',
    url: '/api/auth/grant-challenges',
    headers: { authorization: `Bearer ${token}` },
    payload: { consentId },
  });
  // A nonce only makes the grant check go one step deeper; without one the field gets 'abc'.
  return issued.statusCode === 200 ? issued.json<{ nonce: string }>().nonce : 'abc';
}

/** A route served from the built page's files (fastify-static registers one per file). */
export function isStaticFileRoute(webDir: string, url: string): boolean {
  const file = path.join(webDir, url);
  return file.startsWith(webDir) && existsSync(file) && statSync(file).isFile();
}

// ---------------------------------------------------------------------------------------------
// Raw bodies and URLs: what JSON.stringify and encodeURIComponent refuse to write

/** Body bytes written as they are: JSON no serializer writes (1e999, 5,000 levels, a
 * __proto__ key) or bytes that are not UTF-8 at all. */
export class RawFragment {
  constructor(readonly bytes: Buffer) {}
  static text(text: string): RawFragment {
    return new RawFragment(Buffer.from(text, 'utf8'));
  }
  /**
   * Its placeholder in the JSON serializeJson is writing: JSON.stringify calls this itself, where
   * a replacer would be called for every key of every body (the suite's bodies carry 200,000
   * characters), which made writing the cases costlier than sending them.
   */
  toJSON(): string {
    if (!splicing) throw new Error('A RawFragment is written by serializeJson only');
    splicing.push(this);
    return `__fuzz_raw_${splicing.length - 1}__`;
  }
}

const RAW_PLACEHOLDER = /"__fuzz_raw_(\d+)__"/g;
/** The fragments of the value serializeJson is writing (it runs at once, never two at a time). */
let splicing: RawFragment[] | null = null;

/** JSON text of a value, with each RawFragment spliced in as its raw bytes. */
export function serializeJson(value: unknown): Buffer {
  const raws: RawFragment[] = [];
  splicing = raws;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } finally {
    splicing = null;
  }
  if (text === undefined) return Buffer.alloc(0);
  if (raws.length === 0) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let last = 0;
  for (const match of text.matchAll(RAW_PLACEHOLDER)) {
    parts.push(Buffer.from(text.slice(last, match.index), 'utf8'));
    parts.push(raws[Number(match[1])]?.bytes ?? Buffer.alloc(0));
    last = match.index + match[0].length;
  }
  parts.push(Buffer.from(text.slice(last), 'utf8'));
  return Buffer.concat(parts);
}

function utf8Bytes(codePoint: number): number[] {
  if (codePoint < 0x80) return [codePoint];
  if (codePoint < 0x800) return [0xc0 | (codePoint >> 6), 0x80 | (codePoint & 63)];
  if (codePoint < 0x10000) {
    return [0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 63), 0x80 | (codePoint & 63)];
  }
  return [
    0xf0 | (codePoint >> 18),
    0x80 | ((codePoint >> 12) & 63),
    0x80 | ((codePoint >> 6) & 63),
    0x80 | (codePoint & 63),
  ];
}

/**
 * Percent-encodes a string for a path or query. Unlike encodeURIComponent it does not throw on
 * a lone surrogate: it writes it as the three bytes a careless client sends (%ED%A0%80).
 */
export function percentEncode(text: string): string {
  if (text.length < LONG_TEXT) return encodeOnce(text);
  let encoded = encodedLong.get(text);
  if (encoded === undefined) {
    encoded = encodeOnce(text);
    encodedLong.set(text, encoded);
  }
  return encoded;
}

/**
 * The long values' encodings, written once: the same few (200,000 characters at most) are
 * encoded for every query key of every route.
 */
const LONG_TEXT = 1_000;
const encodedLong = new Map<string, string>();

function encodeOnce(text: string): string {
  // Well-formed text (all but lone surrogates) as encodeURIComponent writes it, with the five
  // characters it leaves as they are escaped too: the same bytes, written at native speed (the
  // suite encodes 200,000-character values for every query key of every route).
  try {
    return encodeURIComponent(text).replace(
      /[!'()*]/g,
      (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
    );
  } catch {
    // A lone surrogate (URIError): written below, byte by byte.
  }
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    let codePoint = unit;
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      codePoint = 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00);
      i += 1;
    }
    if (codePoint < 0x80 && /^[A-Za-z0-9\-._~]$/.test(String.fromCharCode(codePoint))) {
      out += String.fromCharCode(codePoint);
    } else {
      out += utf8Bytes(codePoint)
        .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
        .join('');
    }
  }
  return out;
}

const nested = (open: string, close: string, depth: number) =>
  RawFragment.text(open.repeat(depth) + close.repeat(depth));

/** `[[[…]]]` and `{"a":{"a":…}}`, depth levels deep. */
export const deepArray = (depth: number) => nested('[', ']', depth);
export const deepObject = (depth: number) =>
  RawFragment.text(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

/** A JSON string whose bytes are not UTF-8 (or are WTF-8: a lone surrogate written raw). */
const rawStringBytes = (...bytes: number[]) =>
  new RawFragment(Buffer.concat([Buffer.from('"a'), Buffer.from(bytes), Buffer.from('b"')]));

// ---------------------------------------------------------------------------------------------
// Bad values: fixed lists (every run) and fast-check arbitraries (seeded samples)

type TLabelled<T> = ReadonlyArray<readonly [label: string, value: T]>;

export const BAD_STRINGS: TLabelled<string> = [
  ['NUL', 'a\u0000b'],
  ['only NUL', '\u0000'],
  ['lone high surrogate', '\ud800'],
  ['lone low surrogate', 'a\udc00b'],
  ['reversed surrogate pair', '\udc00\ud800'],
  ['C0 control characters', 'a\u0001\u0008\u001b[31mb'],
  ['DEL and C1 controls', '\u007f\u0085\u009b'],
  ['line breaks and tab', 'a\r\nb\tc'],
  ['bidi override', '\u202egnp.exe'],
  ['zero-width and BOM', '\ufeff\u200b\u200d'],
  ['noncharacters', '\ufffe\uffff'],
  ['astral emoji', '💸👨‍👩‍👧𝕏'],
  ['Yoruba, Arabic and CJK', 'Ọ̀ṣẹ́ مرحبا 你好'],
  ['empty', ''],
  ['spaces only', '   '],
  ['10k ASCII', 'a'.repeat(10_000)],
  ['10k astral', '💸'.repeat(5_000)],
  ['200k ASCII', 'x'.repeat(200_000)],
  ['SQL and LIKE metacharacters', "' OR 1=1; -- %_\\"],
  ['HTML', '<script>alert(1)</script>'],
  ['percent escapes', '%00%ED%A0%80%zz'],
  ['__proto__', '__proto__'],
];

/** Dates at and past the edges of what JavaScript, PostgreSQL and ISO 8601 agree on. */
export const BAD_DATES: TLabelled<string> = [
  ['year 0000', '0000-01-01T00:00:00Z'],
  ['year 0000 (date)', '0000-01-01'],
  ['year +275760', '+275760-09-13T00:00:00Z'],
  ['past the last JS date', '+275760-09-13T00:00:00.001Z'],
  ['year -271821', '-271821-04-20T00:00:00Z'],
  ['year 9999', '9999-12-31T23:59:59Z'],
  ['year 9999 (date)', '9999-12-31'],
  ['epoch', '1970-01-01T00:00:00Z'],
  ['February 30', '2027-02-30T00:00:00Z'],
  ['month 13', '2027-13-01T00:00:00Z'],
  ['hour 24', '2027-01-01T24:00:00Z'],
  ['leap second', '2016-12-31T23:59:60Z'],
  ['offset +99:99', '2027-01-01T00:00:00+99:99'],
  ['nanoseconds', '2027-01-01T00:00:00.123456789Z'],
  ['not a date', 'not a date'],
];

/** Any field, whatever its type: the type a careless client sends instead. */
export const WRONG_TYPES: TLabelled<unknown> = [
  ['string', 'abc'],
  ['NUL string', '\u0000'],
  ['number', 12_345],
  ['zero', 0],
  ['negative number', -1],
  ['float', 1.5],
  ['huge number', 1e308],
  ['tiny number', 5e-324],
  ['true', true],
  ['false', false],
  ['null', null],
  ['empty array', []],
  ['array of mixed values', [null, 1, 'a', {}]],
  ['empty object', {}],
  ['object', { a: 'b' }],
  ['nested 5,000 deep (arrays)', deepArray(5_000)],
  ['nested 5,000 deep (objects)', deepObject(5_000)],
];

export const BAD_NUMBERS: TLabelled<unknown> = [
  ['int32 overflow', 2_147_483_648],
  ['unsafe integer', 2 ** 53 + 2],
  ['int64 overflow', RawFragment.text('9223372036854775808')],
  ['1e999 (Infinity)', RawFragment.text('1e999')],
  ['-1e999 (-Infinity)', RawFragment.text('-1e999')],
  ['-0', RawFragment.text('-0')],
  ['30 digits', RawFragment.text('123456789012345678901234567890')],
  ['numeric string', '1'],
];

const STRING_BYTES: TLabelled<unknown> = [
  ['invalid UTF-8 bytes', rawStringBytes(0xff, 0xfe)],
  ['lone surrogate as raw bytes', rawStringBytes(0xed, 0xa0, 0x80)],
  ['escaped NUL', RawFragment.text('"a\\u0000b"')],
];

/** The kinds known to break servers like this one; the mutation budget never drops them. */
const PRIORITY_LABELS = new Set([
  'NUL',
  'lone high surrogate',
  'C0 control characters',
  '10k ASCII',
  'invalid UTF-8 bytes',
  'number',
  'null',
  'object',
  'array of mixed values',
  'nested 5,000 deep (arrays)',
  'year 0000',
  'year +275760',
  'year 9999',
  'February 30',
  'int32 overflow',
  '1e999 (Infinity)',
  '50,000 items',
  'missing',
]);

/**
 * The kinds every field, query key and path parameter gets whatever the cap per route
 * (`spread`): the NUL byte and lone surrogate the database refuses, an integer past the
 * database's int4 columns, and a list cursor of a time and an id the database cannot take. Each
 * once broke this server with a 500.
 */
const ALWAYS_LABELS = new Set([
  'NUL',
  'lone high surrogate',
  'int32 overflow',
  'base64url of a year -5000 time and a NUL',
]);

const SPECIAL_UNITS = [
  '\u0000',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\u0001',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u200b',
  '\u202e',
  '\u2028',
  '\ufeff',
  '\ufffe',
  '\uffff',
  '%',
  '\\',
  '"',
  "'",
  '<',
  '&',
  '\n',
  '\r',
  '\t',
];

/** Short strings rich in what breaks storage and rendering: NUL, lone surrogates, controls. */
export const junkStringArb: fc.Arbitrary<string> = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...SPECIAL_UNITS),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
  ),
  maxLength: 24,
});

/** Junk strings, sometimes repeated past 10,000 characters. */
const junkOrLongArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: junkStringArb },
  {
    weight: 1,
    arbitrary: junkStringArb
      .filter((s) => s.length > 0)
      .map((s) => s.repeat(10_000 / s.length + 1)),
  },
);

/** Any JSON-able value a careless client might send in a field. */
const junkValueArb: fc.Arbitrary<unknown> = fc.oneof(
  junkOrLongArb,
  fc.jsonValue({ maxDepth: 3 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -(2 ** 31), max: 2 ** 40 }),
);

/** Header values as HTTP can carry them: visible ASCII, tab and obs-text (latin-1) bytes. */
const headerValueArb: fc.Arbitrary<string> = fc.string({
  unit: fc
    .oneof(
      fc.integer({ min: 0x20, max: 0x7e }),
      fc.integer({ min: 0x80, max: 0xff }),
      fc.constant(9),
    )
    .map((code) => String.fromCharCode(code)),
  maxLength: 80,
});

function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** A seed per route and purpose: adding a route does not change another route's inputs. */
const seedFor = (routeKey: string, purpose: string) =>
  (FUZZ_SEED ^ hashString(`${routeKey} ${purpose}`)) | 0;

const sampleOf = <T>(arb: fc.Arbitrary<T>, routeKey: string, purpose: string, numRuns: number) =>
  fc.sample(arb, { seed: seedFor(routeKey, purpose), numRuns });

// ---------------------------------------------------------------------------------------------
// zod v4 introspection: a valid-looking value of a schema, and the fields of that value

type TZod = z.core.$ZodType;

/**
 * Values by field name that get a request past the first checks (a real clientId, …); a path
 * parameter or query key of one route only by `${url} ${name}`, a record's key by `${name}[key]`.
 */
export type THints = Record<string, string>;

export const isZodSchema = (value: unknown): value is TZod =>
  typeof value === 'object' && value !== null && '_zod' in value;

const ISO_SAMPLES: Record<string, string> = {
  datetime: '2027-01-01T09:00:00Z',
  date: '2027-01-01',
  email: 'payer@example.com',
  url: 'https://example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
};

function bagMinimum(schema: TZod): number | undefined {
  const bag = (schema._zod as { bag?: { minimum?: unknown } }).bag;
  return typeof bag?.minimum === 'number' ? bag.minimum : undefined;
}

function sampleString(schema: TZod): string {
  const format = (schema._zod.def as { format?: string }).format;
  if (format && ISO_SAMPLES[format]) return ISO_SAMPLES[format];
  return 'a'.repeat(Math.max(3, bagMinimum(schema) ?? 0));
}

/** Schemas that only wrap another one (optional, default, …): the one they wrap. */
function innerOf(schema: TZod): TZod | undefined {
  const def = schema._zod.def as {
    innerType?: TZod;
    in?: TZod;
    getter?: () => TZod;
  };
  return def.innerType ?? def.in ?? def.getter?.();
}

/** How many valid-looking bodies a schema gets: enough to show each option of most unions. */
const SAMPLE_VARIANTS = 6;

/**
 * A value the schema probably accepts. `variant` picks the option of every union, so variants
 * 0..n-1 together show each option; optional fields are always present so they can be mutated.
 */
export function sampleValue(
  schema: TZod,
  variant: number,
  hints: THints,
  name = '',
  depth = 0,
): unknown {
  if (depth > 12) return null;
  const def = schema._zod.def;
  switch (def.type) {
    case 'string':
      return hints[name] ?? sampleString(schema);
    case 'number':
    case 'int':
      return Math.max(1, bagMinimum(schema) ?? 1);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'literal':
      return (def as z.core.$ZodLiteralDef<z.core.util.Literal>).values[0];
    case 'enum':
      return Object.values((def as z.core.$ZodEnumDef).entries)[0];
    case 'object':
      return Object.fromEntries(
        Object.entries((def as z.core.$ZodObjectDef).shape).map(([key, field]) => [
          key,
          sampleValue(field, variant, hints, key, depth + 1),
        ]),
      );
    case 'array':
      return [sampleValue((def as z.core.$ZodArrayDef).element, variant, hints, name, depth + 1)];
    case 'tuple':
      return (def as z.core.$ZodTupleDef).items.map((item) =>
        sampleValue(item, variant, hints, name, depth + 1),
      );
    case 'record': {
      // One entry (its key a hint such as `answers[key]`, else a sample of the key's schema), so
      // nested values are fuzzed too; none in the last variant, as a client may send.
      if (variant === SAMPLE_VARIANTS - 1) return {};
      const record = def as z.core.$ZodRecordDef;
      const key = hints[`${name}[key]`] ?? sampleValue(record.keyType, 0, hints, name, depth + 1);
      const entry = String(key);
      return { [entry]: sampleValue(record.valueType, variant, hints, entry, depth + 1) };
    }
    case 'union': {
      const options = (def as z.core.$ZodUnionDef).options;
      const option = options[variant % options.length];
      return option ? sampleValue(option, variant, hints, name, depth + 1) : null;
    }
    case 'intersection': {
      const both = def as z.core.$ZodIntersectionDef;
      const left = sampleValue(both.left, variant, hints, name, depth + 1);
      const right = sampleValue(both.right, variant, hints, name, depth + 1);
      return isPlainObject(left) && isPlainObject(right) ? { ...left, ...right } : left;
    }
    default: {
      const inner = innerOf(schema);
      return inner ? sampleValue(inner, variant, hints, name, depth + 1) : 'abc';
    }
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Valid-looking bodies of a schema, one per union option (deduplicated). */
export function sampleBodies(schema: TZod, hints: THints): unknown[] {
  const seen = new Map<string, unknown>();
  for (let variant = 0; variant < SAMPLE_VARIANTS; variant += 1) {
    const body = sampleValue(schema, variant, hints);
    seen.set(JSON.stringify(body), body);
  }
  return [...seen.values()];
}

/** The fields of an object schema (through optional, pipe, …); none for anything else. */
function objectShape(schema: unknown): Record<string, TZod> {
  if (!isZodSchema(schema)) return {};
  if (schema._zod.def.type === 'object') return (schema._zod.def as z.core.$ZodObjectDef).shape;
  const inner = innerOf(schema);
  return inner ? objectShape(inner) : {};
}

/** Keys of an object schema (through optional, pipe, …); none for anything else. */
export const objectKeys = (schema: unknown): string[] => Object.keys(objectShape(schema));

type TPath = Array<string | number>;
type TField = { path: TPath; sample: unknown };

/** Every field of a value, nested ones too (arrays through their first item). */
export function fieldsOf(value: unknown, at: TPath = []): TField[] {
  const children: Array<[string | number, unknown]> = Array.isArray(value)
    ? value.slice(0, 1).map((item, index) => [index, item])
    : isPlainObject(value)
      ? Object.entries(value)
      : [];
  return children.flatMap(([key, child]) => [
    { path: [...at, key], sample: child },
    ...fieldsOf(child, [...at, key]),
  ]);
}

/** A copy of a JSON value with one field replaced (or removed, for undefined). */
export function withField(base: unknown, at: TPath, value: unknown): unknown {
  const copy: unknown = structuredClone(base);
  let holder = copy as Record<string | number, unknown>;
  for (const key of at.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>;
  const last = at[at.length - 1];
  if (last === undefined) return value;
  if (value === undefined) delete holder[last];
  else holder[last] = value;
  return copy;
}

/** A date field: its sample is an ISO date, or its name says date (dueDate, expiresAt). */
const isDateField = (sample: unknown, name: string | number | undefined) =>
  typeof sample === 'string' &&
  (/^\d{4}-\d{2}-\d{2}/.test(sample) || /date|At$/i.test(String(name ?? '')));

/** Bad values for one field, chosen by what the field holds in the valid-looking body. */
export function badValuesFor(sample: unknown, name?: string | number): TLabelled<unknown> {
  const values: Array<readonly [string, unknown]> = [...WRONG_TYPES, ['missing', undefined]];
  if (typeof sample === 'string') values.push(...BAD_STRINGS, ...STRING_BYTES);
  if (isDateField(sample, name)) values.push(...BAD_DATES);
  if (typeof sample === 'number') values.push(...BAD_NUMBERS);
  if (Array.isArray(sample)) {
    const item: unknown = sample[0] ?? 'abc';
    values.push(
      ['50,000 items', Array.from({ length: 50_000 }, () => item)],
      ['1,000 items', Array.from({ length: 1_000 }, () => item)],
      ['items of null', [null, null]],
    );
  }
  if (isPlainObject(sample)) {
    values.push(
      ['unknown extra key', { ...sample, zzUnknown: 1 }],
      ['__proto__ key', RawFragment.text('{"__proto__":{"polluted":true}}')],
      ['constructor.prototype key', { constructor: { prototype: { polluted: true } } }],
    );
  }
  return values;
}

// ---------------------------------------------------------------------------------------------
// Route plans: a route, its valid-looking request, and what gets past its guard

export type TAuthKind = 'none' | 'bearer' | 'basic' | 'operator' | 'staff';

export type TRoutePlan = {
  route: TRouteEntry;
  key: string;
  /** Kind of credentials that got past the route's guard in the probe. */
  authKind: TAuthKind;
  /** Headers that get past the route's guard ({} when none is needed). */
  auth: Record<string, string>;
  /** Path parameter values, already URL-encoded. */
  params: Record<string, string>;
  /** Query of a valid-looking request, already URL-encoded. */
  query: Array<[string, string]>;
  queryKeys: string[];
  /** Valid-looking bodies (one per union option); empty when the route declares no body. */
  bodies: unknown[];
  /** The route serves a file of the built page. */
  servesFile: boolean;
  /** The route uses its token or session up (logout, sign-out): each case needs its own. */
  tokenPerCase?: boolean;
};

export const routeKey = (route: Pick<TRouteEntry, 'method' | 'url'>) =>
  `${route.method} ${route.url}`;

const PARAM = /:([A-Za-z0-9_]+)(\([^)]*\))?|\*/g;

export function paramNames(url: string): string[] {
  return [...url.matchAll(PARAM)].map((match) => match[1] ?? '*');
}

export function fillPath(url: string, values: Record<string, string>): string {
  return url.replace(PARAM, (whole, name: string | undefined) => values[name ?? '*'] ?? whole);
}

/** The hints of one route: those for every route, over them those named for its URL, and over
 * those the ones named for its method and URL (`DELETE /api/x/:id id`). */
function hintsFor(route: Pick<TRouteEntry, 'method' | 'url'>, hints: THints): THints {
  const named = (prefix: string) =>
    Object.entries(hints)
      .filter(([name]) => name.startsWith(prefix))
      .map(([name, value]) => [name.slice(prefix.length), value]);
  return {
    ...hints,
    ...Object.fromEntries(named(`${route.url} `)),
    ...Object.fromEntries(named(`${route.method} ${route.url} `)),
  };
}

/** The valid-looking request of a route, before its guard is known. */
export function planRoute(route: TRouteEntry, hints: THints, servesFile = false): TRoutePlan {
  const schema = route.schema ?? {};
  const routeHints = hintsFor(route, hints);
  const hint = (name: string) => percentEncode(routeHints[name] ?? 'abc');
  const params = Object.fromEntries(paramNames(route.url).map((name) => [name, hint(name)]));
  // The valid-looking query: each key with its hint; without one, a required key gets a sample
  // of its schema and an optional one is left out (a made-up cursor or status would make every
  // case of the route a 400 before the route's work).
  const shape = objectShape(schema.querystring);
  const queryKeys = Object.keys(shape);
  const query = queryKeys.flatMap((key): Array<[string, string]> => {
    const field = shape[key];
    if (routeHints[key] !== undefined || !field) return [[key, hint(key)]];
    if (field._zod.optin === 'optional') return [];
    return [[key, percentEncode(String(sampleValue(field, 0, routeHints, key)))]];
  });
  const bodies = isZodSchema(schema.body) ? sampleBodies(schema.body, routeHints) : [];
  return {
    route,
    key: routeKey(route),
    authKind: 'none',
    auth: {},
    servesFile,
    params,
    query,
    queryKeys,
    bodies,
  };
}

// ---------------------------------------------------------------------------------------------
// Cases: one generated request each

export type TFuzzCase = {
  routeKey: string;
  /** What is bad about the request, e.g. `body.payments.0.narration = NUL`. */
  kind: string;
  /** A short look at the generated value, for cases where the kind does not say it. */
  input?: string;
  /** Kept whatever the cap per route (`spread`): a kind that once broke the server. */
  keep?: boolean;
  /** A method the route's path does not take: the methods its 405 must list in Allow. */
  allows?: string[];
  request: InjectOptions;
};

type TOverrides = {
  method?: string;
  path?: string;
  /** The whole query string, without `?` (always sent, even empty); undefined: the valid one. */
  query?: string;
  headers?: Record<string, string | undefined>;
  /** The body; undefined keeps the valid one. */
  payload?: Buffer | string;
};

const queryString = (pairs: Array<[string, string]>) =>
  pairs.map(([k, v]) => `${k}=${v}`).join('&');

/** The route's valid-looking request with some parts replaced. */
export function requestOf(plan: TRoutePlan, over: TOverrides = {}): InjectOptions {
  const pathPart = over.path ?? fillPath(plan.route.url, plan.params);
  const query = over.query ?? queryString(plan.query);
  const url = over.query !== undefined || query ? `${pathPart}?${query}` : pathPart;
  const body = plan.bodies[0];
  const payload = over.payload ?? (body === undefined ? undefined : serializeJson(body));
  const merged: Record<string, string | undefined> = {
    ...plan.auth,
    ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    ...over.headers,
  };
  // An undefined header is one the case leaves out (no Authorization, no Content-Type).
  const headers = Object.fromEntries(
    Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return {
    method: over.method ?? plan.route.method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload }),
  };
}

const preview = (value: unknown) => {
  const text = typeof value === 'string' ? value : String(JSON.stringify(value));
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}… (${text.length} chars)` : text);
};

/** Path parameter values, written as they travel in the URL. */
const PATH_VALUES: TLabelled<string> = [
  ['NUL', '%00'],
  ['NUL inside', 'cns_%00x'],
  ['lone high surrogate', '%ED%A0%80'],
  ['lone low surrogate', '%ED%B0%80'],
  ['overlong NUL', '%C0%80'],
  ['byte FF', '%FF'],
  ['truncated UTF-8 (%E0%A4%A)', '%E0%A4%A'],
  ['not hex (%zz)', '%zz'],
  ['lone percent', '%'],
  ['control characters', '%01%1B%7F'],
  ['line break', 'a%0D%0Ab'],
  ['encoded slash', 'a%2Fb'],
  ['dot segments', '..%2F..%2Fetc%2Fpasswd'],
  ['encoded dots', '%2e%2e'],
  ['spaces', '%20%20'],
  ['plus', 'a+b'],
  ['semicolon', 'a;b=c'],
  ['astral emoji', percentEncode('💸')],
  ['HTML', percentEncode('<script>alert(1)</script>')],
  ['__proto__', '__proto__'],
  ['100 chars', 'x'.repeat(100)],
  ['101 chars', 'x'.repeat(101)],
  ['1,000 chars', 'x'.repeat(1_000)],
  ['10,000 chars', 'x'.repeat(10_000)],
  ['1,000 encoded NULs', '%00'.repeat(1_000)],
  ['5,000 encoded letters', '%41'.repeat(5_000)],
  ['int32 overflow', '2147483648'],
  ['int64 overflow', '9223372036854775808'],
];

export function pathCases(plan: TRoutePlan): TFuzzCase[] {
  return paramNames(plan.route.url).flatMap((name) => {
    const at = (raw: string) => fillPath(plan.route.url, { ...plan.params, [name]: raw });
    const fixed = PATH_VALUES.map(([label, raw]) => ({
      routeKey: plan.key,
      kind: `path :${name} = ${label}`,
      keep: ALWAYS_LABELS.has(label),
      request: requestOf(plan, { path: at(raw) }),
    }));
    const random = sampleOf(junkOrLongArb, plan.key, `path ${name}`, runsFor(plan).pathParam).map(
      (value) => ({
        routeKey: plan.key,
        kind: `path :${name} = random junk string`,
        input: preview(value),
        request: requestOf(plan, { path: at(percentEncode(value)) }),
      }),
    );
    return [...fixed, ...random];
  });
}

/** Query values, written as they travel in the URL. */
const QUERY_VALUES: TLabelled<string> = [
  ['NUL', '%00'],
  ['NUL inside', 'a%00b'],
  ['lone high surrogate', '%ED%A0%80'],
  ['lone low surrogate', '%ED%B0%80'],
  ['overlong NUL', '%C0%80'],
  ['byte FF', '%FF'],
  ['truncated UTF-8 (%E0%A4%A)', '%E0%A4%A'],
  ['not hex (%zz)', '%zz'],
  ['lone percent', '%'],
  ['empty', ''],
  ['plus', '+'],
  ['control characters', '%01%1B%7F'],
  ['CRLF', 'a%0D%0Ab'],
  ['1,000 chars', 'x'.repeat(1_000)],
  ['10,000 chars', 'x'.repeat(10_000)],
  ['10k astral', percentEncode('💸'.repeat(2_500))],
  ['HTML', percentEncode('<script>alert(1)</script>')],
  ['__proto__', '__proto__'],
  ['year 0000', percentEncode('0000-01-01T00:00:00Z')],
  ['1e999', '1e999'],
  ['int32 overflow', '2147483648'],
  ['int64 overflow', '9223372036854775808'],
  ['negative int32 overflow', '-2147483649'],
  // What an opaque cursor decodes to: a time and an id the database cannot take.
  [
    'base64url of a year -5000 time and a NUL',
    Buffer.from('-005000-01-01T00:00:00Z|a\u0000b').toString('base64url'),
  ],
];

/** The short list for keys the route does not declare: what crashed routes that read them. */
const QUERY_SHORT = new Set(['NUL', 'lone high surrogate', 'not hex (%zz)', '10,000 chars']);

const repeats = (key: string, valid: string): TLabelled<string> => [
  ['repeated', `${key}=${valid}&${key}=b`],
  ['repeated three times', `${key}=a&${key}=a&${key}=a`],
  ['repeated empty', `${key}=&${key}=`],
  ['repeated with NUL and surrogate', `${key}=%00&${key}=%ED%A0%80`],
  ['bracket array', `${key}[]=a&${key}[]=b`],
  ['bracket object', `${key}[a]=b`],
  ['without =', key],
  ['repeated 1,000 times', Array.from({ length: 1_000 }, () => `${key}=a`).join('&')],
];

const WHOLE_QUERIES: TLabelled<string> = [
  ['only ?', ''],
  ['only separators', '&&&'],
  ['only =', '='],
  ['empty key', '=x'],
  ['key not hex (%zz)', '%zz'],
  ['key and value not hex', '%zz=%zz'],
  ['NUL key', '%00=1'],
  ['lone surrogate key', '%ED%A0%80=1'],
  ['1,000 distinct keys', Array.from({ length: 1_000 }, (_v, i) => `k${i}=${i}`).join('&')],
  ['10,000 chars without =', 'x'.repeat(10_000)],
  ['__proto__ key', '__proto__[polluted]=1&__proto__=x'],
  ['Object.prototype names', 'constructor=x&hasOwnProperty=x&toString=x&valueOf=x'],
];

/** The query of a route with one key's pairs replaced by a raw part. */
function queryWith(plan: TRoutePlan, key: string, part: string): string {
  return [queryString(plan.query.filter(([name]) => name !== key)), part].filter(Boolean).join('&');
}

function keyCases(plan: TRoutePlan, key: string, full: boolean): TFuzzCase[] {
  const valid = plan.query.find(([name]) => name === key)?.[1] ?? 'abc';
  const values = full ? QUERY_VALUES : QUERY_VALUES.filter(([label]) => QUERY_SHORT.has(label));
  const repeated = full ? repeats(key, valid) : repeats(key, valid).slice(0, 1);
  return [
    ...values.map(([label, raw]): [string, string] => [label, `${key}=${raw}`]),
    ...repeated,
  ].map(([label, part]) => ({
    routeKey: plan.key,
    kind: `query ${key} = ${label}`,
    // A key the route declares always gets the kinds that once broke the server.
    keep: full && ALWAYS_LABELS.has(label),
    request: requestOf(plan, { query: queryWith(plan, key, part) }),
  }));
}

/** Query junk: every key the route declares in full; every key any route declares, short. */
export function queryCases(plan: TRoutePlan, globalKeys: string[]): TFuzzCase[] {
  const others = globalKeys.filter((key) => !plan.queryKeys.includes(key));
  const keys = [...plan.queryKeys, ...others];
  const whole = WHOLE_QUERIES.map(([label, query]) => ({
    routeKey: plan.key,
    kind: `query: ${label}`,
    request: requestOf(plan, { query }),
  }));
  const random = sampleOf(
    fc.tuple(fc.constantFrom(...(keys.length > 0 ? keys : ['q'])), junkOrLongArb),
    plan.key,
    'query',
    runsFor(plan).query,
  ).map(([key, value]) => ({
    routeKey: plan.key,
    kind: `query ${key} = random junk string`,
    input: preview(value),
    request: requestOf(plan, { query: queryWith(plan, key, `${key}=${percentEncode(value)}`) }),
  }));
  return [
    ...plan.queryKeys.flatMap((key) => keyCases(plan, key, true)),
    ...others.flatMap((key) => keyCases(plan, key, false)),
    ...whole,
    ...random,
  ];
}

const base64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');
const basic = (credentials: Buffer | string) => `Basic ${base64(credentials)}`;
const base64url = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url');

/** Authorization headers no one registered: every route must refuse or ignore them alike. */
const JUNK_AUTHORIZATIONS: TLabelled<string | undefined> = [
  ['no Authorization', undefined],
  ['Basic without credentials', 'Basic'],
  ['Basic, only spaces after', 'Basic     '],
  ['Basic, bad base64', 'Basic !!!not*base64'],
  ['Basic, only padding', 'Basic ===='],
  ['Basic, no colon', basic('cli_nobody')],
  ['Basic, empty clientId', basic(':sk_x')],
  ['Basic, clientId with NUL', basic('cli_\u0000x:sk_x')],
  [
    'Basic, clientId a lone surrogate (WTF-8 bytes)',
    basic(Buffer.from([0xed, 0xa0, 0x80, 0x3a, 0x78])),
  ],
  ['Basic, clientId a lone surrogate (UTF-16 text)', basic('\ud800:sk_x')],
  ['Basic, clientId byte FF', basic(Buffer.from([0xff, 0xfe, 0x3a, 0x78]))],
  ['Basic, clientId with control characters', basic('cli_\u001b[31m\u007f:sk_x')],
  ['Basic, clientId 10k long', basic(`${'a'.repeat(10_000)}:sk_x`)],
  ['Basic, unknown client', basic('cli_nobody:sk_x')],
  ['Basic, two credentials', `${basic('a:b')}, ${basic('c:d')}`],
  ['Bearer, empty', 'Bearer '],
  ['Bearer, junk', 'Bearer junk'],
  ['Bearer, three dots', 'Bearer a.b.c'],
  [
    'Bearer, alg none',
    `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: 'pay_x', sid: 'ses_x' })}.`,
  ],
  [
    'Bearer, claims of wrong types',
    `Bearer ${base64url({ alg: 'ES256' })}.${base64url({ sub: ['\u0000'], sid: { a: 1 }, exp: 'x' })}.c2ln`,
  ],
  ['Bearer, 10k long', `Bearer ${'a'.repeat(10_000)}`],
  ['Bearer, latin-1 bytes', 'Bearer \u00ff\u00fe\u0080'],
  ['unknown scheme', 'Digest username="x", realm="y"'],
  ['scheme only', 'Bearer'],
];

/** Variations of the route's own valid credentials (real clientId, real token). */
function credentialVariations(plan: TRoutePlan, fixtures: TFixtures): TLabelled<string> {
  if (plan.authKind === 'basic') {
    const clientId = fixtures.merchant.clientId;
    return [
      ['Basic, real client, wrong secret', basic(`${clientId}:sk_wrong`)],
      ['Basic, real client, empty secret', basic(`${clientId}:`)],
      ['Basic, real client, NUL secret', basic(`${clientId}:\u0000`)],
      ['Basic, real client, 10k secret', basic(`${clientId}:${'s'.repeat(10_000)}`)],
      ['Basic, lowercase scheme', `basic ${base64(`${clientId}:${fixtures.merchant.secret}`)}`],
    ];
  }
  if (plan.authKind === 'operator') {
    const token = FUZZ_OPERATOR_TOKEN;
    return [
      ['operator, token with one character changed', `Bearer ${token.slice(0, -1)}x`],
      ['operator, token with a character more', `Bearer ${token}x`],
      ['operator, token as Basic', `Basic ${token}`],
      ['operator, token twice', `Bearer ${token} ${token}`],
      ['operator, a client secret instead', `Bearer ${fixtures.merchant.secret}`],
    ];
  }
  if (plan.authKind === 'bearer') {
    const token = plan.auth.authorization?.replace(/^Bearer /, '') ?? '';
    return [
      ['Bearer, valid token with one character changed', `Bearer ${flipped(token)}`],
      [
        'Bearer, valid token without signature',
        `Bearer ${token.split('.').slice(0, 2).join('.')}.`,
      ],
      ['Bearer, valid token twice', `Bearer ${token} ${token}`],
      ['Bearer, valid token as Basic', `Basic ${token}`],
      ['Bearer, lowercase scheme', `bearer ${token}`],
    ];
  }
  return [];
}

/** The text with one of its last characters changed: a token that almost matches. */
const flipped = (text: string) =>
  `${text.slice(0, -3)}${text.slice(-3, -2) === 'A' ? 'B' : 'A'}${text.slice(-2)}`;

/** Variations of a dashboard session's cookie, CSRF token and Origin, or of the Origin alone of
 * a call only our page may make (the others stay valid). */
function staffVariations(
  plan: TRoutePlan,
  fixtures: TFixtures,
): TLabelled<Record<string, string | undefined>> {
  const { cookie = '', [CSRF_HEADER]: csrf = '', origin } = plan.auth;
  const origins: TLabelled<Record<string, string | undefined>> = [
    ['Origin, missing', { origin: undefined }],
    ['Origin, another site', { origin: 'https://evil.example' }],
    ['Origin, null', { origin: 'null' }],
    ['Origin, ours with a path', { origin: `${origin}/` }],
    ['Origin, latin-1 bytes', { origin: '\u00ff\u00fe' }],
  ];
  if (plan.authKind !== 'staff') return origin === undefined ? [] : origins;
  const at = cookie.indexOf('=');
  const [name, token] = [cookie.slice(0, at), cookie.slice(at + 1)];
  const { signedOut, codeSession } = fixtures.staff;
  return [
    ['session, no cookie', { cookie: undefined }],
    ['session, token with one character changed', { cookie: `${name}=${flipped(token)}` }],
    ['session, token 10k long', { cookie: `${name}=${'a'.repeat(10_000)}` }],
    ['session, token with latin-1 bytes', { cookie: `${name}=\u00ff\u00fe${token.slice(2)}` }],
    ['session, the cookie twice', { cookie: `${cookie}; ${cookie}` }],
    ['session, a junk cookie of the name first', { cookie: `${name}=junk; ${cookie}` }],
    ['session, under the __Secure- name', { cookie: `__Secure-${cookie}` }],
    ['session, signed out', { cookie: signedOut.cookie, [CSRF_HEADER]: signedOut[CSRF_HEADER] }],
    ['session, an SMS code’s (no passkey yet)', { ...codeSession }],
    ['CSRF, missing', { [CSRF_HEADER]: undefined }],
    ['CSRF, empty', { [CSRF_HEADER]: '' }],
    ['CSRF, one character changed', { [CSRF_HEADER]: flipped(csrf) }],
    ['CSRF, another session’s', { [CSRF_HEADER]: codeSession[CSRF_HEADER] }],
    ['CSRF, its length in latin-1 bytes', { [CSRF_HEADER]: `\u00ff${csrf.slice(1)}` }],
    ['CSRF, twice', { [CSRF_HEADER]: `${csrf}, ${csrf}` }],
    ['CSRF, 10k chars', { [CSRF_HEADER]: 'c'.repeat(10_000) }],
    ...origins,
  ];
}

/** Other headers the app reads, with junk; the valid credentials stay. */
const JUNK_HEADERS: TLabelled<Record<string, string>> = [
  ['Idempotency-Key empty', { 'idempotency-key': '' }],
  ['Idempotency-Key spaces', { 'idempotency-key': '   ' }],
  ['Idempotency-Key 201 chars', { 'idempotency-key': 'k'.repeat(201) }],
  ['Idempotency-Key 10k chars', { 'idempotency-key': 'k'.repeat(10_000) }],
  ['Idempotency-Key latin-1 bytes', { 'idempotency-key': '\u00ff\u00fe\u0080' }],
  ['Idempotency-Key tab', { 'idempotency-key': 'a\tb' }],
  ['x-identify-to empty', { 'x-identify-to': '' }],
  ['x-identify-to unknown merchant', { 'x-identify-to': 'mer_nobody' }],
  ['x-identify-to 10k chars', { 'x-identify-to': 'm'.repeat(10_000) }],
  ['x-identify-to latin-1 bytes', { 'x-identify-to': '\u00ff\u00fe\u0080' }],
  ['X-Forwarded-For not an address', { 'x-forwarded-for': 'not-an-ip, , ,' }],
  ['X-Forwarded-For 10k chars', { 'x-forwarded-for': '1.'.repeat(5_000) }],
  ['X-Forwarded-Host junk', { 'x-forwarded-host': 'evil.example:99999' }],
  ['X-Forwarded-Proto junk', { 'x-forwarded-proto': 'javascript' }],
  ['Host junk', { host: '\u00ff:0' }],
  ['Accept junk', { accept: 'application/xml;q=junk, */*;q=' }],
  ['Cookie junk', { cookie: 'a=%00; b; =c; ' + 'd'.repeat(5_000) }],
];

const HEADER_NAMES = [
  'authorization',
  'idempotency-key',
  'x-identify-to',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'accept',
  'cookie',
  'origin',
  'referer',
  CSRF_HEADER,
];

export function headerCases(plan: TRoutePlan, fixtures: TFixtures): TFuzzCase[] {
  const asCase = (kind: string, headers: Record<string, string | undefined>, input?: string) => ({
    routeKey: plan.key,
    kind,
    ...(input === undefined ? {} : { input }),
    request: requestOf(plan, { headers }),
  });
  const identifyTo = fixtures.hints.merchantId ?? 'mer_x';
  return [
    ...JUNK_AUTHORIZATIONS.map(([label, value]) => asCase(label, { authorization: value })),
    ...credentialVariations(plan, fixtures).map(([label, value]) =>
      asCase(label, { authorization: value }),
    ),
    ...staffVariations(plan, fixtures).map(([label, headers]) => asCase(label, headers)),
    ...JUNK_HEADERS.map(([label, headers]) => asCase(label, headers)),
    asCase('x-identify-to a merchant the payer acts for', { 'x-identify-to': identifyTo }),
    ...sampleOf(
      fc.tuple(fc.constantFrom(...HEADER_NAMES), headerValueArb),
      plan.key,
      'headers',
      runsFor(plan).headers,
    ).map(([name, value]) =>
      asCase(`header ${name} = random latin-1 junk`, { [name]: value }, preview(value)),
    ),
  ];
}

/** Whole bodies that are not the JSON the route expects. */
const RAW_BODIES: TLabelled<Buffer> = [
  ['JSON nested 5,000 deep (arrays)', deepArray(5_000).bytes],
  ['JSON nested 5,000 deep (objects)', deepObject(5_000).bytes],
  ['JSON nested 100,000 deep (arrays)', deepArray(100_000).bytes],
  ['invalid JSON: open brace', Buffer.from('{')],
  ['invalid JSON: missing value', Buffer.from('{"a":}')],
  ['invalid JSON: single quotes', Buffer.from("{'a':1}")],
  ['invalid JSON: trailing comma', Buffer.from('[1,]')],
  ['invalid JSON: bare word', Buffer.from('nul')],
  ['invalid JSON: trailing garbage', Buffer.from('{"a":1} garbage')],
  ['JSON with a BOM', Buffer.from('\ufeff{}')],
  [
    'invalid UTF-8 bytes',
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  ],
  ['only a NUL byte', Buffer.from([0])],
  ['a lone surrogate string', Buffer.from('"\\ud800"')],
  ['__proto__ key', Buffer.from('{"__proto__":{"polluted":true}}')],
  ['constructor.prototype key', Buffer.from('{"constructor":{"prototype":{"polluted":true}}}')],
  ['duplicate keys', Buffer.from('{"a":1,"a":"\\u0000"}')],
  ['null', Buffer.from('null')],
  ['a number', Buffer.from('123')],
  ['a string', Buffer.from('"abc"')],
  ['an empty array', Buffer.from('[]')],
  ['an empty object', Buffer.from('{}')],
  ['empty body', Buffer.alloc(0)],
  ['2 MB body', Buffer.from(`{"a":"${'x'.repeat(2_000_000)}"}`)],
];

/** Content types other than JSON, each with the route's own valid-looking body. */
const CONTENT_TYPES: TLabelled<string | undefined> = [
  ['no Content-Type', undefined],
  ['text/plain', 'text/plain'],
  ['form-urlencoded', 'application/x-www-form-urlencoded'],
  ['multipart without parts', 'multipart/form-data; boundary=zz'],
  ['application/xml', 'application/xml'],
  ['JSON in UTF-16', 'application/json; charset=utf-16le'],
  ['JSON in latin-1', 'application/json; charset=latin1'],
  ['upper-case JSON', 'APPLICATION/JSON'],
  ['two types', 'application/json, text/html'],
  ['JSON:API', 'application/vnd.api+json'],
  ['broken parameters', 'application/json;;;=;'],
  ['wildcard', '*/*'],
  ['octet-stream', 'application/octet-stream'],
];

export function rawBodyCases(plan: TRoutePlan): TFuzzCase[] {
  const valid = plan.bodies[0] === undefined ? Buffer.from('{}') : serializeJson(plan.bodies[0]);
  const json = { 'content-type': 'application/json' };
  return [
    ...RAW_BODIES.map(([label, payload]) => ({
      routeKey: plan.key,
      kind: `body: ${label}`,
      request: requestOf(plan, { payload, headers: json }),
    })),
    ...CONTENT_TYPES.map(([label, type]) => ({
      routeKey: plan.key,
      kind: `Content-Type: ${label}`,
      request: requestOf(plan, {
        payload: type?.includes('utf-16') ? Buffer.from(valid.toString('utf8'), 'utf16le') : valid,
        headers: { 'content-type': type },
      }),
    })),
    {
      routeKey: plan.key,
      kind: 'Content-Encoding: gzip that is not gzip',
      request: requestOf(plan, {
        payload: valid,
        headers: { ...json, 'content-encoding': 'gzip' },
      }),
    },
    ...sampleOf(
      fc.jsonValue({ maxDepth: 4 }),
      plan.key,
      'random body',
      plan.bodies.length > 0 ? runsFor(plan).body : runsFor(plan).bodyUndeclared,
    ).map((value) => ({
      routeKey: plan.key,
      kind: 'body: random JSON',
      input: preview(value),
      request: requestOf(plan, { payload: serializeJson(value), headers: json }),
    })),
  ];
}

const pathLabel = (at: TPath) => at.join('.');

/** Each field of each valid-looking body, replaced by each bad value (within the budget). */
export function mutationCases(plan: TRoutePlan): TFuzzCase[] {
  const seen = new Set<string>();
  const all: Array<TFuzzCase & { priority: boolean }> = [];
  for (const body of plan.bodies) {
    for (const field of fieldsOf(body)) {
      for (const [label, value] of badValuesFor(field.sample, field.path.at(-1))) {
        const kind = `body.${pathLabel(field.path)} = ${label}`;
        if (seen.has(kind)) continue;
        seen.add(kind);
        all.push({
          routeKey: plan.key,
          kind,
          priority: PRIORITY_LABELS.has(label),
          keep: ALWAYS_LABELS.has(label),
          request: requestOf(plan, { payload: serializeJson(withField(body, field.path, value)) }),
        });
      }
    }
  }
  return [...withinBudget(plan.key, all), ...bodyKeyCases(plan), ...randomMutations(plan)];
}

/** Keys the database cannot store, added to each object of a body (a record's keys are data). */
const BAD_KEYS: TLabelled<string> = [
  ['NUL', 'a\u0000b'],
  ['lone high surrogate', '\ud800'],
];

/** Each object of each valid-looking body, the body itself too, with a key of BAD_KEYS added. */
function bodyKeyCases(plan: TRoutePlan): TFuzzCase[] {
  const seen = new Set<string>();
  const out: TFuzzCase[] = [];
  for (const body of plan.bodies) {
    for (const { path: at, sample } of [{ path: [], sample: body }, ...fieldsOf(body)]) {
      if (!isPlainObject(sample)) continue;
      for (const [label, key] of BAD_KEYS) {
        const kind = `body${at.length > 0 ? `.${pathLabel(at)}` : ''} key = ${label}`;
        if (seen.has(kind)) continue;
        seen.add(kind);
        const value = { ...sample, [key]: Object.values(sample)[0] ?? 'abc' };
        out.push({
          routeKey: plan.key,
          kind,
          keep: true,
          request: requestOf(plan, { payload: serializeJson(withField(body, at, value)) }),
        });
      }
    }
  }
  return out;
}

/** Keeps every priority case, then a seeded sample of the others up to the budget. */
function withinBudget(key: string, all: Array<TFuzzCase & { priority: boolean }>): TFuzzCase[] {
  const kept = all.filter((c) => c.priority);
  const rest = all.filter((c) => !c.priority);
  const room = Math.max(0, MUTATION_BUDGET - kept.length);
  if (rest.length <= room) return [...kept, ...rest];
  const [chosen] = fc.sample(fc.shuffledSubarray(rest, { minLength: room, maxLength: room }), {
    seed: seedFor(key, 'budget'),
    numRuns: 1,
  });
  return [...kept, ...(chosen ?? [])];
}

/** One random field of a valid-looking body, replaced by a random junk value. */
function randomMutations(plan: TRoutePlan): TFuzzCase[] {
  const fields = plan.bodies.flatMap((body) => fieldsOf(body).map((field) => ({ body, field })));
  if (fields.length === 0) return [];
  const arb = fc.tuple(fc.nat({ max: fields.length - 1 }), junkValueArb);
  return sampleOf(arb, plan.key, 'random mutation', runsFor(plan).mutation).map(
    ([index, value]) => {
      const { body, field } = fields[index] ?? fields[0]!;
      return {
        routeKey: plan.key,
        kind: `body.${pathLabel(field.path)} = random junk value`,
        input: preview(value),
        request: requestOf(plan, { payload: serializeJson(withField(body, field.path, value)) }),
      };
    },
  );
}

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The route's URL with the methods nobody registered for it, each to be answered 405 with the
 * route's methods in Allow (the first kept and listed first, so that every route is asked one
 * however many of its cases are kept), and HEAD, which every GET route answers as GET without
 * the body (an event stream that never answered HEAD held its connection open).
 */
export function methodCases(plan: TRoutePlan, table: TRouteEntry[]): TFuzzCase[] {
  const registered = new Set(table.filter((r) => r.url === plan.route.url).map((r) => r.method));
  if (registered.has('GET')) registered.add('HEAD');
  const allows = [...registered];
  const others = OTHER_METHODS.filter((method) => !registered.has(method)).map((method, i) => ({
    routeKey: plan.key,
    kind: `method ${method}`,
    keep: i === 0,
    allows,
    request: requestOf(plan, { method }),
  }));
  const head = { routeKey: plan.key, kind: 'method HEAD', keep: true };
  const headAllows = registered.has('HEAD') ? {} : { allows };
  return [...others, { ...head, ...headAllows, request: requestOf(plan, { method: 'HEAD' }) }];
}

/**
 * What is wrong with the answer to a method the route's path does not take: anything but 405
 * with an Allow header that lists the route's methods and not the one asked. A method that
 * another route's pattern serves at this URL (DELETE /api/v1/webhooks/:webhookId at
 * /api/v1/webhooks/deliveries) is that route's to answer.
 */
function wrongMethodProblem(
  app: FastifyInstance,
  fuzzCase: TFuzzCase,
  answer: TAnswer,
): string | null {
  const method = fuzzCase.request.method ?? 'GET';
  if (!fuzzCase.allows || app.findRoute({ method, url: requestUrl(fuzzCase.request) })) {
    return null;
  }
  if (answer.status !== 405) return `a method the path does not take answered ${answer.status}`;
  const allow = answer.allow.split(/,\s*/);
  const missing = fuzzCase.allows.filter((m) => !allow.includes(m));
  if (missing.length > 0 || allow.includes(method)) {
    return `405 with Allow: ${answer.allow || '(none)'}, not the route's ${fuzzCase.allows.join(', ')}`;
  }
  return null;
}

/** What a client may say it accepts: event streams refused a non-stream Accept with a 500. */
const ACCEPTS: TLabelled<string> = [
  ['JSON', 'application/json'],
  ['HTML', 'text/html,application/xhtml+xml'],
  ['event stream', 'text/event-stream'],
  ['event stream refused (q=0)', 'text/event-stream;q=0, application/json'],
  ['nothing (*/*;q=0)', '*/*;q=0'],
];

/** A GET route's valid-looking request with each Accept, and HEAD with a JSON one. */
export function acceptCases(plan: TRoutePlan): TFuzzCase[] {
  if (plan.route.method !== 'GET') return [];
  return [
    ...ACCEPTS.map(([label, accept]) => ({
      routeKey: plan.key,
      kind: `Accept: ${label}`,
      keep: true,
      request: requestOf(plan, { headers: { accept } }),
    })),
    {
      routeKey: plan.key,
      kind: 'method HEAD, Accept: JSON',
      keep: true,
      request: requestOf(plan, { method: 'HEAD', headers: { accept: 'application/json' } }),
    },
  ];
}

/** URLs no route serves: the not-found answer is a route too. */
export const NOT_FOUND_KEY = 'ANY (no route)';
const NOT_FOUND_URLS: TLabelled<string> = [
  ['unknown path', '/api/nothing-here'],
  ['not hex (%zz)', '/%zz'],
  ['truncated UTF-8', '/api/%E0%A4%A'],
  ['NUL', '/api/%00'],
  ['lone surrogate', '/%ED%A0%80'],
  ['double slash', '//api//health'],
  ['trailing slash', '/api/health/'],
  ['dot segments', '/api/../api/health'],
  ['encoded dot segments', '/%2e%2e/%2e%2e/etc/passwd'],
  ['10,000 chars', `/${'x'.repeat(10_000)}`],
  ['asterisk', '*'],
  ['absolute URL', 'http://evil.example/api/health'],
  ['index.html under assets', '/assets/../index.html'],
  ['source map guess', '/assets/index.js.map'],
  ['query only', '/?%zz'],
];

export function notFoundCases(): TFuzzCase[] {
  return NOT_FOUND_URLS.flatMap(([label, url]) =>
    ['GET', 'POST'].map((method) => ({
      routeKey: NOT_FOUND_KEY,
      kind: `${method} ${label}`,
      request: { method, url },
    })),
  );
}

// ---------------------------------------------------------------------------------------------
// Guards: which credentials get a route's valid-looking request past its guard

let probes = 0;

/**
 * Status and error code of an answer: what tells one guard's refusal from another answer. Each
 * probe comes from an address of its own: from one, the limit on wrong credentials per address
 * answered 429 to every probe after the first ten merchant routes, and the rest were fuzzed
 * only up to their guard.
 */
async function answerOf(app: FastifyInstance, request: InjectOptions): Promise<string> {
  probes += 1;
  const remoteAddress = `172.16.${(probes >> 8) & 255}.${probes & 255}`;
  const response = await answerWithin(app, { ...request, remoteAddress });
  let code = '';
  try {
    const body: unknown = JSON.parse(response.body);
    const found = (body as { error?: { code?: unknown } } | null)?.error?.code;
    code = typeof found === 'string' ? found : '';
  } catch {
    // Not JSON (a page, a file): the status says enough.
  }
  return `${response.status} ${code}`;
}

/**
 * Finds what gets the valid-looking request past the route's guard: nothing, a payer's token,
 * the merchant's Basic credentials, the operator's token or a dashboard owner's session (its
 * cookie, our Origin and its CSRF token). A 401 alone does not say "guarded" (a passkey that does
 * not verify is a 401 past the guard too), so credentials count as needed when they change a 401
 * answer. A token or session the route used up (logout, sign-out) makes the route get fresh
 * credentials per case.
 */
export async function discoverAuth(
  app: FastifyInstance,
  plan: TRoutePlan,
  fixtures: TFixtures,
): Promise<TRoutePlan> {
  const bare = await answerOf(app, requestOf(plan));
  if (bare.startsWith('403')) {
    // A write only our page may make (the dashboard's invitations and sign-in): from our Origin.
    const auth = { origin: fixtures.staff.origin };
    return (await answerOf(app, requestOf({ ...plan, auth }))) === bare ? plan : { ...plan, auth };
  }
  if (!bare.startsWith('401')) return plan;
  const token = await fixtures.mintToken();
  const bearer = { authorization: `Bearer ${token}` };
  const withToken = await answerOf(app, requestOf({ ...plan, auth: bearer }));
  if (withToken !== bare) {
    const again = await answerOf(app, requestOf({ ...plan, auth: bearer }));
    const usedUp = again.startsWith('401') && again !== withToken;
    const auth = { authorization: `Bearer ${await fixtures.mintToken()}` };
    return { ...plan, authKind: 'bearer', auth, tokenPerCase: usedUp };
  }
  const merchant =
    plan.route.url === SECRET_ROTATION_URL ? fixtures.rotatingMerchant : fixtures.merchant;
  const basicAuth = { authorization: merchant.authorization };
  if ((await answerOf(app, requestOf({ ...plan, auth: basicAuth }))) !== bare) {
    return { ...plan, authKind: 'basic', auth: basicAuth };
  }
  const operatorAuth = { authorization: `Bearer ${FUZZ_OPERATOR_TOKEN}` };
  if ((await answerOf(app, requestOf({ ...plan, auth: operatorAuth }))) !== bare) {
    return { ...plan, authKind: 'operator', auth: operatorAuth };
  }
  const session = await fixtures.staff.mintSession();
  const withSession = await answerOf(app, requestOf({ ...plan, auth: session }));
  if (withSession !== bare) {
    const again = await answerOf(app, requestOf({ ...plan, auth: session }));
    const usedUp = again.startsWith('401') && again !== withSession;
    const auth = await fixtures.staff.mintSession();
    return { ...plan, authKind: 'staff', auth, tokenPerCase: usedUp };
  }
  return plan;
}

/** Credentials of the same kind as the route's, new: a payer's token or a dashboard session. */
const freshCredentials = async (
  plan: TRoutePlan,
  fixtures: TFixtures,
): Promise<Record<string, string>> =>
  plan.authKind === 'staff'
    ? fixtures.staff.mintSession()
    : { authorization: `Bearer ${await fixtures.mintToken()}` };

/**
 * Gives each case of a route that uses its token or session up credentials of its own: each
 * header that still carries the route's credentials (a case that varies the CSRF token keeps its
 * variation, with a live session's cookie).
 */
export async function withFreshTokens(
  plan: TRoutePlan,
  cases: TFuzzCase[],
  fixtures: TFixtures,
): Promise<TFuzzCase[]> {
  if (!plan.tokenPerCase) return cases;
  const secret = plan.authKind === 'staff' ? 'cookie' : 'authorization';
  return Promise.all(
    cases.map(async (fuzzCase) => {
      const headers = fuzzCase.request.headers as Record<string, string> | undefined;
      if (!headers || headers[secret] !== plan.auth[secret]) return fuzzCase;
      const fresh = await freshCredentials(plan, fixtures);
      const renewed = Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [
          name,
          value === plan.auth[name] ? (fresh[name] ?? value) : value,
        ]),
      );
      return { ...fuzzCase, request: { ...fuzzCase.request, headers: renewed } };
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Running and checking

export type TOutcome = {
  fuzzCase: TFuzzCase;
  status: number;
  body: string;
  /** The answer was an event stream that opened (then closed by the suite). */
  streamed: boolean;
  problem: string | null;
  cause: string | undefined;
  /** Time to the answer, with the other cases in flight. */
  ms: number;
};

/**
 * What is wrong with an answer, or null: below 500, and every error in the catalogue shape. An
 * answer to HEAD has no body to judge: below 500 is all it can show. A browser that asks for
 * HTML may get a page that says what went wrong (the sandbox's 3-D Secure check does).
 */
export function problemOf(request: InjectOptions, answer: TAnswer): string | null {
  const { status, body, type } = answer;
  if (request.method === 'HEAD') return status >= 500 ? `answered ${status}` : null;
  const accept = (request.headers as Record<string, string> | undefined)?.accept ?? '';
  if (status < 500 && type.startsWith('text/html') && accept.includes('text/html')) return null;
  const shape = catalogueProblem(body);
  if (status >= 500) return shape ? `answered ${status}, ${shape}` : `answered ${status}`;
  if (status >= 400) return shape;
  return null;
}

function catalogueProblem(body: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'error body is not JSON';
  }
  if (ZApiErrorBody.safeParse(parsed).success) return null;
  const code = (parsed as { error?: { code?: unknown } } | null)?.error?.code;
  return typeof code === 'string' && !isErrorCode(code)
    ? `error code ${code} is not in ERROR_CATALOGUE`
    : 'error body is not { success: false, error: { code, message } }';
}

/** Long enough for an overloaded machine (PGlite runs on the main thread, so a slow query stalls
 * every case in flight); what it catches is a request that never gets an answer. */
const REQUEST_TIMEOUT_MS = 60_000;

type TAnswer = { status: number; type: string; allow: string; body: string; streamed: boolean };

/**
 * Injects a request and reads its answer to the end, within REQUEST_TIMEOUT_MS. A GET that opens
 * an event stream never ends: once its head says 200 text/event-stream it counts as answered
 * and is closed, as a page that goes away. An answer to HEAD is never a stream: it must end.
 */
async function answerWithin(app: FastifyInstance, request: InjectOptions): Promise<TAnswer> {
  let timer: NodeJS.Timeout | undefined;
  let open: { destroy(): unknown } | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `no answer in ${REQUEST_TIMEOUT_MS} ms: ${request.method ?? 'GET'} ${requestUrl(request).slice(0, 120)}`,
          ),
        ),
      REQUEST_TIMEOUT_MS,
    );
  });
  const answer = async (): Promise<TAnswer> => {
    const response = await app.inject({ ...request, payloadAsStream: true });
    open = response.raw.res;
    const type = String(response.headers['content-type'] ?? '');
    const allow = String(response.headers.allow ?? '');
    const status = response.statusCode;
    if (request.method !== 'HEAD' && status === 200 && type.startsWith('text/event-stream')) {
      return { status, type, allow, body: '', streamed: true };
    }
    const chunks: Buffer[] = [];
    for await (const chunk of response.stream()) chunks.push(chunk as Buffer);
    open = undefined;
    const body = Buffer.concat(chunks).toString('utf8');
    return { status, type, allow, body, streamed: false };
  };
  try {
    return await Promise.race([answer(), timeout]);
  } finally {
    clearTimeout(timer);
    // An open stream, or an answer that never ended, is closed: the server lets it go.
    open?.destroy();
  }
}

/**
 * The client address of a case. Limits per address (codes, sign-ins, wrong secrets) would
 * otherwise answer 429 to nearly every request of a route after its first few dozen, and the
 * fuzzing would stop at the limiter; so most cases come from an address of their own, and one
 * in ten from one shared address, which keeps the limiters' own 429 answers under test.
 */
export function addressFor(index: number): string {
  if (index % 10 === 0) return '127.0.0.1';
  return `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
}

async function runOne(fuzz: TFuzzApp, fuzzCase: TFuzzCase, index: number): Promise<TOutcome> {
  const id = String(index);
  const headers = { ...(fuzzCase.request.headers as Record<string, string>), [CASE_HEADER]: id };
  const started = performance.now();
  try {
    const answer = await answerWithin(fuzz.app, {
      ...fuzzCase.request,
      headers,
      remoteAddress: addressFor(index),
    });
    const { status, body, streamed } = answer;
    return {
      fuzzCase,
      status,
      body,
      streamed,
      problem:
        problemOf(fuzzCase.request, answer) ?? wrongMethodProblem(fuzz.app, fuzzCase, answer),
      cause: fuzz.causes.get(id),
      ms: performance.now() - started,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const problem = `no answer: ${message}`;
    return {
      fuzzCase,
      status: 0,
      body: '',
      streamed: false,
      problem,
      cause: undefined,
      ms: performance.now() - started,
    };
  }
}

/** `limit` of the cases, taken evenly across the list. */
function evenly(cases: TFuzzCase[], limit: number): TFuzzCase[] {
  if (cases.length <= limit) return cases;
  return Array.from(
    { length: limit },
    (_, i) => cases[Math.floor((i * cases.length) / limit)] as TFuzzCase,
  );
}

/**
 * At most `limit` of a route's cases: every case marked `keep` first (HEAD, Accept, NUL, lone
 * surrogates, int32 overflow), then the others taken evenly across the list, which runs kind by
 * kind (methods, path, query, headers, raw bodies, mutations, Accept), so each kind keeps its
 * share. The first kept case always goes.
 */
export function spread(cases: TFuzzCase[], limit: number): TFuzzCase[] {
  if (cases.length <= limit) return cases;
  const kept = cases.filter((c) => c.keep);
  if (kept.length >= limit) return evenly(kept, limit);
  return [
    ...kept,
    ...evenly(
      cases.filter((c) => !c.keep),
      limit - kept.length,
    ),
  ];
}

/** Cases of all routes taken in turn, so slow routes (scrypt) overlap with fast ones. */
export function interleave(groups: TFuzzCase[][]): TFuzzCase[] {
  const longest = Math.max(0, ...groups.map((group) => group.length));
  const out: TFuzzCase[] = [];
  for (let i = 0; i < longest; i += 1) {
    for (const group of groups) {
      const item = group[i];
      if (item) out.push(item);
    }
  }
  return out;
}

export async function runCases(fuzz: TFuzzApp, cases: TFuzzCase[], concurrency = 8) {
  const outcomes: TOutcome[] = new Array<TOutcome>(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const index = next;
      next += 1;
      const fuzzCase = cases[index];
      if (fuzzCase) outcomes[index] = await runOne(fuzz, fuzzCase, index);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return outcomes;
}

// ---------------------------------------------------------------------------------------------
// The report

const bodySignature = (body: string): string => {
  try {
    const parsed = JSON.parse(body) as { code?: unknown; error?: { code?: unknown } };
    const code = parsed.error?.code ?? parsed.code;
    if (typeof code === 'string') return code;
  } catch {
    // Not JSON: the start of the text tells it apart.
  }
  return body.slice(0, 60);
};

export type TDistinctFailure = { first: TOutcome; count: number };

/** Failures told apart by route, input kind, status and error code: one line each. */
export function distinctFailures(outcomes: TOutcome[]): TDistinctFailure[] {
  const groups = new Map<string, TDistinctFailure>();
  for (const outcome of outcomes) {
    if (!outcome.problem) continue;
    const key = [
      outcome.fuzzCase.routeKey,
      outcome.fuzzCase.kind,
      outcome.status,
      outcome.problem,
      bodySignature(outcome.body),
    ].join('|');
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { first: outcome, count: 1 });
  }
  return [...groups.values()].sort(
    (a, b) =>
      Number(b.first.status >= 500) - Number(a.first.status >= 500) ||
      a.first.fuzzCase.routeKey.localeCompare(b.first.fuzzCase.routeKey) ||
      a.first.fuzzCase.kind.localeCompare(b.first.fuzzCase.kind),
  );
}

/** The URL of an injected request as text: a string, or light-my-request's URL parts. */
const requestUrl = (request: InjectOptions): string =>
  typeof request.url === 'string' ? request.url : JSON.stringify(request.url ?? request.path);

export function describeFailure({ first, count }: TDistinctFailure): string {
  const { fuzzCase, status, body, problem, cause } = first;
  const shownBody = body.length > 160 ? `${body.slice(0, 160)}…` : body;
  return [
    `${fuzzCase.routeKey}  [${fuzzCase.kind}]`,
    `    → ${status} ${problem}${count > 1 ? ` (×${count})` : ''}`,
    `    body: ${shownBody || '(empty)'}`,
    ...(cause ? [`    thrown: ${cause}`] : []),
    ...(fuzzCase.input ? [`    input: ${fuzzCase.input}`] : []),
    `    request: ${fuzzCase.request.method} ${requestUrl(fuzzCase.request).slice(0, 120)}`,
  ].join('\n');
}

/** Status counts per route: shows where rate limits or guards kept the fuzzing shallow. */
export function statusHistogram(outcomes: TOutcome[]): Map<string, Map<number, number>> {
  const byRoute = new Map<string, Map<number, number>>();
  for (const { fuzzCase, status } of outcomes) {
    const counts = byRoute.get(fuzzCase.routeKey) ?? new Map<number, number>();
    counts.set(status, (counts.get(status) ?? 0) + 1);
    byRoute.set(fuzzCase.routeKey, counts);
  }
  return byRoute;
}
