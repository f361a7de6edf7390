import type { FastifyReply, FastifyRequest } from 'fastify';

/*
 * The challenges a 401 answers with (RFC 9110 §11.6.1: a 401 carries WWW-Authenticate). A client
 * that waits for the challenge before it sends credentials (`curl --anyauth`, Python's
 * HTTPBasicAuthHandler, most HTTP libraries' Basic support) sends them only after reading it.
 * Realms are fixed strings: they say which credentials to use, nothing about the request.
 */

/** The merchant API's HTTP Basic `clientId:secret` (RFC 7617; UTF-8 is the only charset). */
export const MERCHANT_CHALLENGE = 'Basic realm="Oya merchant API", charset="UTF-8"';

/** A bearer challenge (RFC 6750 §3): `invalid_token` only when a token was presented. */
const bearerChallenge = (realm: string, presented: boolean) =>
  `Bearer realm="${realm}"${presented ? ', error="invalid_token"' : ''}`;

/** Whether the request presents credentials of `scheme` (`Basic`, `Bearer`) at all. */
export function presentsScheme(request: FastifyRequest, scheme: 'Basic' | 'Bearer'): boolean {
  const header = request.headers.authorization ?? '';
  return new RegExp(`^${scheme}(?:\\s|$)`, 'i').test(header);
}

/** The operator's calls: the bearer token the process wrote into its data directory. */
export const operatorChallenge = (request: FastifyRequest) =>
  bearerChallenge('Oya operator API', presentsScheme(request, 'Bearer'));

/** A signed-in payer's calls: the bearer token a sign-in gave the page. */
export const payerChallenge = (request: FastifyRequest) =>
  bearerChallenge('Oya', presentsScheme(request, 'Bearer'));

/** Puts the challenge on the reply that is about to answer 401. */
export function challenge(reply: FastifyReply, value: string): void {
  void reply.header('WWW-Authenticate', value);
}
