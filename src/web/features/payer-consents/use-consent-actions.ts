import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useCallback } from 'react';
import type {
  TPauseAction,
  TPayerConsent,
  TPayerConsentsResponse,
  TRevokeConsentRequest,
} from '../../../domain/schemas/payer-consents';
import { payerConsentsApi, payerConsentsQueryKey } from '../../api/payer-consents';
import { revocationFailure } from './revocation-failure';
import { withPasskeyProof } from './passkey-proof';

type TSigners = {
  signRevocation(consentId: string): Promise<TRevokeConsentRequest>;
  signPause(consentId: string, action: TPauseAction): Promise<TRevokeConsentRequest>;
};

/**
 * What the payer does to a consent of their list: revoke it, pause or resume its future
 * payments (each signed with the passkey), confirm its data sharing. The consent the server
 * answers takes its place in the list, and its record is read again.
 */
export function useConsentActions({ signRevocation, signPause }: TSigners) {
  const queryClient = useQueryClient();

  const showChanged = useCallback(
    async (changed: TPayerConsent) => {
      queryClient.setQueryData<InfiniteData<TPayerConsentsResponse>>(
        payerConsentsQueryKey,
        (data) =>
          data && {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              consents: page.consents.map((c) => (c.consentId === changed.consentId ? changed : c)),
            })),
          },
      );
      await queryClient.invalidateQueries({
        queryKey: [...payerConsentsQueryKey, changed.consentId, 'record'],
      });
    },
    [queryClient],
  );

  const revoke = useCallback(
    async (consent: TPayerConsent) => {
      let revoked: TPayerConsent;
      try {
        const signed = await signRevocation(consent.consentId);
        revoked = (await payerConsentsApi.revoke(consent.consentId, signed)).consent;
      } catch (failure) {
        throw revocationFailure(failure);
      }
      await showChanged(revoked);
    },
    [showChanged, signRevocation],
  );

  const changePause = useCallback(
    async (consent: TPayerConsent, action: TPauseAction) => {
      let changed: TPayerConsent;
      try {
        const signed = await signPause(consent.consentId, action);
        changed = (await payerConsentsApi.changePause(consent.consentId, action, signed)).consent;
      } catch (failure) {
        throw revocationFailure(
          failure,
          action === 'pause'
            ? { act: 'the pause', done: 'paused' }
            : { act: 'the resume', done: 'resumed' },
        );
      }
      await showChanged(changed);
    },
    [showChanged, signPause],
  );

  const confirmDataSharing = useCallback(
    async (consent: TPayerConsent) => {
      // Confirming extends a grant: a session signed in by code alone proves itself first.
      const confirmed = await withPasskeyProof(
        () => payerConsentsApi.confirmDataSharing(consent.consentId),
        () => undefined,
      );
      await showChanged(confirmed.consent);
    },
    [showChanged],
  );

  return { revoke, changePause, confirmDataSharing };
}
