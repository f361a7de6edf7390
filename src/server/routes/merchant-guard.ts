import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { presentsScheme } from '../auth-challenges';
import type { TRouteContext } from '../context';
import { AppError } from '../app-error';
import { markGuard } from './guard-kinds';
import {
  authenticateClient,
  type TAuthenticatedClient,
} from '../services/merchants/merchant-clients';

/** A client id is visible ASCII; anything else cannot be one, and is the same 401. */
const CLIENT_ID = /^[\x21-\x7e]{1,100}$/;

/** The secret of the request's HTTP Basic credentials (a rotation keeps it valid a while). */
export function presentedSecret(request: FastifyRequest): string {
  return basicCredentials(request).secret;
}

/** Reads HTTP Basic `clientId:secret`; anything else is the same 401. */
function basicCredentials(request: FastifyRequest): { clientId: string; secret: string } {
  const header = request.headers.authorization ?? '';
  const match = /^Basic\s+([A-Za-z0-9+/=]{1,1024})$/i.exec(header);
  const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const clientId = decoded.slice(0, Math.max(colon, 0));
  if (colon <= 0 || !CLIENT_ID.test(clientId)) throw new AppError('INVALID_CLIENT_CREDENTIALS');
  return { clientId, secret: decoded.slice(colon + 1) };
}

/**
 * preValidation hook of the merchant API (HTTP Basic client credentials): it runs before the
 * body is validated, so a stranger learns nothing about the schema. Every 401 carries the Basic
 * challenge (http-errors.ts). Only wrong credentials count against the address and the client id
 * (429 past the limits, docs/security.md): a request with no Basic credentials at all, as a
 * client that waits for the challenge sends first, is 401 and counts for nothing.
 */
export function requireMerchant(
  ctx: Pick<TRouteContext, 'db' | 'limits' | 'clock'>,
): preValidationAsyncHookHandler {
  return markGuard('merchantBasic', async (request, reply) => {
    await ctx.limits.merchantAuth.refuseBlockedAddress(request, reply);
    if (!presentsScheme(request, 'Basic')) throw new AppError('INVALID_CLIENT_CREDENTIALS');
    let clientId: string | null = null;
    try {
      const credentials = basicCredentials(request);
      clientId = credentials.clientId;
      request.merchantClient = await authenticateClient(
        ctx.db,
        clientId,
        credentials.secret,
        ctx.clock.now(),
      );
    } catch (error) {
      if (error instanceof AppError)
        await ctx.limits.merchantAuth.recordFailure(request, reply, clientId);
      throw error;
    }
  });
}

/** The client the guard authenticated; a route without the guard asking is a programming error. */
export function merchantOf(request: FastifyRequest): TAuthenticatedClient {
  if (!request.merchantClient) throw new AppError('INVALID_CLIENT_CREDENTIALS');
  return request.merchantClient;
}

declare module 'fastify' {
  interface FastifyRequest {
    merchantClient?: TAuthenticatedClient;
  }
}
