import { createHash, randomInt } from 'node:crypto';
import {
  ProviderNoAnswer,
  providerCaller,
  type TProviderReading,
  type TProviderResponse,
} from '../provider-call';

/*
 * Remita's Direct Debit calls as the adapter describes them to the core (provider-call.ts, which
 * runs them), written from Remita's "Direct Debit Integration Documentation" v2.0 and its PHP SDK
 * (RemitaNet/remita-mandate-directdebit-sdk-php: ApplicationUrl.php,
 * MandateDirectDebitService.php): every call a POST of JSON under one path, signed by a SHA-512
 * hash of fields concatenated with nothing between them, each ending with the API key; the two
 * activation calls are signed in headers instead. Answers come wrapped as JSONP, `jsonp ({…})`,
 * and say what Remita did in their `statuscode`, which the adapter reads: to the core every
 * answer of Remita's is answered. No message of these calls carries the key or the token.
 */

export type TRemitaCredentials = {
  merchantId: string;
  serviceTypeId: string;
  apiKey: string;
  /** The token of the activation calls (requestAuthorization, validateAuthorization). */
  apiToken: string;
  /** Remita's host, e.g. https://login.remita.net (live) or https://remitademo.net (demo). */
  baseUrl: string;
};

/** The calls, by their path under Remita's echannel mandate API (ApplicationUrl.php). */
export const REMITA_PATHS = {
  setup: 'setup',
  status: 'status',
  requestAuthorization: 'requestAuthorization',
  validateAuthorization: 'validateAuthorization',
  debit: 'payment/send',
  debitStatus: 'payment/status',
  cancelDebit: 'payment/stop',
  stop: 'stop',
} as const;

export type TRemitaCall = keyof typeof REMITA_PATHS;

const API_ROOT = '/remita/exapp/api/v1/send/api/echannelsvc/echannel/mandate/';

/** An answer of Remita's, as it sent it: `statuscode` and `status` and what the call adds. */
export type TRemitaAnswer = Record<string, unknown> & { statuscode: string; status: string };

/** Remita did not answer, or answered so that whether it acted is not known. */
export const remitaNoAnswer = (call: string, reason: string) =>
  new ProviderNoAnswer('remita', call, reason);

/** SHA-512, hex, of the fields concatenated as the documents list them. */
export const remitaHash = (...fields: readonly string[]): string =>
  createHash('sha512').update(fields.join(''), 'utf8').digest('hex');

/**
 * An answer's JSON from its body: `jsonp (…)` (the PDF's samples, the SDK's formatResponse), or
 * plain JSON; null for anything else.
 */
export function unwrapJsonp(body: string): Record<string, unknown> | null {
  const text = body.trim();
  const wrapped = /^jsonp\s*\(([\s\S]*)\)\s*;?$/.exec(text);
  try {
    const value: unknown = JSON.parse(wrapped ? (wrapped[1] ?? '') : text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The time as the activation calls' REQUEST_TS writes it: 2019-09-11T05:33:39+000000 (UTC). */
export const remitaTimestamp = (now: Date): string => `${now.toISOString().slice(0, 19)}+000000`;

/** Kobo as the naira Remita's amounts are written in: "20000", or "20000.50". */
export const remitaAmount = (kobo: number): string =>
  kobo % 100 === 0 ? String(kobo / 100) : (kobo / 100).toFixed(2);

/** Naira as Remita writes them ("2500", "2500.0", 2500) back to kobo; null if it is not one. */
export function koboOf(amount: unknown): number | null {
  const text = typeof amount === 'string' ? amount.trim() : null;
  const naira = typeof amount === 'number' ? amount : text ? Number(text) : NaN;
  return Number.isFinite(naira) ? Math.round(naira * 100) : null;
}

export type TRemitaCalls = {
  readonly credentials: TRemitaCredentials;
  /** Posts one call and reads its answer; ProviderNoAnswer when there was none to read. */
  call(call: TRemitaCall, body: Record<string, unknown>): Promise<TRemitaAnswer>;
};

/** How long one call to Remita may take before it is taken as unanswered. */
export const REMITA_TIMEOUT_MS = 15_000;

/**
 * Remita's answer, or no answer: words that are not Remita's, or a refusal of our signature. A
 * wrong hash or credentials is our configuration, not the payer's: nothing was decided. Only 020
 * answering a payer's code is theirs (a wrong OTP); 013 is always our signature.
 */
const readAnswer =
  (call: TRemitaCall) =>
  (response: TProviderResponse): TProviderReading<TRemitaAnswer> => {
    const answer = unwrapJsonp(response.text);
    if (!answer || typeof answer.statuscode !== 'string') {
      return { outcome: 'unknown', reason: "an answer that is not Remita's" };
    }
    const payersCode = call === 'validateAuthorization' && answer.statuscode === '020';
    if ((answer.statuscode === '013' || answer.statuscode === '020') && !payersCode) {
      return { outcome: 'unknown', reason: `Remita refused our signature (${answer.statuscode})` };
    }
    return {
      outcome: 'answered',
      data: {
        ...answer,
        statuscode: answer.statuscode,
        status: typeof answer.status === 'string' ? answer.status : '',
      },
    };
  };

export function remitaCalls(
  credentials: TRemitaCredentials,
  options: { timeoutMs?: number; now?: () => Date } = {},
): TRemitaCalls {
  const now = options.now ?? (() => new Date());
  const post = providerCaller({
    provider: 'remita',
    baseUrl: credentials.baseUrl,
    timeoutMs: options.timeoutMs ?? REMITA_TIMEOUT_MS,
  });
  return {
    credentials,
    async call(call, body) {
      const activation = call === 'requestAuthorization' || call === 'validateAuthorization';
      const answer = await post({
        call: REMITA_PATHS[call],
        method: 'POST',
        path: `${API_ROOT}${REMITA_PATHS[call]}`,
        ...(activation ? { headers: activationHeaders(credentials, now()) } : {}),
        body: { json: body },
        read: readAnswer(call),
      });
      // Remita's answers are all read as answered; a refusal is in their statuscode.
      if (answer.outcome !== 'answered') throw remitaNoAnswer(call, answer.reason);
      return answer.data;
    },
  };
}

/**
 * The activation calls' headers: a fresh REQUEST_ID, its time, and API_DETAILS_HASH over the
 * key, that id and the token (PDF sections 3.1 and 3.2).
 */
function activationHeaders(credentials: TRemitaCredentials, now: Date): Record<string, string> {
  const requestId = `${now.getTime()}${randomInt(1_000, 10_000)}`;
  return {
    MERCHANT_ID: credentials.merchantId,
    API_KEY: credentials.apiKey,
    REQUEST_ID: requestId,
    REQUEST_TS: remitaTimestamp(now),
    API_DETAILS_HASH: remitaHash(credentials.apiKey, requestId, credentials.apiToken),
  };
}
