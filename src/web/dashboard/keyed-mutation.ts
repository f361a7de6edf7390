import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useRef } from 'react';
import { newIdempotencyKey } from './api';

/**
 * A form's write with its Idempotency-Key. The key belongs to one request: a retry of the same
 * thing (same fields, after a lost answer) carries the same key and is answered as the first; a
 * form that asks something else (another amount, another reason) carries a new one, and so does
 * the next request after a success. A refused request therefore never blocks the next, different
 * one, and a success is never repeated by pressing the button again.
 */
export function useKeyedMutation<V, T>(
  call: (asked: V, key: string) => Promise<T>,
  invalidates: readonly QueryKey[],
) {
  const queryClient = useQueryClient();
  const last = useRef<{ asked: string; key: string } | null>(null);
  return useMutation({
    mutationFn: (asked: V) => {
      const fingerprint = JSON.stringify(asked);
      if (last.current?.asked !== fingerprint) {
        last.current = { asked: fingerprint, key: newIdempotencyKey() };
      }
      return call(asked, last.current.key);
    },
    onSuccess: () => {
      last.current = null;
      for (const queryKey of invalidates) void queryClient.invalidateQueries({ queryKey });
    },
  });
}
