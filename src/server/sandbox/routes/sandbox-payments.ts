import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZSandboxExpireResponse,
  ZSandboxThreeDsAnswer,
  ZSandboxThreeDsResponse,
  ZSandboxTransferRequest,
  ZSandboxTransferResponse,
} from '../../../domain/schemas/sandbox';
import type { TRouteContext } from '../../context';
import { answerSandboxChallenge, type TWaitingChallenges } from '../sandbox-challenges';
import { expireSandboxAccount, sendSandboxTransfer } from '../sandbox-transfers';
import type { TSandboxNotices } from '../sandbox-notices';
import { jsonAnswers } from '../../routes/responses';

/** A sandbox charge's reference, as the card network makes it (base64url). */
const ZChargeReference = z.string().regex(/^[\w-]{1,600}$/, 'must be a charge reference');

/**
 * The sandbox network's controls (docs/sandbox.md): send a transfer, answer a 3-D Secure
 * challenge, expire a one-time account. Registered only in sandbox mode.
 */
export const sandboxPaymentRoutes: FastifyPluginAsync<
  TRouteContext & { notices: TSandboxNotices | null; challenges: TWaitingChallenges }
> = async (app, ctx) => {
  const { notices, challenges } = ctx;
  if (!ctx.sandbox || !notices) return;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/sandbox/transfers',
    {
      schema: {
        operationId: 'sendSandboxTransfer',
        summary: 'Send a transfer on the sandbox network',
        body: ZSandboxTransferRequest,
        response: jsonAnswers({ 200: ZSandboxTransferResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await sendSandboxTransfer(ctx, notices, request.body)),
    }),
  );

  api.post(
    '/api/sandbox/3ds/:reference',
    {
      schema: {
        operationId: 'answerSandbox3ds',
        summary: 'Answer a sandbox card’s 3-D Secure challenge',
        params: z.object({ reference: ZChargeReference }),
        body: ZSandboxThreeDsAnswer,
        response: jsonAnswers({ 200: ZSandboxThreeDsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await answerSandboxChallenge(
        ctx,
        notices,
        challenges,
        request.params.reference,
        request.body.approved,
      )),
    }),
  );

  api.post(
    '/api/sandbox/virtual-accounts/:accountNumber/expire',
    {
      schema: {
        operationId: 'expireSandboxVirtualAccount',
        summary: 'Expire a one-time account of the sandbox',
        params: z.object({ accountNumber: z.string().regex(/^\d{10}$/, 'must be 10 digits') }),
        response: jsonAnswers({ 200: ZSandboxExpireResponse }),
      },
    },
    async (request) => expireSandboxAccount(ctx, notices, request.params.accountNumber),
  );
};
