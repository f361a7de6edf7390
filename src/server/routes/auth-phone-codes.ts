import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { codeSentMessage } from '../../domain/phone-code-texts';
import { ZPhoneCodeRequest, ZPhoneCodeResponse } from '../../domain/schemas/auth';
import type { TRouteContext } from '../context';
import { capabilitiesOn } from '../providers/capability-lines';
import { capabilityOff } from '../providers/off';
import { requestPhoneCode } from '../services/identity/phone-codes';
import { jsonAnswers } from './responses';

/** One-time codes by SMS: sign-up, and sign-in on a device with no passkey. */
export const authPhoneCodeRoutes: FastifyPluginAsync<TRouteContext> = async (
  app,
  { db, config, clock, jobs, limits, capabilities },
) => {
  // Without SMS no code reaches a phone: the call is refused, not queued to fail.
  const smsOn = capabilitiesOn(capabilities).sms;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/auth/phone-codes',
    {
      onRequest: limits.codeSends,
      schema: {
        operationId: 'sendPhoneCode',
        summary: 'Send a one-time sign-in code by SMS',
        body: ZPhoneCodeRequest,
        response: jsonAnswers({ 200: ZPhoneCodeResponse }),
      },
    },
    async (request, reply) => {
      if (!smsOn) throw capabilityOff(['sms']);
      const sent = await requestPhoneCode(
        { db, config, jobs, smsGate: limits.smsSends(request, reply) },
        request.body.phone,
        clock.now(),
      );
      return {
        success: true as const,
        phoneNumber: sent.phoneNumber,
        expiresAt: sent.expiresAt.toISOString(),
        message: codeSentMessage(sent.phoneNumber),
      };
    },
  );
};
