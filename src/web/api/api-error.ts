import type { TErrorCode } from '../../domain/errors';
import { PAGE_ERRORS } from '../../domain/page-errors';

/**
 * A failed call: the server's catalogue code and message, and the HTTP status (0 when the server
 * could not be reached). Its own module, free of schemas, so the page's shell can tell a failure
 * that asking again will not change without loading zod (vite.config.ts: the first paint).
 *
 * The code is always a catalogue code (src/domain/errors.ts), the same the server answers with:
 * the page decides what to do by the code, never by the words of the message.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: TErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Whether a failure is a call that failed with one of these catalogue codes. */
export function isApiError(error: unknown, ...codes: TErrorCode[]): error is ApiError {
  return error instanceof ApiError && (codes.length === 0 || codes.includes(error.code));
}

/** Status 0: the server was not reached; spec §8's generic 'API request failed'. */
export function notReached(): ApiError {
  return new ApiError(0, 'API_REQUEST_FAILED', PAGE_ERRORS.API_REQUEST_FAILED.message);
}
