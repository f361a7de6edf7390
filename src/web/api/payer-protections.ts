import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type {
  TBvnLookupsResponse,
  TRaiseComplaintRequest,
} from '../../domain/schemas/payer-protections';
import { apiFetch } from './http';

/*
 * What the payer can hold us to (docs/payer-consents.md "Who looked at your BVN", "Complaints"):
 * the lookups made with their BVN, and their complaints about payments.
 */

export const bvnLookupsQueryKey = ['payer-bvn-lookups'] as const;
export const complaintsQueryKey = ['payer-complaints'] as const;

/** GET /api/users/bvn-lookups, page after page, newest first. */
export function useBvnLookupsQuery() {
  return useInfiniteQuery({
    queryKey: bvnLookupsQueryKey,
    initialPageParam: null as string | null,
    getNextPageParam: (last: TBvnLookupsResponse) => last.nextCursor,
    queryFn: ({ pageParam, signal }) =>
      apiFetch(
        `/api/users/bvn-lookups${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`,
        { answer: 'ZBvnLookupsResponse', signal },
      ),
  });
}

/** GET /api/users/complaints: the payer's complaints, newest first. */
export function useComplaintsQuery() {
  return useQuery({
    queryKey: complaintsQueryKey,
    queryFn: ({ signal }) =>
      apiFetch('/api/users/complaints', { answer: 'ZComplaintsResponse', signal }),
  });
}

/** POST /api/users/complaints: a new complaint, or the payment's open one. */
export const raiseComplaint = (body: TRaiseComplaintRequest) =>
  apiFetch('/api/users/complaints', { method: 'POST', body, answer: 'ZComplaintResponse' });
