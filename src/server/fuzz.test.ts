// @module-tag postgres
// The fuzz suite: every route in the app's route table, with generated bad inputs — path, query,
// headers, credentials, bodies, methods (HEAD too), Accept — must answer below 500, and every error
// must be a catalogue body; an event stream that opens counts as an answer, and an answer that
// never comes as a failure; a method a route's path does not take must be 405 with the path's
// methods in Allow. Routes join by being registered; see testing/fuzz.ts for the inputs.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_FORM_INPUT } from '../domain/test-support/form-fixtures';
import { eventStreamTickets } from './db/schema';
import { SANDBOX_ACCOUNTS, SANDBOX_CHIP_CARDS, SANDBOX_READERS } from './sandbox/fixtures';
import { signUp, testPhone } from './testing/identity';
import { openApiPath } from './testing/openapi-answers';
import {
  acceptCases,
  describeFailure,
  discoverAuth,
  distinctFailures,
  FUZZ_SEED,
  headerCases,
  interleave,
  isStaticFileRoute,
  makeFixtures,
  methodCases,
  mutationCases,
  notFoundCases,
  NOT_FOUND_KEY,
  objectKeys,
  paramNames,
  pathCases,
  planRoute,
  queryCases,
  rawBodyCases,
  runCases,
  spread,
  startFuzzApp,
  statusHistogram,
  type TFixtures,
  type TFuzzApp,
  type THints,
  type TFuzzCase,
  type TOutcome,
  type TRoutePlan,
  withFreshTokens,
} from './testing/fuzz';

/** Routes of the app today, static files of the build left out: the table can only grow.
 * 16 API routes, /sandbox/messages, and the page's /, /login, /r/:consentId and
 * /sandbox/grant-signing. */
const ROUTES_TODAY = 21;
/**
 * Requests per route, taken evenly from every kind of input the generator makes for it (the cases a
 * route's plan marks to keep always go), chosen by the fixed FUZZ_SEED so that every run asks the
 * same. The suite runs on PostgreSQL only, the database production runs (vitest.config.ts), in
 * CI's server tests: 24 a route made 7,374 requests over 306 routes in 96 s there (2026-11-28); at
 * 64 a route it made 14,000 and was the run's longest file, at 150 29,000 (10 minutes on a loaded
 * 2-core machine). Every case is written before the sample is taken: writing them once cost more
 * than sending them (437 s in CI, 2026-11-29: 200,000-character values percent-encoded a
 * character at a time for every query key of every route); written natively, each long value
 * once, 8,406 requests over 349 routes take 53 s on the quiet machine.
 */
const CASES_PER_ROUTE = 24;
/** At least this many generated requests, so that every route meets many bad inputs. */
const MIN_REQUESTS = 6_000;
/** Distinct failures listed in the assertion message; FUZZ_VERBOSE=1 prints them all. */
const LISTED_FAILURES = 50;

const WEB_DIR = path.resolve('dist/web');

/** A provider's notices (docs/payments.md "Provider notices"): a raw, signed body. */
const PROVIDER_NOTICES_URL = '/api/providers/:name/notices';

let fuzz: TFuzzApp;
let fixtures: TFixtures;

beforeAll(async () => {
  fuzz = await startFuzzApp(WEB_DIR);
  fixtures = await makeFixtures(fuzz);
  Object.assign(fixtures.hints, await formHints(fuzz, fixtures.merchant.authorization));
  Object.assign(fixtures.hints, await terminalHints(fuzz));
  Object.assign(fixtures.hints, await paymentRequestHints(fuzz));
  Object.assign(fixtures.hints, await streamHints(fuzz));
  // The configured provider's notices: past the name, up to the adapter's verification.
  fixtures.hints[`${PROVIDER_NOTICES_URL} name`] =
    fuzz.app.appContext.providers.payments.notices.provider;
}, 600_000);

/** The event streams the fuzzing opens (a GET the runner then closes), past their tickets. */
const OPENED_STREAMS = [
  'GET /api/events/payments/:paymentId',
  'GET /api/events/card-linking',
  'GET /api/events/bank-validation/:validationId',
];

/**
 * Tickets that open the OPENED_STREAMS (docs/payments.md), each named for its route, so HEAD,
 * Accept and the rest reach the streams themselves (a stream answered HEAD with a stream that
 * never ended). A ticket opens its stream for five minutes, longer than the run.
 */
async function streamHints(app: TFuzzApp): Promise<THints> {
  const authorization = `Bearer ${await fixtures.mintToken()}`;
  const answer = async <T>(url: string, payload?: object): Promise<T> => {
    const method = payload ? 'POST' : 'GET';
    const response = await app.app.inject({ method, url, payload, headers: { authorization } });
    if (response.statusCode !== 200) throw new Error(`fuzz fixtures: ${url} ${response.body}`);
    return response.json<T>();
  };
  const { consentId, clientId } = fixtures.hints;
  const read = await answer<{ consent: { payments: Array<{ paymentId: string }> } }>(
    `/api/consent/${consentId}?clientId=${clientId}`,
  );
  const paymentId = read.consent.payments[0]?.paymentId ?? '';
  const ticket = async (payload: object) =>
    (await answer<{ ticket: string }>('/api/events/tickets', payload)).ticket;
  const search = await answer<{
    banks: { results: Array<{ validationId: string }> };
    stream: { ticket: string };
  }>(`/api/accounts/search?by=bank&q=${SANDBOX_ACCOUNTS[0]?.accountNumber}&v=new`);
  const hints = {
    lastEventId: '0',
    '/api/events/payments/:paymentId paymentId': paymentId,
    '/api/events/payments/:paymentId ticket': await ticket({ stream: 'payment', paymentId }),
    '/api/events/card-linking ticket': await ticket({ stream: 'card-linking' }),
    '/api/events/bank-validation/:validationId validationId':
      search.banks.results[0]?.validationId ?? '',
    '/api/events/bank-validation/:validationId ticket': search.stream.ticket,
  };
  // A ticket opens its stream for STREAM_TICKET_TTL_MS (five minutes), and a loaded machine's
  // run can take longer; a stream case late in the run would meet an expired ticket. These
  // tickets outlive the run.
  await app.app.appContext.db
    .update(eventStreamTickets)
    .set({ expiresAt: new Date(Date.now() + 24 * 3_600_000) });
  return hints;
}

/**
 * A payment request (docs/payment-requests.md) from a second payer to the fixture payer, so its
 * read and decline-invitation are fuzzed past their lookups, and POST /api/consent names a real
 * payer and an expiry it accepts (at most 24 h ahead, on the real clock the fuzz app runs on).
 */
async function paymentRequestHints(app: TFuzzApp): Promise<Record<string, string>> {
  const headers = { authorization: `Bearer ${await fixtures.mintToken()}` };
  const me = await app.app.inject({ method: 'GET', url: '/api/auth/me', headers });
  const fixturePayer = me.json<{ user: { userId: string } }>().user.userId;
  const requester = await signUp(app.app, testPhone(), 'Fuzz Requester');
  const expiresAt = new Date(Date.now() + 12 * 60 * 60 * 1_000).toISOString();
  const created = await app.app.inject({
    method: 'POST',
    url: '/api/consent',
    headers: { authorization: `Bearer ${requester.token}` },
    payload: {
      userId: fixturePayer,
      paymentConsents: [{ type: 'immediate', amount: 250_000, narration: 'Fuzz split' }],
      expiresAt,
    },
  });
  if (created.statusCode !== 201) throw new Error(`fuzz fixtures: payment request ${created.body}`);
  const paymentRequestId = created.json<{ consentId: string }>().consentId;
  return { userId: requester.user.userId, expiresAt, paymentRequestId };
}

/**
 * What the sandbox reader reads from a chip card, so the card-terminal routes are fuzzed past
 * their schema into the chip data, track 2 and reader checks: each field is one a reader sends.
 */
async function terminalHints(app: TFuzzApp): Promise<Record<string, string>> {
  const [reader] = SANDBOX_READERS;
  const card = SANDBOX_CHIP_CARDS.find((c) => c.scenario === 'chip_approved');
  if (!reader || !card) throw new Error('fuzz fixtures: no sandbox reader or chip card');
  const read = await app.app.inject({
    method: 'POST',
    url: '/api/sandbox/terminal/read',
    payload: { serial: reader.serial, cardNumber: card.number, amount: 250_000, pin: card.pin },
  });
  if (read.statusCode !== 200) throw new Error(`fuzz fixtures: sandbox read ${read.body}`);
  const fields = Object.entries(read.json<Record<string, unknown>>()).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
  return { ...Object.fromEntries(fields), cardNumber: card.number, pin: card.pin };
}

/**
 * A form of the fixture merchant, a consent asking for it and a saved section, so the form
 * routes are fuzzed past their lookups: formId, sectionId, fieldId and responseId name real ones.
 */
async function formHints(app: TFuzzApp, authorization: string): Promise<Record<string, string>> {
  const post = async (url: string, payload: object) =>
    (await app.app.inject({ method: 'POST', url, headers: { authorization }, payload })).json<
      Record<string, string>
    >();
  const { formId = '' } = await post('/api/v1/forms', SAMPLE_FORM_INPUT);
  const { consentId = '' } = await post('/api/v1/consents', { formId });
  const saved = await app.app.inject({
    method: 'PUT',
    url: '/api/form/sections/about',
    payload: { consentId, clientId: fixtures.merchant.clientId, answers: { fullName: 'Ada' } },
  });
  const { formResponseId = '', formUpdateToken = '' } = saved.json<Record<string, string>>();
  // The payer's form calls name the form's consent, its token and a field of the section, so
  // the answers reach the database (a NUL in one answered 500).
  const formConsent = Object.fromEntries(
    ['/api/form', '/api/form/sections/:sectionId', '/api/form/files'].map((url) => [
      `${url} consentId`,
      consentId,
    ]),
  );
  return {
    formId,
    sectionId: 'about',
    fieldId: 'idDocument',
    responseId: formResponseId,
    formUpdateToken,
    'answers[key]': 'fullName',
    ...formConsent,
  };
}
afterAll(() => fuzz?.close());

const appRoutes = () => fuzz.app.routeTable.filter((r) => !isStaticFileRoute(WEB_DIR, r.url));

/** Query keys and path parameter names any route declares: every route gets junk in them,
 * since a route may read a parameter it never declared (the page route reads clientId). */
function globalQueryKeys(): string[] {
  const keys = fuzz.app.routeTable.flatMap((route) => [
    ...objectKeys(route.schema?.querystring),
    ...paramNames(route.url).filter((name) => name !== '*'),
  ]);
  return [...new Set([...keys, 'clientId'])];
}

async function plans(): Promise<TRoutePlan[]> {
  const out: TRoutePlan[] = [];
  for (const route of fuzz.app.routeTable) {
    const plan = planRoute(route, fixtures.hints, isStaticFileRoute(WEB_DIR, route.url));
    out.push(await discoverAuth(fuzz.app, plan, fixtures));
  }
  return out;
}

/** A route's cases, its methods first: `spread` always takes the first case of a route. */
function casesOf(plan: TRoutePlan, globalKeys: string[]): TFuzzCase[] {
  return [
    ...methodCases(plan, fuzz.app.routeTable),
    ...pathCases(plan),
    ...queryCases(plan, globalKeys),
    ...headerCases(plan, fixtures),
    ...rawBodyCases(plan),
    ...mutationCases(plan),
    ...acceptCases(plan),
  ];
}

/** The summary line, and the routes the fuzzing could not get far into. */
function summarise(outcomes: TOutcome[], routePlans: TRoutePlan[], seconds: number) {
  const fivexx = outcomes.filter((o) => o.status >= 500).length;
  console.log(
    `fuzz: ${outcomes.length} requests over ${routePlans.length} routes, ${fivexx} answered 5xx ` +
      `(${seconds.toFixed(1)} s, seed ${FUZZ_SEED})`,
  );
  for (const plan of routePlans.filter((p) => p.authKind === 'none')) {
    if (outcomesOf(outcomes, plan.key).every((o) => o.status === 401)) {
      console.log(
        `fuzz: ${plan.key} answered 401 to every credential: fuzzed up to its guard only`,
      );
    }
  }
  const dashboard = dashboardOutcomes(outcomes);
  const reached = dashboard.filter(pastTheSession);
  console.log(
    `fuzz: ${reached.length} of ${dashboard.length} dashboard requests (its routes' own ` +
      `methods) got past the session's guard (not 401/403)`,
  );
  for (const [key, counts] of statusHistogram(outcomes)) {
    const limited = counts.get(429) ?? 0;
    if (limited > 0) console.log(`fuzz: ${key} rate-limited ${limited} of its requests (429)`);
  }
}

const outcomesOf = (outcomes: TOutcome[], key: string) =>
  outcomes.filter((o) => o.fuzzCase.routeKey === key);

/** The dashboard's routes (docs/dashboard.md "Its API"), asked with their own methods. */
const DASHBOARD_API = '/api/dashboard/';
const dashboardOutcomes = (outcomes: TOutcome[]) =>
  outcomes.filter(({ fuzzCase }) => {
    const [method = '', url = ''] = fuzzCase.routeKey.split(' ');
    const sent = fuzzCase.request.method ?? 'GET';
    return url.startsWith(DASHBOARD_API) && (sent === method || sent === 'HEAD');
  });
/** An answer from past the dashboard's session guard (its cookie, Origin, CSRF and role). */
const pastTheSession = (o: TOutcome) => o.status !== 401 && o.status !== 403 && o.status !== 0;

/** FUZZ_VERBOSE=1: statuses per route and the slowest cases, to see where the time goes. */
function printDetails(outcomes: TOutcome[], routePlans: TRoutePlan[]) {
  for (const [key, counts] of statusHistogram(outcomes)) {
    const auth = routePlans.find((p) => p.key === key)?.authKind ?? '-';
    const statuses = [...counts].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
    console.log(`fuzz: ${key} (credentials: ${auth}): ${statuses.join(' ')}`);
  }
  for (const o of [...outcomes].sort((a, b) => b.ms - a.ms).slice(0, 10)) {
    console.log(`fuzz: slow ${o.ms.toFixed(0)} ms ${o.fuzzCase.routeKey} [${o.fuzzCase.kind}]`);
  }
  console.log(failureMessage(outcomes));
}

function failureMessage(outcomes: TOutcome[]): string {
  const distinct = distinctFailures(outcomes);
  const failing = outcomes.filter((o) => o.problem).length;
  const listed = process.env.FUZZ_VERBOSE ? distinct : distinct.slice(0, LISTED_FAILURES);
  return [
    `${failing} of ${outcomes.length} answers broke the rules (${distinct.length} distinct); ` +
      `replay with FUZZ_SEED=${FUZZ_SEED}${distinct.length > listed.length ? ', FUZZ_VERBOSE=1 lists all' : ''}:`,
    ...listed.map((failure, i) => `${i + 1}. ${describeFailure(failure)}`),
    ...(distinct.length > listed.length ? [`… and ${distinct.length - listed.length} more`] : []),
  ].join('\n');
}

describe('fuzz: every registered route', () => {
  it('walks a route table that holds every route registered today', () => {
    expect(fuzz.app.routeTable.length).toBeGreaterThan(0);
    expect(appRoutes().length).toBeGreaterThanOrEqual(ROUTES_TODAY);
    // The payer's own consents (docs/payer-consents.md) are fuzzed with the payer's token.
    expect(appRoutes().map(({ url }) => url)).toEqual(
      expect.arrayContaining([
        '/api/users/consents',
        '/api/users/consents/:consentId/revocation-challenges',
        '/api/users/consents/:consentId/revoke',
        // The payer's data (docs/payer-rights.md), with the payer's token and the copy's link.
        '/api/users/data-requests',
        '/api/users/data-exports',
        '/api/users/data-erasure-challenges',
        '/api/users/data-erasures',
        '/api/users/name',
        '/api/payer-exports/:token',
        // What the payer can hold us to (docs/payer-consents.md): lookups and complaints.
        '/api/users/bvn-lookups',
        '/api/users/complaints',
        '/api/operator/complaints',
        '/api/operator/complaints/:complaintId/acknowledge',
        '/api/operator/complaints/:complaintId/resolve',
        '/api/v1/consents/:consentId',
        // Payment requests between payers (docs/payment-requests.md).
        '/api/consent',
        '/api/consent/payment-request/:paymentRequestId',
        '/api/users/decline-invitation/:paymentRequestId',
        PROVIDER_NOTICES_URL,
      ]),
    );
    // The page routes are there only with the built page: they must be fuzzed too.
    expect(appRoutes().map(({ url }) => url)).toEqual(
      expect.arrayContaining(['/', '/login', '/r/:consentId', '/consents']),
    );
  });

  it('finds each documented route guarded as the OpenAPI document states (its security)', async () => {
    const document = fuzz.app.swagger() as unknown as {
      paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>>;
    };
    const schemeOf = {
      none: null,
      basic: 'merchantBasic',
      bearer: 'payerBearer',
      operator: 'operatorBearer',
      // The dashboard's cookie sessions are in no document (dashboard-undocumented.ts).
      staff: 'dashboardSession',
    };
    const disagreeing: string[] = [];
    for (const plan of await plans()) {
      const { method, url } = plan.route;
      const security = document.paths[openApiPath(url)]?.[method.toLowerCase()]?.security;
      if (!url.startsWith('/api/') || !document.paths[openApiPath(url)]?.[method.toLowerCase()]) {
        continue;
      }
      const stated = (security ?? []).map((entry) => Object.keys(entry)[0] ?? null);
      const found = schemeOf[plan.authKind];
      // An optional credential ({} among the schemes) may be found either way.
      const agrees = stated.length === 0 ? found === null : stated.includes(found);
      if (!agrees)
        disagreeing.push(`${plan.key}: stated ${JSON.stringify(stated)}, found ${found}`);
    }
    expect(disagreeing).toEqual([]);
  });

  it('answers every generated bad input below 500, and every error with a catalogue body', async () => {
    const started = performance.now();
    const routePlans = await plans();
    const globalKeys = globalQueryKeys();
    const perRoute = await Promise.all(
      routePlans.map((plan) =>
        withFreshTokens(plan, spread(casesOf(plan, globalKeys), CASES_PER_ROUTE), fixtures),
      ),
    );
    const cases = interleave([...perRoute, notFoundCases()]);
    const outcomes = await runCases(fuzz, cases);
    summarise(outcomes, routePlans, (performance.now() - started) / 1000);
    if (process.env.FUZZ_VERBOSE) printDetails(outcomes, routePlans);

    expect.soft(outcomes.length).toBeGreaterThanOrEqual(MIN_REQUESTS);
    expect
      .soft(new Set(outcomes.map((o) => o.fuzzCase.routeKey)))
      .toEqual(new Set([...routePlans.map((p) => p.key), NOT_FOUND_KEY]));
    // Every dashboard route, those behind the staff session too, is fuzzed past its guard.
    const dashboardKeys = (list: TOutcome[]) => new Set(list.map((o) => o.fuzzCase.routeKey));
    expect
      .soft([...dashboardKeys(dashboardOutcomes(outcomes).filter(pastTheSession))].sort())
      .toEqual([...dashboardKeys(dashboardOutcomes(outcomes))].sort());
    const streamed = new Set(outcomes.filter((o) => o.streamed).map((o) => o.fuzzCase.routeKey));
    // A stream that never opened says what each of its cases met instead.
    const unopened = OPENED_STREAMS.filter((key) => !streamed.has(key)).map((key) => ({
      key,
      answers: outcomes
        .filter((o) => o.fuzzCase.routeKey === key)
        .map((o) => `${o.status} ${/"code":"(\w+)"/.exec(o.body)?.[1] ?? ''}`),
    }));
    expect.soft(unopened, 'streams the fuzzing never opened').toEqual([]);
    // Every route's path was asked a method it does not take (its answer judged as a failure).
    const askedWrongMethod = new Set(
      outcomes
        .filter((o) => o.fuzzCase.allows && o.fuzzCase.kind !== 'method HEAD')
        .map((o) => o.fuzzCase.routeKey),
    );
    expect.soft(askedWrongMethod).toEqual(new Set(routePlans.map((p) => p.key)));
    const failures = outcomes.filter((o) => o.problem);
    expect(failures.length, failureMessage(outcomes)).toBe(0);
  }, 600_000);
});
