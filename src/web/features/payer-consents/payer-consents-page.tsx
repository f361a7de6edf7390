import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type {
  TPauseAction,
  TPayerConsent,
  TPayerConsentsResponse,
  TRevokeConsentRequest,
} from '../../../domain/schemas/payer-consents';
import {
  payerConsentsApi,
  payerConsentsQueryKey,
  usePayerConsentsQuery,
} from '../../api/payer-consents';
import { PAYER_CONSENTS_PATH } from '../../../domain/payer-pages';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import { PayerConsentItem } from './payer-consent-item';
import { PayerDevices } from './payer-devices';
import { PhoneNumberChange } from './phone-number-change';
import { RemovalCancel, removalCancelToken } from './removal-cancel';
import { ReceiptConsent, receiptTokenInUrl } from './receipt-consent';
import { revocationFailure } from './revocation-failure';
import { withPasskeyProof } from './passkey-proof';
import './payer-consents.css';

type TPayerConsentsPageProps = {
  signedIn: boolean;
  /** The passkey's signature of a revocation (the auth feature's, handed in by the app). */
  signRevocation(consentId: string): Promise<TRevokeConsentRequest>;
  /** The passkey's signature of a pause or resume of a consent's future payments. */
  signPause(consentId: string, action: TPauseAction): Promise<TRevokeConsentRequest>;
  /** The same from the SMS receipt's link: its nonce asked for by the receipt's token. */
  signReceiptRevocation(token: string, consentId: string): Promise<TRevokeConsentRequest>;
};

const SIGN_IN_HREF = `/login?returnTo=${encodeURIComponent(PAYER_CONSENTS_PATH)}`;

/**
 * /consents (docs/payer-consents.md): the signed-in payer's consents, newest first, each with
 * what it granted and, while it is active, Revoke; then their devices (passkeys), each with
 * Remove. Signed out, a way to sign in and come back.
 */
export function PayerConsentsPage({
  signedIn,
  signRevocation,
  signPause,
  signReceiptRevocation,
}: TPayerConsentsPageProps) {
  const query = usePayerConsentsQuery(signedIn);
  const queryClient = useQueryClient();
  // Opened from the SMS's cancel link: that page, signed in or not (removal-cancel.tsx).
  const [cancelToken] = useState(removalCancelToken);
  // Opened from the SMS receipt of a grant: that one consent, signed in or not.
  const [receiptToken] = useState(receiptTokenInUrl);

  const replaceInList = useCallback(
    (changed: TPayerConsent) =>
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
      ),
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
      replaceInList(revoked);
      await queryClient.invalidateQueries({
        queryKey: [...payerConsentsQueryKey, revoked.consentId, 'record'],
      });
    },
    [queryClient, replaceInList, signRevocation],
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
      replaceInList(changed);
      await queryClient.invalidateQueries({
        queryKey: [...payerConsentsQueryKey, changed.consentId, 'record'],
      });
    },
    [queryClient, replaceInList, signPause],
  );

  const confirmDataSharing = useCallback(
    async (consent: TPayerConsent) => {
      // Confirming extends a grant: a session signed in by code alone proves itself first.
      const confirmed = await withPasskeyProof(
        () => payerConsentsApi.confirmDataSharing(consent.consentId),
        () => undefined,
      );
      replaceInList(confirmed.consent);
      await queryClient.invalidateQueries({
        queryKey: [...payerConsentsQueryKey, consent.consentId, 'record'],
      });
    },
    [queryClient, replaceInList],
  );

  const consents = query.data?.pages.flatMap((page) => page.consents) ?? [];

  if (receiptToken) {
    return (
      <div className="page">
        <main className="card payer-consents">
          <div className="card-body">
            <ReceiptConsent token={receiptToken} signRevocation={signReceiptRevocation} />
          </div>
        </main>
      </div>
    );
  }

  if (cancelToken) {
    return (
      <div className="page">
        <main className="card payer-consents">
          <div className="card-body">
            <RemovalCancel token={cancelToken} signedIn={signedIn} />
          </div>
        </main>
      </div>
    );
  }

  return (
    <div className="page">
      <main className="card payer-consents" aria-labelledby="payer-consents-title">
        <div className="card-body">
          <h1 id="payer-consents-title">Your consents</h1>
          {!signedIn ? (
            <div className="payer-consents-state">
              <p>Sign in to see the consents you have granted, and to revoke them.</p>
              <a className="button primary" href={SIGN_IN_HREF}>
                Sign In
              </a>
            </div>
          ) : query.isPending ? (
            <div className="payer-consents-state" role="status">
              <Spinner />
              <p>Loading your consents...</p>
            </div>
          ) : query.isError ? (
            <div className="payer-consents-state">
              <p className="form-error" role="alert">
                Your consents could not be loaded. {query.error.message}
              </p>
              <Button onClick={() => void query.refetch()}>Try Again</Button>
            </div>
          ) : consents.length === 0 ? (
            <div className="payer-consents-state">
              <p>You have not granted any consents yet.</p>
              <p className="muted">
                When you grant a merchant a consent, it appears here, and you can revoke it.
              </p>
            </div>
          ) : (
            <>
              <p className="muted">
                What you have allowed merchants to do. Revoke a consent to stop its future payments.
              </p>
              <ul className="payer-consent-list">
                {consents.map((consent) => (
                  <PayerConsentItem
                    key={consent.consentId}
                    consent={consent}
                    revoke={revoke}
                    changePause={changePause}
                    confirmDataSharing={confirmDataSharing}
                  />
                ))}
              </ul>
              {query.hasNextPage ? (
                <Button
                  variant="secondary"
                  disabled={query.isFetchingNextPage}
                  onClick={() => void query.fetchNextPage()}
                >
                  {query.isFetchingNextPage ? 'Loading...' : 'Show more'}
                </Button>
              ) : null}
            </>
          )}
          {signedIn ? <PayerDevices /> : null}
          {signedIn ? <PhoneNumberChange /> : null}
        </div>
      </main>
    </div>
  );
}
