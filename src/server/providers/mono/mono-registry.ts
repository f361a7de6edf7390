import { AppError } from '../../app-error';
import type { TBvnRegistryPort } from '../payments';
import {
  ProviderNoAnswer,
  providerCaller,
  type TProviderReading,
  type TProviderResponse,
} from '../provider-call';
import { nipCodeOf } from './mono-bank-codes';

/*
 * The BVN registry on Mono Lookup (docs/providers/mono.md), written from Mono's docs: "BVN Lookup
 * Integration Guide" (docs.mono.co/docs/lookup/bvn-igree), the API reference's "Initiate BVN
 * Lookup", "Verify OTP" and "Fetch BVN Details" (docs.mono.co/api/bvn/*), and "Account Number
 * Integration Guide" (docs.mono.co/docs/lookup/account-number). Every call sends the secret key
 * as `mono-sec-key` and JSON both ways; Mono answers `{ status, message, timestamp, data }`.
 *
 * | Port call          | Mono call                                                   | What we read                          |
 * | ------------------ | ----------------------------------------------------------- | ------------------------------------- |
 * | startVerification  | POST /v2/lookup/bvn/initiate `{ bvn, scope: 'identity' }`   | data.session_id, data.methods[]       |
 * | sendCode           | POST /v2/lookup/bvn/verify `{ method }`, `x-session-id`     | 2xx: NIBSS sent the code              |
 * | finishVerification | POST /v2/lookup/bvn/details `{ otp }`, `x-session-id`       | data: first/middle/last name, dob, bvn |
 * | accountOwner       | POST /v3/lookup/account-number `{ nip_code, account_number }` | data.bvn                            |
 *
 * Mono bills each of these, failed ones included ("Billing Notice: BVN Lookup"): the services
 * call them only for what the payer asked, within limits, and keep what an account lookup
 * answered (account-owners.ts). Mono's docs publish no error catalogue for these calls: a 401 or
 * 403 is the key (ProviderKeyRefused, never read as an answer), a 5xx, any other status or no
 * answer is no answer (ProviderNoAnswer, from the core: provider-call.ts), and a 400, 404 or 422
 * is Mono's refusal of what was asked (read per call below).
 */

/** How long one call to Mono may take: a payer waits on each. */
export const MONO_TIMEOUT_MS = 15_000;

/** The scope our verification asks: the holder's identity (the accounts need a consent of their own). */
const SCOPE = 'identity';

/**
 * The way NIBSS offers to send the code to a number the payer types (`alternate_phone`, with
 * `phone_number`): not offered here, since such a code proves the number, not the BVN's holder.
 */
const TYPED_NUMBER_METHOD = 'alternate_phone';

type TMonoBody = { message?: unknown; data?: unknown } | null;
type TMonoAnswer = { status: number; body: TMonoBody };

/** Mono's answer to a BVN call that was not what the call needs: whether Mono acted is not known. */
const monoNoAnswer = (call: string, reason: string) => new ProviderNoAnswer('mono', call, reason);

/** A Mono refusal of what was asked (not the key's, not Mono's own failure). */
const isRefusal = (status: number) => status === 400 || status === 404 || status === 422;

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
}

/** A 2xx with Mono's JSON is its answer; a 400, 404 or 422 its refusal; anything else none. */
function readMono(response: TProviderResponse): TProviderReading<TMonoBody> {
  const body: TMonoBody = record(response.json);
  if (isRefusal(response.status)) {
    return { outcome: 'refused', reason: `HTTP ${response.status}`, data: body };
  }
  if (response.status >= 300) {
    return { outcome: 'unknown', reason: 'Mono failed' };
  }
  if (!body) return { outcome: 'unknown', reason: 'an answer with no JSON' };
  return { outcome: 'answered', data: body };
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** Mono's `dob` as YYYY-MM-DD ('2020-01-06' in its docs; a full ISO time is cut). */
function isoDate(value: unknown): string {
  const date = text(value);
  if (/^\d{4}-\d{2}-\d{2}/.test(date)) return date.slice(0, 10);
  const parsed = new Date(date);
  return Number.isNaN(parsed.getTime()) ? date : parsed.toISOString().slice(0, 10);
}

export function monoBvnRegistry(options: {
  secretKey: string;
  baseUrl: string;
  timeoutMs?: number;
}): TBvnRegistryPort {
  const post = providerCaller({
    provider: 'mono',
    baseUrl: options.baseUrl,
    headers: { 'mono-sec-key': options.secretKey },
    timeoutMs: options.timeoutMs ?? MONO_TIMEOUT_MS,
    keySetting: 'MONO_SECRET_KEY',
  });
  const call = async (
    path: string,
    body: Record<string, string>,
    session?: string,
  ): Promise<TMonoAnswer> => {
    const answer = await post({
      call: path,
      method: 'POST',
      path,
      ...(session ? { headers: { 'x-session-id': session } } : {}),
      body: { json: body },
      read: readMono,
    });
    return answer.outcome === 'answered'
      ? { status: answer.status, body: answer.data }
      : { status: answer.status, body: record(answer.data) };
  };

  return {
    provider: 'mono',
    codeSender: 'nibss',
    decidesOwners: true,
    async startVerification(bvn) {
      const answer = await call('/v2/lookup/bvn/initiate', { bvn, scope: SCOPE });
      if (isRefusal(answer.status)) return null;
      const data = record(answer.body?.data);
      const session = text(data?.session_id);
      if (!session || !Array.isArray(data?.methods)) {
        throw monoNoAnswer(
          '/v2/lookup/bvn/initiate',
          'a BVN lookup opened with no session or methods',
        );
      }
      const methods = data.methods
        .map((method) => ({ id: text(record(method)?.method), hint: text(record(method)?.hint) }))
        .filter((method) => method.id !== '' && method.id !== TYPED_NUMBER_METHOD);
      return { session, methods };
    },
    async sendCode(session, method) {
      const answer = await call('/v2/lookup/bvn/verify', { method }, session);
      return isRefusal(answer.status) ? 'expired' : 'sent';
    },
    async finishVerification(session, code) {
      const answer = await call('/v2/lookup/bvn/details', { otp: code }, session);
      // A session Mono no longer knows is gone; any other refusal is the code's.
      if (answer.status === 404) return { outcome: 'expired' };
      if (isRefusal(answer.status)) return { outcome: 'wrong_code' };
      const data = record(answer.body?.data);
      const bvn = text(data?.bvn);
      if (!data || !bvn) throw monoNoAnswer('/v2/lookup/bvn/details', 'BVN details without a BVN');
      const fullName = [data.first_name, data.middle_name, data.last_name]
        .map(text)
        .filter(Boolean)
        .join(' ');
      return {
        outcome: 'verified',
        bvn,
        holder: { fullName, dateOfBirth: isoDate(data.dob) },
        // The identity scope answers no accounts: the payer names them, and each is looked up.
        accounts: null,
      };
    },
    async accountOwner({ institutionCode, accountNumber }, beforeBilledCall) {
      const nipCode = nipCodeOf(institutionCode);
      // A bank Mono's lookup cannot name: the payer's choice, refused; asking again changes nothing.
      if (!nipCode) throw new AppError('ACCOUNT_NOT_SUPPORTED');
      await beforeBilledCall?.();
      const answer = await call('/v3/lookup/account-number', {
        nip_code: nipCode,
        account_number: accountNumber,
      });
      if (isRefusal(answer.status)) return null;
      const bvn = text(record(answer.body?.data)?.bvn);
      return /^\d{11}$/.test(bvn) ? bvn : null;
    },
  };
}
