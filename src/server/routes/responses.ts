import type { z } from 'zod';
import { ZApiErrorBody } from '../../domain/schemas/api-error';

/**
 * The answers a JSON route declares: its own success shapes (domain schemas, so the page parses
 * what the server sends) and the catalogue's failure shape for every 4xx and 5xx. The serializer
 * checks each answer against them: a route cannot send a shape the page would not parse.
 */
export function jsonAnswers<TSuccess extends Record<number, z.core.$ZodType>>(success: TSuccess) {
  return { ...success, '4xx': ZApiErrorBody, '5xx': ZApiErrorBody };
}
