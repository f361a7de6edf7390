import type { z } from 'zod/mini';
import type { TAnswerName, TAnswerSchema } from './answers';
import { reloadPage, serverReachable } from './page-reload';
import { notReached } from './api-error';
import type { TRequest } from './call';
import { hasStoredUser, userSchemaUnavailable } from './session';

export type { TAnswerName };

/** Where a page sent to sign in comes back to: same-origin paths only. */
export function returnToOf(search: string): string | null {
  const value = new URLSearchParams(search).get('returnTo');
  return value && value.startsWith('/') && !value.startsWith('//') ? value : null;
}

/**
 * Calls our API with the payer's bearer token when present (spec §7); the answer is parsed with
 * the schema `answer` names (answers.ts), and a failure is an ApiError of the catalogue. The
 * calling and parsing code (call.ts, with zod) loads at the page's first call, not with the page:
 * the consent's first screen is taken over without it (src/web/main.tsx); the answer's schema
 * loads beside it, at the first call that parses it.
 */
export async function apiFetch<K extends TAnswerName>(
  path: string,
  { answer, ...request }: Omit<TRequest<TAnswerSchema<K>>, 'schema'> & { answer: K },
): Promise<z.output<TAnswerSchema<K>>> {
  const [{ call }, schema] = await Promise.all([
    loadCall(),
    loadCode(() => import('./answers').then(({ answerSchema }) => answerSchema(answer))),
  ]);
  return call(path, { ...request, schema });
}

let callCodeFailed = false;

/**
 * The calling and parsing code (call.ts). Its code not come (a dropped connection), the call fails
 * as one that did not reach the server, which the payer may try again. Chromium keeps a failed
 * module for the page's life, so no call of this page can succeed after it: the next try, once
 * the server answers, opens the page again (no call was made before it: the server holds all).
 */
export const loadCall = (): Promise<typeof import('./call')> => loadCode(() => import('./call'));

/** Code of the page loaded when first needed: see loadCall for what a failure does. */
async function loadCode<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch {
    if (callCodeFailed && (await serverReachable())) reloadPage();
    callCodeFailed = true;
    throw notReached();
  }
}

/**
 * Settles once the stored session can be read whole: at once when no user is stored; otherwise
 * once the user's schema is here (session.ts setUserParser, given by call.ts). If that code does
 * not come, it settles all the same: the page draws itself signed out rather than not at all (and
 * says so, for the held taps, src/server/routes/pages.ts), and its first call asks for the code
 * again.
 */
export const sessionReady: Promise<void> = hasStoredUser()
  ? import('./call').then(() => undefined, userSchemaUnavailable)
  : Promise.resolve();
