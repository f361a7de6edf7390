import type { onRequestAsyncHookHandler } from 'fastify';
import { IDENTIFY_TO_HEADER } from '../../domain/constants';
import { ERROR_CATALOGUE } from '../../domain/errors';
import { challenge, payerChallenge } from '../auth-challenges';
import type { TAppContext } from '../context';
import { AppError } from '../app-error';
import { markGuard } from './guard-kinds';
import { resolveIdentifyTo, type TIdentifiedTo } from '../services/merchants/merchant-agents';
import { authenticatePayer, type TPayerPrincipal } from '../services/identity/payer-sessions';

export type TPayerRequestContext = TPayerPrincipal & { identifiedTo: TIdentifiedTo | null };

/**
 * onRequest hook of routes that need a signed-in payer (bearer token, spec §7). It runs before
 * the body is parsed, so a stranger learns nothing about the request schema. With
 * `identifyTo: 'honour'` an x-identify-to header (spec §6 merchant or agent mode) is checked and
 * kept; routes about the person themselves ignore it (the page does not send it to auth/me).
 * Its 401s carry `WWW-Authenticate: Bearer`; the page reads only their body (web/api/http.ts).
 */
export function requirePayer(
  ctx: Pick<TAppContext, 'db' | 'config' | 'clock'>,
  options: { identifyTo: 'honour' | 'ignore' },
): onRequestAsyncHookHandler {
  return markGuard('payerBearer', async (request, reply) => {
    const principal = await authenticatePayer(
      ctx.db,
      ctx.config,
      request.headers.authorization,
      ctx.clock.now(),
    ).catch((error: unknown) => {
      // A missing, wrong or expired token: the 401 names the scheme (RFC 6750 §3).
      if (error instanceof AppError && ERROR_CATALOGUE[error.code].status === 401) {
        challenge(reply, payerChallenge(request));
      }
      throw error;
    });
    const header = request.headers[IDENTIFY_TO_HEADER];
    const merchantId = typeof header === 'string' ? header.trim() : '';
    const identifiedTo =
      options.identifyTo === 'honour' && merchantId
        ? await resolveIdentifyTo(ctx.db, principal.payerId, merchantId)
        : null;
    request.payer = { ...principal, identifiedTo };
  });
}

/**
 * onRequest hook, after requirePayer, of routes whose action needs the passkey, not a phone code
 * (docs/identity.md "Actions and the proof they need"): a session no trusted passkey proved is
 * refused with 403 PASSKEY_PROOF_REQUIRED before anything is read or changed; the page then asks
 * for the passkey (POST /api/auth/step-up) and tries again. Inside a service's transaction use
 * assertPasskeyProven(db, sessionId) instead.
 */
export const requirePasskeyProof: onRequestAsyncHookHandler = async (request) => {
  if (!payerOf(request).passkeyProven) throw new AppError('PASSKEY_PROOF_REQUIRED');
};

/** The payer the guard found; a route without the guard asking for it is a programming error. */
export function payerOf(request: { payer?: TPayerRequestContext }): TPayerRequestContext {
  if (!request.payer) throw new AppError('AUTH_TOKEN_UNAVAILABLE');
  return request.payer;
}

declare module 'fastify' {
  interface FastifyRequest {
    payer?: TPayerRequestContext;
  }
}
