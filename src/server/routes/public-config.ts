import type { FastifyPluginAsync } from 'fastify';
import type { TConfig } from '../config';

/** What the page needs before anyone signs in: the product name of the auth prompt (spec §2). */
export const publicConfigRoutes: FastifyPluginAsync<{ config: TConfig }> = async (
  app,
  { config },
) => {
  app.get('/api/public-config', async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300');
    return { success: true as const, productName: config.productName };
  });
};
