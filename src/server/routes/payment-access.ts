import type { FastifyRequest } from 'fastify';
import type { TAppContext } from '../context';
import { AppError } from '../services/app-error';
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

/** The Idempotency-Key scope of a payer call: the call and who made it. */
export const payerScope = (call: string, access: TPaymentAccess) =>
  'payerId' in access ? `${call}:payer:${access.payerId}` : `${call}:consent:${access.consentId}`;
