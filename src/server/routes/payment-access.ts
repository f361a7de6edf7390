import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ZIdentifier } from '../../domain/schemas/fields';
import type { TAppContext } from '../context';
import { AppError } from '../app-error';
import { authenticatePayer } from '../services/identity/payer-sessions';
import type { TPaymentAccess } from '../services/payments/payment-records';

/**
 * Who is acting on a payment (spec §6): a bearer token makes it the signed-in payer (a bad token
 * is refused, never read as anonymous); without one, the holder of the consent link, by the
 * consentId they name. Neither: SIGN_IN_REQUIRED.
 */
export async function paymentAccessOf(
  ctx: Pick<TAppContext, 'db' | 'config' | 'clock'>,
  request: FastifyRequest,
  consentId: string | undefined,
): Promise<TPaymentAccess> {
  if (request.headers.authorization) {
    const payer = await authenticatePayer(
      ctx.db,
      ctx.config,
      request.headers.authorization,
      ctx.clock.now(),
    );
    return { payerId: payer.payerId };
  }
  if (consentId) return { consentId };
  throw new AppError('SIGN_IN_REQUIRED');
}

/**
 * The charge tokens a page holds for a payment (`?chargeToken=`, once per token: a card charge's
 * and a one-time account's), which make it that attempt's reader (docs/payments.md "Who reads a
 * payment").
 */
export const ZChargeTokens = z
  .union([ZIdentifier, z.array(ZIdentifier).max(4)])
  .optional()
  .describe('a charge token this page holds; repeated for each');

/** The tokens of `?chargeToken=`, as a list. */
export const chargeTokensOf = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : typeof value === 'string' ? [value] : value;

/** The Idempotency-Key scope of a payer call: the call and who made it. */
export const payerScope = (call: string, access: TPaymentAccess) =>
  'payerId' in access ? `${call}:payer:${access.payerId}` : `${call}:consent:${access.consentId}`;
