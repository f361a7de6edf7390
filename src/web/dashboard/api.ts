import { z } from 'zod/mini';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { ERROR_CATALOGUE, formatErrorMessage } from '../../domain/errors';
import { ZApiErrorBody } from '../../domain/schemas/api-error';
import { ApiError, notReached } from '../api/api-error';

/*
 * The dashboard's calls (docs/dashboard.md "Its API"): same-origin with the session's cookie,
 * every write carrying the session's CSRF token; each answer parsed with its domain schema.
 */

let csrfToken = '';

/** The session's CSRF token, from GET /api/dashboard/session. */
export const setCsrfToken = (token: string) => {
  csrfToken = token;
};

export async function dashboardCall<S extends z.ZodMiniType>(
  path: string,
  schema: S,
  options: {
    method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    body?: unknown;
    key?: string;
  } = {},
): Promise<z.output<S>> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') headers['x-dashboard-csrf'] = csrfToken;
  if (options.key) headers['Idempotency-Key'] = options.key;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`/api/dashboard${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  } catch {
    throw notReached();
  }
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const failure = ZApiErrorBody.safeParse(json);
    if (failure.success) {
      const { code, message } = failure.data.error;
      throw new ApiError(response.status, code, message);
    }
    throw new ApiError(
      response.status,
      'API_CALL_FAILED',
      formatErrorMessage('API_CALL_FAILED', { status: response.status }),
    );
  }
  return schema.parse(json);
}

/**
 * What a failure says to staff: the server's message, or the generic one. A key reused with
 * another request is said in the form's words: staff never see the header it names.
 */
export const messageOf = (error: unknown) => {
  if (!(error instanceof ApiError)) return ERROR_CATALOGUE.API_REQUEST_FAILED.message;
  return error.code === 'IDEMPOTENCY_KEY_REUSED' ? DASHBOARD_TEXTS.formSentTwice : error.message;
};

/** A key per submitted form: a retry of the same submit is the same refund, not a second. */
export const newIdempotencyKey = () => crypto.randomUUID();
