import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZSandboxPersonRequest, ZSandboxPersonResponse } from '../../../domain/schemas/sandbox';
import type { TRouteContext } from '../../context';
import { jsonAnswers } from '../../routes/responses';
import { normalisePhone } from '../../services/identity/phone-codes';
import { mintSandboxPerson } from '../sandbox-people';

/**
 * POST /api/sandbox/people (docs/sandbox.md "Minting a person"): a new person of the sandbox's
 * BVN registry with an account per account scenario and a card per card scenario, so each test
 * and each developer can be a payer no one else is. Registered only in sandbox mode.
 */
export const sandboxPeopleRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  if (!ctx.sandbox) return;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/sandbox/people',
    {
      schema: {
        operationId: 'createSandboxPerson',
        summary: 'Mint a sandbox person with an account and a card of every scenario',
        body: ZSandboxPersonRequest,
        response: jsonAnswers({ 200: ZSandboxPersonResponse }),
      },
    },
    async (request) => {
      const { fullName, phoneNumber } = request.body ?? {};
      // The phone as sign-in reads it, so the person signs in with the number given here.
      const person = await mintSandboxPerson(ctx.db, {
        fullName,
        phoneNumber: phoneNumber === undefined ? undefined : normalisePhone(phoneNumber),
      });
      return { success: true as const, person };
    },
  );
};
