import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { formatNigerianPhone, ZPhoneCodeRequest } from '../../domain/schemas/auth';
import type { TConfig } from '../config';
import type { TDb } from '../db/database';
import { requestPhoneCode } from '../services/phone-codes';

/** One-time codes by SMS: sign-up, and sign-in on a device with no passkey. */
export const authPhoneCodeRoutes: FastifyPluginAsync<{ db: TDb; config: TConfig }> = async (
  app,
  { db, config },
) => {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post('/api/auth/phone-codes', { schema: { body: ZPhoneCodeRequest } }, async (request) => {
      const sent = await requestPhoneCode(db, config, request.body.phone);
      return {
        success: true as const,
        phoneNumber: sent.phoneNumber,
        expiresAt: sent.expiresAt.toISOString(),
        message: `We sent a 6-digit code to ${formatNigerianPhone(sent.phoneNumber)}`,
      };
    });
};
