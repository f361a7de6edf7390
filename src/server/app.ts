import Fastify, { type FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { ERROR_CATALOGUE, errorBody } from '../domain/errors';
import type { TConfig } from './config';
import type { TDatabase } from './db/database';
import { authRoutes } from './routes/auth';
import { authGrantSignatureRoutes } from './routes/auth-grant-signatures';
import { authPasskeyRoutes } from './routes/auth-passkeys';
import { authPhoneCodeRoutes } from './routes/auth-phone-codes';
import { consentRoutes } from './routes/consents';
import { healthRoutes } from './routes/health';
import { merchantConsentRoutes } from './routes/merchant-consents';
import { pageRoutes } from './routes/pages';
import { publicConfigRoutes } from './routes/public-config';
import { sandboxMessageRoutes } from './routes/sandbox-messages';
import { AppError } from './services/app-error';

export type TAppOptions = {
  config: TConfig;
  database: TDatabase;
  /** Folder of the built page; absent in server tests that need no page. */
  webDir?: string | undefined;
  logger?: boolean;
};

/** Builds the app: every route, the error mapper and the page. It never listens. */
export async function buildApp(options: TAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { level: options.config.logLevel, redact: ['req.headers.authorization'] },
    trustProxy: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      return reply
        .code(ERROR_CATALOGUE[error.code].status)
        .send(errorBody(error.code, error.detail));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const where =
        issue?.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext;
      return reply
        .code(400)
        .send(errorBody('VALIDATION_FAILED', `${where}: ${issue?.message ?? 'is not valid'}`));
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      // Malformed JSON, body too large and the like: say what fastify said, never a stack.
      return reply.code(status).send(errorBody('VALIDATION_FAILED', (error as Error).message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(errorBody('API_REQUEST_FAILED'));
  });

  app.setNotFoundHandler((request, reply) => reply.code(404).send(errorBody('NOT_FOUND')));

  const deps = { db: options.database.db, config: options.config };
  await app.register(healthRoutes, { database: options.database });
  await app.register(merchantConsentRoutes, deps);
  await app.register(consentRoutes, deps);
  await app.register(publicConfigRoutes, deps);
  await app.register(authRoutes, deps);
  await app.register(authPhoneCodeRoutes, deps);
  await app.register(authPasskeyRoutes, deps);
  await app.register(authGrantSignatureRoutes, deps);
  await app.register(sandboxMessageRoutes, deps);
  if (options.webDir) await app.register(pageRoutes, { ...deps, webDir: options.webDir });
  return app;
}
