import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZPublicConfigResponse, type TPublicConfigResponse } from '../../domain/schemas/auth';
import type { TRouteContext } from '../context';
import { capabilitiesOn } from '../providers/capability-lines';
import { jsonAnswers } from './responses';
import { isOff } from '../providers/off';
import type { TAcquirerPort } from '../providers/payments';

/** The public config's answer: the same in the page's call and in its server-drawn first screen. */
export function publicConfigAnswer({
  config,
  sandbox,
  capabilities,
  providers,
}: Pick<
  TRouteContext,
  'config' | 'sandbox' | 'capabilities' | 'providers'
>): TPublicConfigResponse {
  return {
    success: true as const,
    productName: config.productName,
    debugTools: config.debugRoutes,
    sandbox: sandbox !== null,
    capabilities: capabilitiesOn(capabilities),
    // An acquirer that is off answers no kind: the page offers no terminal then anyway.
    terminal: isPush(providers.payments.acquirer) ? 'push' : 'reader',
  };
}

/**
 * What the page needs before anyone signs in: the product name of the auth prompt (spec §2),
 * whether the testers' tools are on, whether payments go to the sandbox network, and which
 * capabilities are on (the ways to pay and link it offers).
 */
export const publicConfigRoutes: FastifyPluginAsync<TRouteContext> = async (
  app,
  { config, sandbox, capabilities, providers },
) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/public-config',
    {
      schema: {
        operationId: 'getPublicConfig',
        summary: 'Read what the page needs before anyone signs in',
        response: jsonAnswers({ 200: ZPublicConfigResponse }),
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=300');
      return publicConfigAnswer({ config, sandbox, capabilities, providers });
    },
  );
};

/** Whether the chip terminal is a pushed one (an off acquirer is neither kind). */
const isPush = (acquirer: Parameters<typeof isOff<TAcquirerPort>>[0]) =>
  !isOff(acquirer) && acquirer.kind === 'push';
