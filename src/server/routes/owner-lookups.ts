import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TRouteContext } from '../context';
import type { TOwnerLookups } from '../services/linking/account-owners';

/**
 * The context for a service that may look up an account's owner at the BVN registry (billed per
 * lookup: services/linking/account-owners.ts): each lookup is counted for this request's payer
 * and address first (rate-limits.ts `ownerLookups`), 429 past either limit.
 */
export const countingOwnerLookups = (
  ctx: TRouteContext,
  request: FastifyRequest,
  reply: FastifyReply,
): TRouteContext & TOwnerLookups => ({
  ...ctx,
  countOwnerLookup: () => ctx.limits.ownerLookups(request, reply),
});
