import { useQueryClient } from '@tanstack/react-query';
import { RECEIPT_PARAM } from '../../../domain/consent-record';
import { PAYER_CONSENTS_LINK, PAYER_CONSENTS_PATH } from '../../../domain/payer-pages';
import type { TReceiptResponse } from '../../../domain/schemas/consent-record';
import type { TPayerConsent, TRevokeConsentRequest } from '../../../domain/schemas/payer-consents';
import { receiptApi, useReceiptQuery } from '../../api/payer-consents';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import { PayerConsentItem } from './payer-consent-item';
import { revocationFailure } from './revocation-failure';

/** The SMS receipt's token in this page's address (/consents?receipt=…), or null. */
export function receiptTokenInUrl(): string | null {
  return new URL(window.location.href).searchParams.get(RECEIPT_PARAM);
}

type TReceiptConsentProps = {
  token: string;
  /** The passkey's signature of the revocation, its nonce asked for by the receipt's token. */
  signRevocation(token: string, consentId: string): Promise<TRevokeConsentRequest>;
};

/**
 * The SMS receipt's page (docs/payer-consents.md "The receipt"): the one consent it was sent for,
 * with its record and Revoke, for a payer signed in or not; revoking asks for their passkey, as on
 * their list. Then the way on to all their consents.
 */
export function ReceiptConsent({ token, signRevocation }: TReceiptConsentProps) {
  const query = useReceiptQuery(token);
  const queryClient = useQueryClient();
  const revoke = async (consent: TPayerConsent) => {
    let revoked: TPayerConsent;
    try {
      const signed = await signRevocation(token, consent.consentId);
      revoked = (await receiptApi.revoke(token, signed)).consent;
    } catch (failure) {
      throw revocationFailure(failure);
    }
    queryClient.setQueryData<TReceiptResponse>(
      ['consent-receipt', token],
      (data) => data && { ...data, consent: revoked },
    );
    await queryClient.invalidateQueries({ queryKey: ['consent-receipt', token] });
  };
  return (
    <section aria-labelledby="receipt-title">
      <h1 id="receipt-title">Your consent</h1>
      {query.isPending ? (
        <div className="payer-consents-state" role="status">
          <Spinner />
          <p>Loading your consent...</p>
        </div>
      ) : query.isError ? (
        <div className="payer-consents-state">
          <p className="form-error" role="alert">
            This link opens no consent. {query.error.message}
          </p>
          <Button onClick={() => void query.refetch()}>Try Again</Button>
        </div>
      ) : (
        <>
          <p className="muted">
            The consent your SMS receipt was sent for: what you granted, its record, and Revoke.
          </p>
          <ul className="payer-consent-list">
            <PayerConsentItem
              consent={query.data.consent}
              record={{ record: query.data.record, audit: query.data.audit }}
              revoke={revoke}
            />
          </ul>
        </>
      )}
      <p className="receipt-way-on">
        <a href={PAYER_CONSENTS_PATH}>{PAYER_CONSENTS_LINK}</a>
      </p>
    </section>
  );
}
