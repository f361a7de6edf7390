import type { z } from 'zod/mini';
import type * as answers from './answers';
import { reloadPage, serverReachable } from './page-reload';
import { notReached } from './api-error';
import type { TRequest } from './call';
import { hasStoredUser } from './session';

type TAnswers = typeof answers;

/** The name of an answer's schema (answers.ts). */
export type TAnswerName = keyof TAnswers;

/** Where a page sent to sign in comes back to: same-origin paths only. */
export function returnToOf(search: string): string | null {
  const value = new URLSearchParams(search).get('returnTo');
  return value && value.startsWith('/') && !value.startsWith('//') ? value : null;
}

/**
 * Calls our API with the payer's bearer token when present (spec §7); the answer is parsed with
 * the schema `answer` names (answers.ts), and a failure is an ApiError of the catalogue. The
 * calling and parsing code (call.ts, with zod and the schemas) loads at the page's first call,
 * not with the page: the consent's first screen is taken over without it (src/web/main.tsx).
 */
export async function apiFetch<K extends TAnswerName>(
  path: string,
  { answer, ...request }: Omit<TRequest<TAnswers[K]>, 'schema'> & { answer: K },
): Promise<z.output<TAnswers[K]>> {
  const { call, answers: schemas } = await loadCall();
  return call(path, { ...request, schema: schemas[answer] }) as Promise<z.output<TAnswers[K]>>;
}

let callCodeFailed = false;

/**
 * The calling and parsing code (call.ts). Its code not come (a dropped connection), the call fails
 * as one that did not reach the server, which the payer may try again. Chromium keeps a failed
 * module for the page's life, so no call of this page can succeed after it: the next try, once
 * the server answers, opens the page again (no call was made before it: the server holds all).
 */
export async function loadCall(): Promise<typeof import('./call')> {
  try {
    return await import('./call');
  } catch {
    if (callCodeFailed && (await serverReachable())) reloadPage();
    callCodeFailed = true;
    throw notReached();
  }
}

/**
 * Settles once the stored session can be read whole: at once when no user is stored; otherwise
 * once the user's schema is here (session.ts setUserParser, given by call.ts). If that code does
 * not come, it settles all the same: the page draws itself signed out rather than not at all, and
 * its first call asks for the code again.
 */
export const sessionReady: Promise<void> = hasStoredUser()
  ? import('./call').then(
      () => undefined,
      () => undefined,
    )
  : Promise.resolve();
