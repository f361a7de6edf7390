import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZSandboxTerminalReadRequest,
  ZSandboxTerminalReadResponse,
} from '../../../domain/schemas/sandbox';
import type { TRouteContext } from '../../context';
import { readWithSandboxReader } from '../sandbox-terminal';
import { jsonAnswers } from '../../routes/responses';

/**
 * POST /api/sandbox/terminal/read (docs/terminal.md "The sandbox reader"): the card reader's
 * twin for the page's sandbox transport. Registered only in sandbox mode.
 */
export const sandboxTerminalRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  if (!ctx.sandbox) return;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/sandbox/terminal/read',
    {
      schema: {
        operationId: 'readSandboxCard',
        summary: 'Read a card on the sandbox’s card reader',
        body: ZSandboxTerminalReadRequest,
        response: jsonAnswers({ 200: ZSandboxTerminalReadResponse }),
      },
    },
    async (request) => readWithSandboxReader(ctx, request.body),
  );
};
