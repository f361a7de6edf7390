import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
} from 'fastify';
import type { Redis } from 'ioredis';
import { formatErrorMessage } from '../domain/errors';
import type { TSmsGate } from './jobs/sms-job';
import { AppError } from './app-error';

/*
 * Limits on what costs us money or helps an attacker (docs/security.md): SMS codes (each one is
 * paid for once a real provider is plugged in, and SMS pumping farms them: per address, and per
 * BVN or number asked about by its keyed hash, whoever asks), every SMS a call sends whatever it
 * says (per number, per person and per address, then overall: smsSends; the same but not per
 * number when it goes to the signed-in person's own number: ownSmsSends), sign-in sessions and
 * challenges, wrong merchant secrets, and card charges (card testing: per address, and per card
 * across payments by its keyed hash). The counting is @fastify/rate-limit's; this file only
 * says what is counted, by which key, and answers the catalogue's 429 with Retry-After.
 *
 * Where the counters live: in the process (the plugin's LRU store) by default, so that the
 * embedded mode needs nothing else; with REDIS_URL in Redis (the plugin's Redis store), so that
 * several processes behind one address count together and a limit holds for all of them. Every
 * check is made by `createRateLimit` of the one plugin instance registered here, so each counts
 * in that store, whatever limit is added later. When Redis does not answer, a counted call is
 * refused (503 RATE_LIMITS_UNAVAILABLE), never let through uncounted: these limits stand between
 * an attacker and SMS bills, guessed secrets and card testing.
 */

export type TRateLimit = { max: number; windowMs: number };

const MINUTE = 60_000;

export const DEFAULT_RATE_LIMITS = {
  /** SMS codes asked for from one address (one number has its own limit too: 10 an hour). */
  codeSendsPerAddress: { max: 10, windowMs: 10 * MINUTE },
  /**
   * Every SMS a call makes us send, whatever it says (a code, a new device, a passkey's removal,
   * a team's notice, an invitation): to one number (by its keyed hash), from any address or
   * account; caused by one payer or staff member (the same person either way); from one address.
   * Past any, the call is refused and its change with it (jobs/sms-job.ts queueSms). An SMS a
   * signed-in person's call sends to their own number (a new device, a passkey's removal) is not
   * counted by the number (ownSmsSends): strangers who fill it with codes cannot stop the person
   * removing a passkey or adding one; their own limit and their address's still hold.
   */
  smsPerNumber: { max: 15, windowMs: 60 * MINUTE },
  smsPerAccount: { max: 10, windowMs: 60 * MINUTE },
  smsPerAddress: { max: 60, windowMs: 60 * MINUTE },
  /**
   * Every SMS by everybody together: a ceiling on what a flood from many sources can cost.
   * Counted only for an SMS that passed the three limits above, so one source refused by them
   * spends none of it (docs/security.md "Rate limits" says what many sources can still do).
   */
  smsOverall: { max: 1_000, windowMs: 60 * MINUTE },
  /**
   * BVN codes asked for one BVN (by its keyed hash) from any address or payer: each may reach the
   * BVN's registered phone, and every ask counts, whether the registry knows the BVN or not.
   */
  bvnCodesPerBvn: { max: 5, windowMs: 60 * MINUTE },
  /**
   * Verifications of a BVN opened from one address: each is a lookup the registry bills (Mono),
   * though no code goes yet; the code's own send counts as a code send.
   */
  bvnVerificationsPerAddress: { max: 10, windowMs: 10 * MINUTE },
  /**
   * Dashboard recovery codes asked for one number (by its keyed hash) from any address: every ask
   * counts, whether the number is on a team or not, so a 429 tells nobody which it is.
   */
  recoveryCodesPerNumber: { max: 5, windowMs: 60 * MINUTE },
  /** Sign-in sessions opened from one address. */
  discoveriesPerAddress: { max: 60, windowMs: MINUTE },
  /** WebAuthn challenges and grant nonces handed to one address. */
  challengesPerAddress: { max: 60, windowMs: MINUTE },
  /** Logins tried from one address (each code has its own 5 tries). */
  loginsPerAddress: { max: 60, windowMs: MINUTE },
  /**
   * Lookups of an account's owner at the BVN registry (services/linking/account-owners.ts), each
   * billed (Mono): by one payer, and from one address whoever is signed in there. Only accounts
   * a payer asks to link are looked up, and each once, so a payer needs a few.
   */
  ownerLookupsPerPayer: { max: 10, windowMs: 60 * MINUTE },
  ownerLookupsPerAddress: { max: 30, windowMs: 60 * MINUTE },
  /** Account searches by one payer: each asks banks for an account holder's name. */
  accountSearchesPerPayer: { max: 30, windowMs: MINUTE },
  /** Payment requests one payer makes or declines (docs/payment-requests.md): each asks another
   * payer for money, so a flood of them is a nuisance to others. */
  paymentRequestsPerPayer: { max: 30, windowMs: MINUTE },
  /**
   * Complaints one payer raises: each tells a merchant (a webhook) and the operator, so a flood
   * of them is a nuisance to both.
   */
  complaintsPerPayer: { max: 10, windowMs: 60 * MINUTE },
  /**
   * Reads of one payer's lists of complaints and of lookups of their BVN: a page reads them as it
   * opens and as it pages on; past this, it is a loop.
   */
  payerListsPerPayer: { max: 120, windowMs: MINUTE },
  /** Card-terminal calls from one address: each purchase is a PIN tried at the issuer. */
  terminalCallsPerAddress: { max: 60, windowMs: MINUTE },
  /**
   * Pushes of one payment to the merchant's terminals, by whoever may pay it (its consent link,
   * or its signed-in payer): each holds a terminal for minutes, so a link is not a way to keep
   * the merchant's terminals busy. A payer retries a few times (offline, declined, called off).
   */
  terminalPushesPerPayment: { max: 6, windowMs: 15 * MINUTE },
  /** Card charges (a payment's or a link's) from one address: card testing tries card after card. */
  cardChargesPerAddress: { max: 20, windowMs: 10 * MINUTE },
  /** Refusals of one card (by its keyed hash) across payments: past this, the card is refused. */
  cardDeclinesPerCard: { max: 10, windowMs: 60 * MINUTE },
  /**
   * Reads and skips of debit notices by their links from one address (routes/debit-notices.ts):
   * a payer opens a notice or two; a token is a guess otherwise.
   */
  debitNoticesPerAddress: { max: 30, windowMs: MINUTE },
  /**
   * A payer's requests about their data (routes/payer-rights.ts): a copy gathers everything they
   * have, an erasure tells merchants, a correction writes a record; a person asks a few a year.
   */
  payerRightsPerPayer: { max: 10, windowMs: 60 * MINUTE },
  /** Opens of a copy of one's data by its SMS link from one address: a token is a guess otherwise. */
  payerExportsPerAddress: { max: 30, windowMs: MINUTE },
  /** Embed checks from one address (routes/embed-check.ts): one per embed a payer opens. */
  embedChecksPerAddress: { max: 120, windowMs: MINUTE },
  /** Wrong merchant credentials from one address: past this, the address is refused. */
  merchantAuthFailuresPerAddress: { max: 20, windowMs: MINUTE },
  /** Wrong secrets for one client id: past this, wrong ones answer 429; the right one still works. */
  merchantAuthFailuresPerClient: { max: 10, windowMs: MINUTE },
  /**
   * Provider notices that failed verification from one address (routes/provider-notices.ts):
   * past this, the address is refused before its signatures are checked; verified ones never count.
   */
  noticeFailuresPerAddress: { max: 30, windowMs: MINUTE },
} satisfies Record<string, TRateLimit>;

export type TRateLimits = Record<keyof typeof DEFAULT_RATE_LIMITS, TRateLimit>;

type TCheck = ReturnType<FastifyInstance['createRateLimit']>;

/** Refuses with the catalogue's 429 and the seconds until the window frees a slot. */
function refuse(reply: FastifyReply, seconds: number): never {
  const wait = Math.max(1, Math.ceil(seconds));
  void reply.header('Retry-After', String(wait));
  throw new AppError('RATE_LIMITED', formatErrorMessage('RATE_LIMITED', { seconds: wait }));
}

/** Seconds to wait when a check says its limit is passed; null while it is not. */
const exceededBy = (result: Awaited<ReturnType<TCheck>>): number | null =>
  !result.isAllowed && result.isExceeded ? result.ttlInSeconds : null;

/** The hooks and checks routes use; built once per app. */
export type TRateLimiters = {
  /** Asks the shared store (Redis) the smallest question; null when counts stay in this process. */
  pingStore: (() => Promise<void>) | null;
  codeSends: onRequestAsyncHookHandler;
  /** Before a BVN verification is opened at the registry: counts by the address. */
  bvnVerifications: onRequestAsyncHookHandler;
  /**
   * In the handler, after `codeSends`: counts a BVN code asked for the BVN of `targetKey`
   * (services/identity/code-sends.ts `codeTargetKey`); 429 past its limit.
   */
  bvnCodeSends(request: FastifyRequest, reply: FastifyReply, targetKey: string): Promise<void>;
  /**
   * The same for a dashboard recovery code asked for the number of `targetKey`. Not against the
   * overall SMS ceiling: most asks send nothing (a number on no team), and random numbers would
   * spend it without one SMS; the number's limit bounds what one number gets.
   */
  recoveryCodeSends(request: FastifyRequest, reply: FastifyReply, targetKey: string): Promise<void>;
  /**
   * The SMS limits of the call `request` (smsPerNumber, smsPerAccount, smsPerAddress, then
   * smsOverall): what the SMS outbox counts each SMS the call queues against; 429 past one.
   */
  smsSends(request: FastifyRequest, reply: FastifyReply): TSmsGate;
  /**
   * The same for the SMS a signed-in person's call sends to their own number (a new device, a
   * passkey's removal), without smsPerNumber: strangers asking codes for the number could
   * otherwise fill its limit and so refuse the person's own call.
   */
  ownSmsSends(request: FastifyRequest, reply: FastifyReply): TSmsGate;
  discoveries: onRequestAsyncHookHandler;
  challenges: onRequestAsyncHookHandler;
  logins: onRequestAsyncHookHandler;
  /**
   * In the handler, before a billed lookup of an account's owner: counts it by the signed-in
   * payer and by the address; 429 past either limit.
   */
  ownerLookups(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** After the payer guard: counts by the signed-in payer. */
  accountSearches: onRequestAsyncHookHandler;
  /** After the payer guard: counts by the signed-in payer. */
  paymentRequests: onRequestAsyncHookHandler;
  /** After the payer guard: counts by the signed-in payer. */
  complaints: onRequestAsyncHookHandler;
  /** After the payer guard: counts by the signed-in payer. */
  payerLists: onRequestAsyncHookHandler;
  terminalCalls: onRequestAsyncHookHandler;
  /**
   * In the handler, once the caller's access is known: counts a push of the payment by the key
   * of who may pay it (services/payments/terminal-pushes.ts `pushLimitKey`); 429 past its limit.
   */
  terminalPushes(request: FastifyRequest, reply: FastifyReply, pushKey: string): Promise<void>;
  cardCharges: onRequestAsyncHookHandler;
  embedChecks: onRequestAsyncHookHandler;
  debitNotices: onRequestAsyncHookHandler;
  /** After the payer's guard: counted per payer. */
  payerRights: onRequestAsyncHookHandler;
  payerExports: onRequestAsyncHookHandler;
  /** A card's refusals across payments, by its keyed hash (services/payments/card-tries.ts). */
  cardDeclines: {
    /** Before a charge: 429 once the card was refused its limit of times in the window. */
    refuseBlockedCard(request: FastifyRequest, reply: FastifyReply, cardKey: string): Promise<void>;
    /** After the network refused the card: counts it. */
    recordDecline(request: FastifyRequest, cardKey: string): Promise<void>;
  };
  providerNotices: {
    /** Before verifying a notice: refuses an address past its limit of failed verifications. */
    refuseBlockedAddress(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** After a notice failed verification: counts it for the address. */
    recordFailure(request: FastifyRequest): Promise<void>;
  };
  merchantAuth: {
    /** Before checking credentials: refuses an address past its limit of failures. */
    refuseBlockedAddress(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /**
     * After a failure: counts it for the address, and for the client id when the credentials
     * named one (malformed ones name nobody); 429 once past a limit.
     */
    recordFailure(
      request: FastifyRequest,
      reply: FastifyReply,
      clientId: string | null,
    ): Promise<void>;
  };
};

/** Where counters are shared: REDIS_URL, and what every key of ours there begins with. */
export type TRateLimitStore = { redisUrl: string | undefined; keyPrefix: string };

/**
 * How long a command may go unanswered before the call it counts is refused (503), and how long
 * connecting may take. Both are timers of this process's event loop: when the loop is held (a
 * loaded 2-core machine, a long collection, a GC), the timer fires as the loop frees, before the
 * answer waiting in the socket is read. So they are sized for a loop held several seconds, not
 * for Redis's speed (it answers in a millisecond); a Redis that is down fails at once anyway
 * (no offline queue), and only one that hangs makes a call wait this long.
 */
const REDIS_COMMAND_TIMEOUT_MS = 10_000;
const REDIS_CONNECT_TIMEOUT_MS = 20_000;

/**
 * A client of the Redis at `url`, connected (the start stops with one line when it cannot be).
 * A command fails at once while the connection is down (no queue of waiting requests) and after
 * REDIS_COMMAND_TIMEOUT_MS without an answer; the client reconnects by itself, and says so once
 * per outage.
 */
async function connectRedis(
  url: string,
  log: FastifyBaseLogger,
): Promise<{ client: Redis; close(): void }> {
  // Loaded only when asked for: the embedded mode neither needs nor loads it. Its default export
  // is the client class (its module.exports): the build's chunk of this CommonJS package has no
  // other export, so `{ Redis }` was undefined there and the built server with REDIS_URL did not
  // start ('Redis is not a constructor').
  const { default: Redis } = await import('ioredis');
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
  });
  // While connecting, the client's own error says why (its rejection only says it closed).
  let failure: unknown;
  const remember = (err: Error) => (failure ??= err);
  client.on('error', remember);
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    const reason = failure ?? error;
    throw new Error(
      `Redis at REDIS_URL did not answer (${reason instanceof Error ? reason.message : String(reason)}): the rate limits cannot be shared.`,
      { cause: error },
    );
  }
  client.off('error', remember);
  // An outage is said once, when the connection closes, and its end once, when it is ready
  // again; the client's errors meanwhile (each reconnection refused) say nothing more.
  let down = false;
  let closing = false;
  client.on('error', () => undefined);
  client.on('close', () => {
    if (down || closing) return;
    down = true;
    log.error('The connection to Redis closed: rate-limited calls are refused until it is back');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log.info('Redis answers again: rate limits are counted there');
  });
  return {
    client,
    close() {
      closing = true;
      client.disconnect();
    },
  };
}

/**
 * Registers the plugin (no global limit) on its store, and builds the limiters from `limits`.
 * The Redis client, when there is one, closes with the app.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  limits: TRateLimits,
  store: TRateLimitStore = { redisUrl: undefined, keyPrefix: '' },
): Promise<TRateLimiters> {
  const redis = store.redisUrl ? await connectRedis(store.redisUrl, app.log) : null;
  if (redis) app.addHook('onClose', () => redis.close());
  await app.register(fastifyRateLimit, {
    global: false,
    ...(redis ? { redis: redis.client, nameSpace: `${store.keyPrefix}rate-limit:` } : {}),
  });
  const check = checkMaker(app, limits);
  const sms = smsLimits(check);
  const merchantAuth = merchantAuthLimits(check);
  const cardDeclines = cardDeclineLimits(check);
  const providerNotices = providerNoticeLimits(check);
  return {
    pingStore: redis
      ? async () => {
          await redis.client.ping();
        }
      : null,
    // The ask only: the SMS it sends is counted when it is queued (smsSends).
    codeSends: countAgainst(check('codeSendsPerAddress', byAddress)),
    bvnVerifications: countAgainst(check('bvnVerificationsPerAddress', byAddress)),
    bvnCodeSends: perTarget(check, 'bvnCodesPerBvn'),
    recoveryCodeSends: perTarget(check, 'recoveryCodesPerNumber'),
    smsSends: sms.smsSends,
    ownSmsSends: sms.ownSmsSends,
    discoveries: countAgainst(check('discoveriesPerAddress', byAddress)),
    challenges: countAgainst(check('challengesPerAddress', byAddress)),
    logins: countAgainst(check('loginsPerAddress', byAddress)),
    ownerLookups: countEach(
      check('ownerLookupsPerPayer', byPayer),
      check('ownerLookupsPerAddress', byAddress),
    ),
    accountSearches: countAgainst(check('accountSearchesPerPayer', byPayer)),
    paymentRequests: countAgainst(check('paymentRequestsPerPayer', byPayer)),
    complaints: countAgainst(check('complaintsPerPayer', byPayer)),
    payerLists: countAgainst(check('payerListsPerPayer', byPayer)),
    terminalCalls: countAgainst(check('terminalCallsPerAddress', byAddress)),
    terminalPushes: perTarget(check, 'terminalPushesPerPayment'),
    cardCharges: countAgainst(check('cardChargesPerAddress', byAddress)),
    embedChecks: countAgainst(check('embedChecksPerAddress', byAddress)),
    debitNotices: countAgainst(check('debitNoticesPerAddress', byAddress)),
    payerRights: countAgainst(check('payerRightsPerPayer', byPayer)),
    payerExports: countAgainst(check('payerExportsPerAddress', byAddress)),
    cardDeclines,
    providerNotices,
    merchantAuth,
  };
}

/** Makes the check of one named limit, counting requests by the key `key` gives each. */
type TCheckMaker = (name: keyof TRateLimits, key: (request: FastifyRequest) => string) => TCheck;

/** Checks made on the app's one plugin instance, so that each counts in its store. */
function checkMaker(app: FastifyInstance, limits: TRateLimits): TCheckMaker {
  return (name, key) => {
    const counted = app.createRateLimit({
      max: limits[name].max,
      timeWindow: limits[name].windowMs,
      keyGenerator: (request) => `${name}:${key(request)}`,
    });
    // Only the store can fail here (Redis down): the call is refused, not let through.
    return async (request, options) => {
      try {
        return await counted(request, options);
      } catch (err) {
        request.log.warn({ err, limit: name }, 'the rate-limit store did not answer');
        throw new AppError('RATE_LIMITS_UNAVAILABLE');
      }
    };
  };
}

/** The request's address; an IPv6 holder has a whole /64 to choose from: the prefix is it. */
const byAddress = (request: FastifyRequest) => normalizeIP(request.ip);

/** After the payer guard; its address only if a route counts before the guard by mistake. */
const byPayer = (request: FastifyRequest) => request.payer?.payerId ?? byAddress(request);

/** Counts the request against each check in turn; 429 at the first one past its limit. */
const countEach =
  (...checks: TCheck[]) =>
  async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    for (const c of checks) {
      const wait = exceededBy(await c(request));
      if (wait !== null) refuse(reply, wait);
    }
  };

/** An onRequest hook that counts the request against each check in turn. */
const countAgainst = (...checks: TCheck[]): onRequestAsyncHookHandler => countEach(...checks);

/** Counts the request against `name` for the target the handler names by its keyed hash. */
function perTarget(
  check: TCheckMaker,
  name: 'bvnCodesPerBvn' | 'recoveryCodesPerNumber' | 'terminalPushesPerPayment',
) {
  const targetKeyOf = new WeakMap<FastifyRequest, string>();
  const counted = countEach(check(name, (request) => targetKeyOf.get(request) ?? ''));
  return async (request: FastifyRequest, reply: FastifyReply, targetKey: string) => {
    targetKeyOf.set(request, targetKey);
    await counted(request, reply);
  };
}

/** The person whose call it is: a signed-in payer, or a staff member (a payer too); or nobody. */
const accountOf = (request: FastifyRequest) =>
  request.payer?.payerId ?? request.staff?.payerId ?? null;

/**
 * The SMS a call sends, counted by the number each goes to, the person whose call it is, and its
 * address, in that order; the overall ceiling last, so that a send refused by a limit of its own
 * source spends nothing of it. A number or a person holds its limit whatever address the call
 * comes from (an address behind TRUST_PROXY is what X-Forwarded-For says).
 *
 * ownSmsSends: the SMS a signed-in person's call sends to their own number, counted the same but
 * not by the number, so that codes strangers ask for it cannot refuse the person's own call (a
 * passkey removal). It still counts against the person, the address and the ceiling.
 */
function smsLimits(check: TCheckMaker): Pick<TRateLimiters, 'smsSends' | 'ownSmsSends'> {
  const numberKeyOf = new WeakMap<FastifyRequest, string>();
  const perNumber = check('smsPerNumber', (request) => numberKeyOf.get(request) ?? '');
  const perAccount = check('smsPerAccount', (request) => accountOf(request) ?? '');
  const perAddress = check('smsPerAddress', byAddress);
  const overall = check('smsOverall', () => 'all');
  const anonymous = countEach(perNumber, perAddress, overall);
  const signedIn = countEach(perNumber, perAccount, perAddress, overall);
  const own = countEach(perAccount, perAddress, overall);
  return {
    smsSends: (request, reply) => async (numberKey) => {
      numberKeyOf.set(request, numberKey);
      await (accountOf(request) === null ? anonymous : signedIn)(request, reply);
    },
    ownSmsSends: (request, reply) => async (numberKey) => {
      numberKeyOf.set(request, numberKey);
      // Only a signed-in person has a number of their own: a call of nobody counts as smsSends.
      await (accountOf(request) === null ? anonymous : own)(request, reply);
    },
  };
}

/** Wrong merchant credentials, counted per address and per client id they named. */
function merchantAuthLimits(check: TCheckMaker): TRateLimiters['merchantAuth'] {
  const clientIdOf = new WeakMap<FastifyRequest, string>();
  const authFailuresByAddress = check('merchantAuthFailuresPerAddress', byAddress);
  const authFailuresByClient = check(
    'merchantAuthFailuresPerClient',
    (request) => clientIdOf.get(request) ?? '',
  );
  return {
    async refuseBlockedAddress(request, reply) {
      const wait = exceededBy(await authFailuresByAddress(request, { increment: false }));
      if (wait !== null) refuse(reply, wait);
    },
    async recordFailure(request, reply, clientId) {
      const waits = [exceededBy(await authFailuresByAddress(request))];
      if (clientId !== null) {
        clientIdOf.set(request, clientId);
        waits.push(exceededBy(await authFailuresByClient(request)));
      }
      const exceeded = waits.filter((wait): wait is number => wait !== null);
      if (exceeded.length > 0) refuse(reply, Math.max(...exceeded));
    },
  };
}

/** A card's refusals across payments, counted by its keyed hash. */
function cardDeclineLimits(check: TCheckMaker): TRateLimiters['cardDeclines'] {
  const cardKeyOf = new WeakMap<FastifyRequest, string>();
  const declinesByCard = check('cardDeclinesPerCard', (request) => cardKeyOf.get(request) ?? '');
  return {
    async refuseBlockedCard(request, reply, cardKey) {
      cardKeyOf.set(request, cardKey);
      const seen = await declinesByCard(request, { increment: false });
      // Refused once the window holds `max` refusals: the next charge would be one more.
      if (!seen.isAllowed && seen.remaining === 0) refuse(reply, seen.ttlInSeconds);
    },
    async recordDecline(request, cardKey) {
      cardKeyOf.set(request, cardKey);
      await declinesByCard(request);
    },
  };
}

/** Provider notices that failed verification, counted per address. */
function providerNoticeLimits(check: TCheckMaker): TRateLimiters['providerNotices'] {
  const noticeFailuresByAddress = check('noticeFailuresPerAddress', byAddress);
  return {
    async refuseBlockedAddress(request, reply) {
      const wait = exceededBy(await noticeFailuresByAddress(request, { increment: false }));
      if (wait !== null) refuse(reply, wait);
    },
    async recordFailure(request) {
      await noticeFailuresByAddress(request);
    },
  };
}
