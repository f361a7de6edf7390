import './zod-config';
import type { z } from 'zod/mini';
import { IDENTIFY_TO_HEADER } from '../../domain/constants';
import { ERROR_CATALOGUE, formatErrorMessage } from '../../domain/errors';
import { ZApiErrorBody } from '../../domain/schemas/api-error';
import { ZAuthUser } from '../../domain/schemas/auth-user';
import { ApiError, notReached } from './api-error';
import {
  clearExpiredSession,
  clearSession,
  readIdentifiedTo,
  readToken,
  sessionEnded,
  setAuthNotice,
  setUserParser,
} from './session';

export type TRequest<S extends z.ZodMiniType> = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** The domain schema of the answer: the page trusts nothing it has not parsed. */
  schema: S;
  signal?: AbortSignal | undefined;
  /**
   * A token to use instead of the stored one: sign-up finishes its passkey with the token it
   * was just given, before the session is stored and the page moves on.
   */
  token?: string | undefined;
};

/** spec §6: auth/me describes the person, so it never carries x-identify-to. */
const NO_IDENTIFY_TO = ['/api/auth/me'];
/** spec §6: a 401 on the user accounts fetch clears the stored session. */
const ACCOUNTS_FETCH = '/api/accounts/user';
/** The 401s that say the token names no live session (its session ended, or none was sent). */
const SESSION_ENDED_CODES: readonly string[] = ['AUTHENTICATION_FAILED', 'AUTH_TOKEN_UNAVAILABLE'];

/**
 * spec §8: a 401 TOKEN_EXPIRED clears token, user and identified-to, redirects to '/' and
 * raises 'Token expired - redirecting to login'. The sign-in page shows that notice and, after
 * sign-in, brings the payer back to where they were.
 */
function tokenExpired(): ApiError {
  const message = ERROR_CATALOGUE.TOKEN_EXPIRED.message;
  setAuthNotice(message);
  clearExpiredSession();
  const here = `${window.location.pathname}${window.location.search}`;
  // Inside a merchant's iframe the page stays where it is: '/' may not be framed by the
  // merchant, and with the session cleared the consent page shows its auth prompt (§6).
  const embedded = window.parent !== window;
  if (!embedded && window.location.pathname !== '/' && window.location.pathname !== '/login') {
    window.location.assign(`/?returnTo=${encodeURIComponent(here)}`);
  }
  return new ApiError(401, 'TOKEN_EXPIRED', message);
}

// The session reads its stored user with the user's schema, here with zod (session.ts).
setUserParser((stored) => {
  const parsed = ZAuthUser.safeParse(stored);
  return parsed.success ? parsed.data : null;
});

/**
 * Calls our API with the payer's bearer token when present (spec §7), and parses the answer with
 * its schema. The page calls it through apiFetch (http.ts), which loads this module at its first
 * call.
 */
export async function call<S extends z.ZodMiniType>(
  path: string,
  { method = 'GET', body, schema, signal, token: explicitToken }: TRequest<S>,
): Promise<z.infer<S>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = explicitToken ?? readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const identifiedTo = readIdentifiedTo();
  if (identifiedTo && !NO_IDENTIFY_TO.some((p) => path.startsWith(p))) {
    headers[IDENTIFY_TO_HEADER] = identifiedTo;
  }
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw notReached();
  }
  return answerOf(response, path, schema);
}

/**
 * An answer of our API to a call to `path`, parsed with its schema, or the ApiError of the
 * catalogue it stands for. Every call's answer is read here (call, and the form's file upload).
 */
export async function answerOf<S extends z.ZodMiniType>(
  response: Response,
  path: string,
  schema: S,
): Promise<z.infer<S>> {
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    // Our failures name a catalogue code; anything else (a proxy's page, a code this page does
    // not know) is spec §8's 'API call failed: {status}'.
    const parsed = ZApiErrorBody.safeParse(json);
    if (response.status === 401 && parsed.success && parsed.data.error.code === 'TOKEN_EXPIRED') {
      throw tokenExpired();
    }
    if (response.status === 401 && path.startsWith(ACCOUNTS_FETCH)) clearSession();
    if (
      response.status === 401 &&
      parsed.success &&
      SESSION_ENDED_CODES.includes(parsed.data.error.code)
    ) {
      sessionEnded();
    }
    if (parsed.success) {
      throw new ApiError(response.status, parsed.data.error.code, parsed.data.error.message);
    }
    throw new ApiError(
      response.status,
      'API_CALL_FAILED',
      formatErrorMessage('API_CALL_FAILED', { status: response.status }),
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError(
      response.status,
      'API_REQUEST_FAILED',
      ERROR_CATALOGUE.API_REQUEST_FAILED.message,
    );
  }
  return parsed.data;
}
