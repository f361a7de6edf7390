// One route plugin on its own app, wired as buildApp wires every plugin (zod compilers, response
// headers, the catalogue's error and not-found handlers), for plugins the app does not register
// yet or must register differently (a context without the sandbox).
import Fastify, { type FastifyPluginAsync } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { errorBody } from '../../domain/errors';
import type { TAppContext, TRouteContext } from '../context';
import { handleError } from '../http-errors';
import { applyResponseHeaders } from '../response-headers';
import { useIdempotencyOption } from '../routes/idempotency';
import { startTestApp } from './test-app';

export async function startPluginApp(
  plugin: FastifyPluginAsync<TRouteContext>,
  overrides: Partial<TAppContext> = {},
) {
  const base = await startTestApp();
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  applyResponseHeaders(app, base.config);
  useIdempotencyOption(app, base.context.db);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(errorBody('NOT_FOUND')));
  // The plugins under test count against no rate limit.
  await app.register(plugin, { ...base.context, limits: undefined as never, ...overrides });
  await app.ready();
  return {
    app,
    config: base.config,
    context: base.context,
    async close() {
      await app.close();
      await base.close();
    },
  };
}
