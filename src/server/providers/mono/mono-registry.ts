import { AppError } from '../../services/app-error';
import type { TBvnRegistryPort } from '../payments';
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
 * 403 is the key (thrown, never read as an answer), a 5xx or no answer is Mono's failure
 * (thrown), and a 400, 404 or 422 is Mono's refusal of what was asked (read per call below).
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

type TMonoAnswer = { status: number; body: { message?: unknown; data?: unknown } | null };

export class MonoCallFailed extends Error {}

/** A Mono refusal of what was asked (not the key's, not Mono's own failure). */
const isRefusal = (status: number) => status === 400 || status === 404 || status === 422;

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
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
  const call = async (
    path: string,
    body: Record<string, string>,
    session?: string,
  ): Promise<TMonoAnswer> => {
    let response: Response;
    let raw: string;
    try {
      response = await fetch(`${options.baseUrl.replace(/\/+$/, '')}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'mono-sec-key': options.secretKey,
          ...(session ? { 'x-session-id': session } : {}),
        },
        body: JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(options.timeoutMs ?? MONO_TIMEOUT_MS),
      });
      raw = await response.text();
    } catch (error) {
      throw new MonoCallFailed(`Mono did not answer ${path}: ${(error as Error).name}`);
    }
    if (response.status === 401 || response.status === 403) {
      throw new MonoCallFailed(
        `Mono refused the key on ${path} (HTTP ${response.status}): check MONO_SECRET_KEY`,
      );
    }
    if (response.status >= 500 || (!response.ok && !isRefusal(response.status))) {
      throw new MonoCallFailed(`Mono failed on ${path} (HTTP ${response.status})`);
    }
    let parsed: TMonoAnswer['body'] = null;
    try {
      parsed = record(JSON.parse(raw));
    } catch {
      if (response.ok) throw new MonoCallFailed(`Mono answered ${path} with no JSON`);
    }
    return { status: response.status, body: parsed };
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
        throw new MonoCallFailed('Mono opened a BVN lookup with no session or methods');
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
      if (!data || !bvn) throw new MonoCallFailed('Mono fetched BVN details without a BVN');
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
