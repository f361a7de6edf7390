import { useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TBvnCodeRequest,
  TBvnSendCodeRequest,
  TBvnVerifyRequest,
  TPhoneChangeRequest,
  TPhoneChangeVerifyRequest,
  TVerifiedBvn,
} from '../../domain/schemas/identity';
import { USER_ACCOUNTS_KEY } from './accounts';
import { apiFetch } from './http';

/** The query key of the payer's verified BVN: a verification sets it. */
export const VERIFIED_BVN_KEY = ['identity', 'bvn'] as const;
/** The query key of the accounts under the payer's BVN: read again once a BVN is verified. */
export const BVN_ACCOUNTS_KEY = ['accounts', 'bvn'] as const;

// spec §7 Caching: 'accounts/bvn 10 min'.
const BVN_ACCOUNTS_STALE_MS = 10 * 60_000;

/** The payer's BVN calls (docs/identity.md "The BVN"), typed by the domain schemas. */
export const identityApi = {
  /** GET /api/identity/bvn: the payer's verified BVN (its last 4 digits), or null. */
  verifiedBvn: (signal?: AbortSignal) =>
    apiFetch('/api/identity/bvn', { answer: 'ZBvnStatusResponse', signal }),
  /** Opens a verification of the BVN: the ways the registry can send its code, masked. */
  startBvnVerification: (body: TBvnCodeRequest) =>
    apiFetch('/api/identity/bvn', { method: 'POST', body, answer: 'ZBvnCodeResponse' }),
  /** Has the registry send its code the way chosen (again, for a resend or another way). */
  sendBvnCode: (body: TBvnSendCodeRequest) =>
    apiFetch('/api/identity/bvn/code', { method: 'POST', body, answer: 'ZBvnSendCodeResponse' }),
  verifyBvn: (body: TBvnVerifyRequest) =>
    apiFetch('/api/identity/bvn/verify', { method: 'POST', body, answer: 'ZBvnStatusResponse' }),
  /** Sends a code to the number the payer asks to sign in with (a session a passkey proved). */
  sendPhoneChangeCode: (body: TPhoneChangeRequest) =>
    apiFetch('/api/identity/phone-number', {
      method: 'POST',
      body,
      answer: 'ZPhoneCodeResponse',
    }),
  /** On the new number's code, the number changes: the payer as they now are. */
  changePhoneNumber: (body: TPhoneChangeVerifyRequest) =>
    apiFetch('/api/identity/phone-number/verify', {
      method: 'POST',
      body,
      answer: 'ZPhoneChangeResponse',
    }),
  /** GET /api/accounts/bvn: the accounts under the payer's verified BVN, none before one is. */
  bvnAccounts: (signal?: AbortSignal) =>
    apiFetch('/api/accounts/bvn', { answer: 'ZBvnAccountsResponse', signal }),
};

/** The signed-in payer's verified BVN, or null before they verify one. */
export function useVerifiedBvn(enabled = true) {
  return useQuery({
    queryKey: VERIFIED_BVN_KEY,
    queryFn: ({ signal }) => identityApi.verifiedBvn(signal),
    enabled,
    select: (answer) => answer.bvn,
  });
}

/** The accounts under the payer's verified BVN (spec §2 'Lists linkable accounts'). */
export function useBvnAccounts(enabled: boolean) {
  return useQuery({
    queryKey: BVN_ACCOUNTS_KEY,
    queryFn: ({ signal }) => identityApi.bvnAccounts(signal),
    enabled,
    staleTime: BVN_ACCOUNTS_STALE_MS,
    select: (answer) => answer.accounts,
  });
}

/**
 * What a verification changes on the page: the BVN is known at once, and the accounts under it
 * and the payer's own accounts are read again.
 */
export function useBvnVerified() {
  const queryClient = useQueryClient();
  return (bvn: TVerifiedBvn) => {
    queryClient.setQueryData(VERIFIED_BVN_KEY, { success: true as const, bvn });
    void queryClient.invalidateQueries({ queryKey: BVN_ACCOUNTS_KEY });
    // Links made before BVNs were checked are adopted under it: their rows may debit now.
    void queryClient.invalidateQueries({ queryKey: USER_ACCOUNTS_KEY });
  };
}
