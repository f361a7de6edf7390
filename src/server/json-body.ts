import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error';

/** No request of ours nests deeper than this; deeper JSON is refused before it is parsed. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether a JSON text nests arrays and objects deeper than `max`, found in one pass without
 * parsing it (brackets inside strings do not count). Parsing and validating JSON nested
 * thousands deep costs a stack frame per level, so it never gets that far.
 */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}

/**
 * Replaces the JSON body parser with one that refuses deep nesting first, then parses with
 * Fastify's own (which also refuses `__proto__` and `constructor.prototype` keys).
 */
export function useDepthLimitedJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(
        new AppError('VALIDATION_FAILED', `body: is nested deeper than ${MAX_JSON_DEPTH} levels`),
        undefined,
      );
      return;
    }
    // Fastify's parser answers through done; its result is not a promise to wait for.
    void parse(request, text, done);
  });
}
