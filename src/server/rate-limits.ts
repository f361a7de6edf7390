import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
} from 'fastify';
import { formatErrorMessage } from '../domain/errors';
import { AppError } from './services/app-error';

/*
 * Limits on what costs us money or helps an attacker (docs/security.md): SMS codes (each one is
 * paid for once a real provider is plugged in, and SMS pumping farms them), sign-in sessions and
 * challenges, wrong merchant secrets, and card charges (card testing: per address, and per card
 * across payments by its keyed hash). The counting is @fastify/rate-limit's; this file only
 * says what is counted, by which key, and answers the catalogue's 429 with Retry-After.
 *
 * Counters live in the process (the plugin's LRU store). Several processes behind one address
 * each count on their own, so a shared store (the plugin's Redis store) is the next step there.
 */

export type TRateLimit = { max: number; windowMs: number };

const MINUTE = 60_000;

export const DEFAULT_RATE_LIMITS = {
  /** SMS codes asked for from one address (one number has its own limit too: 10 an hour). */
  codeSendsPerAddress: { max: 10, windowMs: 10 * MINUTE },
  /** SMS codes asked for by everybody together: a ceiling on what a flood can cost. */
  codeSendsOverall: { max: 1_000, windowMs: 60 * MINUTE },
  /** Sign-in sessions opened from one address. */
  discoveriesPerAddress: { max: 60, windowMs: MINUTE },
  /** WebAuthn challenges and grant nonces handed to one address. */
  challengesPerAddress: { max: 60, windowMs: MINUTE },
  /** Logins tried from one address (each code has its own 5 tries). */
  loginsPerAddress: { max: 60, windowMs: MINUTE },
  /** Account searches by one payer: each asks banks for an account holder's name. */
  accountSearchesPerPayer: { max: 30, windowMs: MINUTE },
  /** Payment requests one payer makes or declines (docs/payment-requests.md): each asks another
   * payer for money, so a flood of them is a nuisance to others. */
  paymentRequestsPerPayer: { max: 30, windowMs: MINUTE },
  /** Card-terminal calls from one address: each purchase is a PIN tried at the issuer. */
  terminalCallsPerAddress: { max: 60, windowMs: MINUTE },
  /** Card charges (a payment's or a link's) from one address: card testing tries card after card. */
  cardChargesPerAddress: { max: 20, windowMs: 10 * MINUTE },
  /** Refusals of one card (by its keyed hash) across payments: past this, the card is refused. */
  cardDeclinesPerCard: { max: 10, windowMs: 60 * MINUTE },
  /** Wrong merchant credentials from one address: past this, the address is refused. */
  merchantAuthFailuresPerAddress: { max: 20, windowMs: MINUTE },
  /** Wrong secrets for one client id: past this, wrong ones answer 429; the right one still works. */
  merchantAuthFailuresPerClient: { max: 10, windowMs: MINUTE },
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
  codeSends: onRequestAsyncHookHandler;
  discoveries: onRequestAsyncHookHandler;
  challenges: onRequestAsyncHookHandler;
  logins: onRequestAsyncHookHandler;
  /** After the payer guard: counts by the signed-in payer. */
  accountSearches: onRequestAsyncHookHandler;
  /** After the payer guard: counts by the signed-in payer. */
  paymentRequests: onRequestAsyncHookHandler;
  terminalCalls: onRequestAsyncHookHandler;
  cardCharges: onRequestAsyncHookHandler;
  /** A card's refusals across payments, by its keyed hash (services/payments/card-tries.ts). */
  cardDeclines: {
    /** Before a charge: 429 once the card was refused its limit of times in the window. */
    refuseBlockedCard(request: FastifyRequest, reply: FastifyReply, cardKey: string): Promise<void>;
    /** After the network refused the card: counts it. */
    recordDecline(request: FastifyRequest, cardKey: string): Promise<void>;
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

/** Registers the plugin (no global limit) and builds the limiters from `limits`. */
export async function registerRateLimits(
  app: FastifyInstance,
  limits: TRateLimits,
): Promise<TRateLimiters> {
  await app.register(fastifyRateLimit, { global: false });
  const clientIdOf = new WeakMap<FastifyRequest, string>();
  const cardKeyOf = new WeakMap<FastifyRequest, string>();

  const check = (name: keyof TRateLimits, key: (request: FastifyRequest) => string): TCheck =>
    app.createRateLimit({
      max: limits[name].max,
      timeWindow: limits[name].windowMs,
      keyGenerator: (request) => `${name}:${key(request)}`,
    });
  // An IPv6 holder has a whole /64 to choose addresses from: the prefix is the address.
  const byAddress = (request: FastifyRequest) => normalizeIP(request.ip);
  // After the payer guard; its address only if a route counts before the guard by mistake.
  const byPayer = (request: FastifyRequest) => request.payer?.payerId ?? byAddress(request);

  /** An onRequest hook that counts the request against each check in turn. */
  const countAgainst =
    (...checks: TCheck[]): onRequestAsyncHookHandler =>
    async (request, reply) => {
      for (const c of checks) {
        const wait = exceededBy(await c(request));
        if (wait !== null) refuse(reply, wait);
      }
    };

  const authFailuresByAddress = check('merchantAuthFailuresPerAddress', byAddress);
  const authFailuresByClient = check(
    'merchantAuthFailuresPerClient',
    (request) => clientIdOf.get(request) ?? '',
  );
  const declinesByCard = check('cardDeclinesPerCard', (request) => cardKeyOf.get(request) ?? '');

  return {
    codeSends: countAgainst(
      check('codeSendsPerAddress', byAddress),
      check('codeSendsOverall', () => 'all'),
    ),
    discoveries: countAgainst(check('discoveriesPerAddress', byAddress)),
    challenges: countAgainst(check('challengesPerAddress', byAddress)),
    logins: countAgainst(check('loginsPerAddress', byAddress)),
    accountSearches: countAgainst(check('accountSearchesPerPayer', byPayer)),
    paymentRequests: countAgainst(check('paymentRequestsPerPayer', byPayer)),
    terminalCalls: countAgainst(check('terminalCallsPerAddress', byAddress)),
    cardCharges: countAgainst(check('cardChargesPerAddress', byAddress)),
    cardDeclines: {
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
    },
    merchantAuth: {
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
    },
  };
}
