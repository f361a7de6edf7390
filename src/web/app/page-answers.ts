import type { QueryClient } from '@tanstack/react-query';
import type { TErrorCode } from '../../domain/errors';
import type { TPublicConfigResponse } from '../../domain/schemas/auth';
import type { TConsentReadResponse } from '../../domain/schemas/consent';
import { ApiError } from '../api/api-error';
import { consentQueryKey, PUBLIC_CONFIG_QUERY_KEY } from '../api/query-keys';

/**
 * The answers the consent page's first screen is drawn from, as the server read them for the
 * page's own calls (GET /api/consent/{id}?clientId=, GET /api/public-config): it draws the
 * screen from them (src/web/server-render.tsx) and sends them in the page, where the browser
 * hydrates from the same answers without asking again (src/web/main.tsx).
 */
export type TPageAnswers = {
  publicConfig: TPublicConfigResponse;
  /**
   * Whether the browser offers Web Bluetooth, as the server guessed it from the User-Agent: what
   * it drew the Immediate Payment step's methods with, and so what the page hydrates them with.
   */
  webBluetooth: boolean;
  /**
   * The parts of the screen drawn whose code loads apart from the page (first-screen-parts.ts):
   * the page loads them before it takes the screen over (src/web/main.tsx).
   */
  parts: TFirstScreenPart[];
  /** The consent read, or how it failed; absent when the page makes no read (no clientId). */
  consent?:
    | { consentId: string; clientId: string; answer: TConsentReadResponse }
    | {
        consentId: string;
        clientId: string;
        failure: { status: number; code: TErrorCode; message: string };
      };
};

/** The element of the page that carries the answers (a JSON data block, never run). */
export const PAGE_ANSWERS_ID = 'page-answers';

/** Puts the answers where the page's queries look for them, as if they had just been fetched. */
export function seedPageAnswers(client: QueryClient, answers: TPageAnswers): void {
  client.setQueryData(PUBLIC_CONFIG_QUERY_KEY, answers.publicConfig);
  const { consent } = answers;
  if (!consent) return;
  const key = consentQueryKey(consent.consentId, consent.clientId);
  if ('answer' in consent) {
    client.setQueryData(key, consent.answer);
    return;
  }
  // A refusal (unknown, expired, another client's) is the page's error screen from the start.
  const { status, code, message } = consent.failure;
  client
    .getQueryCache()
    .build(client, { queryKey: key })
    .setState({
      status: 'error',
      fetchStatus: 'idle',
      error: new ApiError(status, code, message),
      errorUpdatedAt: Date.now(),
      fetchFailureCount: 1,
      fetchFailureReason: null,
    });
}

/**
 * The answers as a JSON data block of the page's HTML: `<` escaped, so no text of a consent can
 * close the element or open another. Never run; it carries the answer's nonce as every script
 * element of the page does.
 */
export function pageAnswersElement(answers: TPageAnswers, nonce: string): string {
  const json = JSON.stringify(answers).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${PAGE_ANSWERS_ID}" nonce="${nonce}">${json}</script>`;
}

/**
 * The answers the server sent in the page; null when it sent none (another page, or a render that
 * failed). They came in the page itself, from the page's own server: as trusted as its scripts.
 */
export function readPageAnswers(document: Document): TPageAnswers | null {
  const element = document.getElementById(PAGE_ANSWERS_ID);
  if (!element?.textContent) return null;
  try {
    return JSON.parse(element.textContent) as TPageAnswers;
  } catch {
    return null;
  }
}

/** The parts of the consent page that load apart from it, which its first screen may hold. */
export type TFirstScreenPart =
  'summary' | 'auth-prompt' | 'immediate-payment' | 'side-panel' | 'settled';
