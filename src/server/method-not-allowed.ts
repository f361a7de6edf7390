import type { FastifyInstance } from 'fastify';
import { errorBody } from '../domain/errors';

/*
 * A path the server serves, asked with a method it does not take there, is 405 with an `Allow`
 * header listing the methods it takes (RFC 9110 §15.5.6), not 404: the client learns that the
 * path is right and the method wrong. Only a path no method serves is 404.
 */

/** The methods the router serves; HEAD is served wherever GET is. */
const ROUTED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The methods the router serves this URL with (its path; the query string is left out). */
export function methodsServing(app: FastifyInstance, url: string): string[] {
  return ROUTED_METHODS.filter((method) => app.findRoute({ method, url }) !== null);
}

/**
 * Answers 405 + Allow for a request the router found no route for while another method of its
 * path has one. In onRequest, before the not-found route reads the body: a body it could not
 * parse made the answer a 400 that named the body instead of the method.
 */
export function answerWrongMethods(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.is404) return;
    const allowed = methodsServing(app, request.url);
    if (allowed.length === 0) return;
    return reply
      .code(405)
      .header('Allow', allowed.join(', '))
      .send(errorBody('METHOD_NOT_ALLOWED'));
  });
}
