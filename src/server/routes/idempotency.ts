import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { z } from 'zod';
import { ZIdempotencyKey } from '../../domain/schemas/merchant-api';
import type { TAppContext } from '../context';
import { BANK_CALL_RETRY_WAIT_MS, runIdempotentCall } from '../services/idempotency';

/** The Idempotency-Key header a mutating call may carry (docs/security.md). */
export const ZIdempotencyHeaders = z.object({ 'idempotency-key': z.optional(ZIdempotencyKey) });

/**
 * The `idempotency` option of a route whose call waits on a bank or card network: the route takes
 * an Idempotency-Key header, its handler runs once per key of one caller, and a retry gets the
 * first answer back, status and body (runIdempotentCall). The handler returns its body and sets
 * its status with `reply.code()` when it is not 200.
 */
export type TIdempotencyOption<TRequest> = {
  /** The call and its caller, e.g. `payments.collect:{clientId}`: keys of others never meet. */
  scope(request: TRequest): string | Promise<string>;
  /** What the key's fingerprint is taken of: the validated body unless said. */
  request?(request: TRequest): unknown;
};

declare module 'fastify' {
  interface RouteShorthandOptions<
    RawServer,
    RawRequest,
    // A merged declaration repeats every type parameter of fastify's, used or not.
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    RawReply,
    RouteGeneric,
    ContextConfig,
    SchemaCompiler,
    TypeProvider,
    Logger,
  > {
    /** Runs the handler once per Idempotency-Key (routes/idempotency.ts). */
    idempotency?: TIdempotencyOption<
      FastifyRequest<
        RouteGeneric,
        RawServer,
        RawRequest,
        NoInfer<SchemaCompiler>,
        TypeProvider,
        ContextConfig,
        Logger
      >
    >;
  }
}

/**
 * Reads the `idempotency` option of every route registered after it on `app`: declares the
 * Idempotency-Key header in the route's schema and runs its handler through runIdempotentCall.
 */
export function useIdempotencyOption(app: FastifyInstance, db: TAppContext['db']): void {
  app.addHook('onRoute', (route) => {
    const { idempotency } = route;
    if (!idempotency) return;
    if (route.schema?.headers) {
      throw new Error(`${route.url}: a route with the idempotency option declares no headers`);
    }
    route.schema = { ...route.schema, headers: ZIdempotencyHeaders };
    const handler: RouteHandlerMethod = route.handler;
    route.handler = async function idempotentHandler(request, reply) {
      const key = request.headers['idempotency-key'];
      const answer = await runIdempotentCall(
        db,
        typeof key === 'string' && key
          ? {
              scope: await idempotency.scope(request),
              key,
              request: idempotency.request ? idempotency.request(request) : request.body,
            }
          : undefined,
        async () => {
          const body: unknown = await handler.call(this, request, reply);
          return { status: reply.statusCode, body };
        },
        { waitMs: BANK_CALL_RETRY_WAIT_MS },
      );
      return reply.code(answer.status).send(answer.body);
    };
  });
}
