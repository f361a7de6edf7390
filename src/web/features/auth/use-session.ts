import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import type { TAuthUser } from '../../../domain/schemas/auth';
import { authApi, useMeQuery } from '../../api/auth';
import {
  clearSignIn,
  getSession,
  NO_SESSION,
  saveSession,
  subscribeSession,
} from '../../api/session';

export type TUseSession = {
  token: string | null;
  user: TAuthUser | null;
  /** Merchant or agent mode (spec §6): the merchant id requests are identified to. */
  identifiedTo: string | null;
  /** Why the payer was sent to sign in, e.g. 'Token expired - redirecting to login' (§8). */
  notice: string | null;
  signedIn: boolean;
  /** The stored session as the server sees it (auth/me, cached 5 min per spec §7). */
  verified: boolean;
  signIn(input: { token: string; user: TAuthUser }): void;
  signOut(): Promise<void>;
};

/**
 * The payer's session, from browser storage (spec §3 keys), shared by every tab. The stored
 * token is checked with auth/me; an expired one takes the spec's §8 path inside apiFetch.
 */
export function useSession(): TUseSession {
  const session = useSyncExternalStore(subscribeSession, getSession, () => NO_SESSION);
  const me = useMeQuery(session.token);
  const queryClient = useQueryClient();

  const signIn = useCallback((input: { token: string; user: TAuthUser }) => {
    saveSession({
      ...input,
      attestUserData: { userId: input.user.userId, signedInAt: new Date().toISOString() },
    });
  }, []);

  const signOut = useCallback(async () => {
    try {
      await authApi.logout();
    } catch {
      // Already expired or offline: the token is dropped here all the same.
    }
    clearSignIn();
    queryClient.removeQueries({ queryKey: ['auth'] });
  }, [queryClient]);

  return {
    token: session.token,
    user: me.data?.user ?? session.user,
    identifiedTo: session.identifiedTo,
    notice: session.notice,
    signedIn: Boolean(session.token && session.user),
    verified: me.isSuccess,
    signIn,
    signOut,
  };
}
