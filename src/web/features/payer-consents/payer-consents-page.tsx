import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import type { TPauseAction, TRevokeConsentRequest } from '../../../domain/schemas/payer-consents';
import type { TErasureRequest, TPayerRightsRequest } from '../../../domain/schemas/payer-rights';
import { usePayerConsentsQuery } from '../../api/payer-consents';
import { clearSignIn, onSessionEnded } from '../../api/session';
import { EXPORT_PAGE_PARAM, PAYER_CONSENTS_PATH } from '../../../domain/payer-pages';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import { ErasureAsked } from './erasure-asked';
import { PayerConsentItem } from './payer-consent-item';
import { PayerDevices } from './payer-devices';
import { PhoneNumberChange } from './phone-number-change';
import { RemovalCancel, removalCancelToken } from './removal-cancel';
import { ReceiptConsent, receiptTokenInUrl } from './receipt-consent';
import { useConsentActions } from './use-consent-actions';
import './payer-consents.css';

// 'Your data', 'Who looked at my BVN' and 'Complaints' load when the page first draws them, the
// printable copy when the SMS's link opens it (docs/payer-rights.md, docs/payer-consents.md).
const PayerDataRights = lazy(() =>
  import('./payer-data-rights').then((m) => ({ default: m.PayerDataRights })),
);
const PayerBvnLookups = lazy(() =>
  import('./payer-bvn-lookups').then((m) => ({ default: m.PayerBvnLookups })),
);
const PayerComplaints = lazy(() =>
  import('./payer-complaints').then((m) => ({ default: m.PayerComplaints })),
);
const PayerDataCopy = lazy(() =>
  import('./payer-data-copy').then((m) => ({ default: m.PayerDataCopy })),
);

/** What a section shows while its code loads. */
const sectionLoading = (
  <p className="loading-line" role="status">
    <Spinner small /> Loading...
  </p>
);

/** The printable copy's token in this page's address (/consents?my-data=…), or null. */
const exportTokenInUrl = () => new URL(window.location.href).searchParams.get(EXPORT_PAGE_PARAM);

type TPayerConsentsPageProps = {
  signedIn: boolean;
  /** The passkey's signature of a revocation (the auth feature's, handed in by the app). */
  signRevocation(consentId: string): Promise<TRevokeConsentRequest>;
  /** The passkey's signature of a pause or resume of a consent's future payments. */
  signPause(consentId: string, action: TPauseAction): Promise<TRevokeConsentRequest>;
  /** The passkey's signature of the erasure of the payer's data, as they confirm it. */
  signErasure(): Promise<TErasureRequest>;
  /** The same from the SMS receipt's link: its nonce asked for by the receipt's token. */
  signReceiptRevocation(token: string, consentId: string): Promise<TRevokeConsentRequest>;
};

const SIGN_IN_HREF = `/login?returnTo=${encodeURIComponent(PAYER_CONSENTS_PATH)}`;

/** The page's one card, whichever of its views it holds. */
function PageCard({ labelledBy, children }: { labelledBy?: string; children: ReactNode }) {
  return (
    <div className="page">
      <main className="card payer-consents" aria-labelledby={labelledBy}>
        <div className="card-body">{children}</div>
      </main>
    </div>
  );
}

type TConsentListProps = {
  signedIn: boolean;
  query: ReturnType<typeof usePayerConsentsQuery>;
  actions: ReturnType<typeof useConsentActions>;
};

/** The payer's consents as far as they are known: signed out, loading, failed, none, or the list. */
function ConsentList({ signedIn, query, actions }: TConsentListProps) {
  const consents = query.data?.pages.flatMap((page) => page.consents) ?? [];
  if (!signedIn) {
    return (
      <div className="payer-consents-state">
        <p>Sign in to see the consents you have granted, and to revoke them.</p>
        <a className="button primary" href={SIGN_IN_HREF}>
          Sign In
        </a>
      </div>
    );
  }
  if (query.isPending) {
    return (
      <div className="payer-consents-state" role="status">
        <Spinner />
        <p>Loading your consents...</p>
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="payer-consents-state">
        <p className="form-error" role="alert">
          Your consents could not be loaded. {query.error.message}
        </p>
        <Button onClick={() => void query.refetch()}>Try Again</Button>
      </div>
    );
  }
  if (consents.length === 0) {
    return (
      <div className="payer-consents-state">
        <p>You have not granted any consents yet.</p>
        <p className="muted">
          When you grant a merchant a consent, it appears here, and you can revoke it.
        </p>
      </div>
    );
  }
  return (
    <>
      <p className="muted">
        What you have allowed merchants to do. Revoke a consent to stop its future payments.
      </p>
      <ul className="payer-consent-list">
        {consents.map((consent) => (
          <PayerConsentItem
            key={consent.consentId}
            consent={consent}
            revoke={actions.revoke}
            changePause={actions.changePause}
            confirmDataSharing={actions.confirmDataSharing}
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
  );
}

/**
 * /consents (docs/payer-consents.md): the signed-in payer's consents, newest first, each with
 * what it granted and, while it is active, Revoke; then their devices (passkeys), each with
 * Remove. Signed out, a way to sign in and come back.
 */
export function PayerConsentsPage({
  signedIn,
  signRevocation,
  signPause,
  signErasure,
  signReceiptRevocation,
}: TPayerConsentsPageProps) {
  const query = usePayerConsentsQuery(signedIn);
  const actions = useConsentActions({ signRevocation, signPause });
  // A session the server ended (an erasure ends them all) signs the page out, whichever of its
  // sections' calls learnt it: the payer sees the way to sign in, not sections that failed.
  useEffect(() => (signedIn ? onSessionEnded(clearSignIn) : undefined), [signedIn]);
  // Opened from the SMS's cancel link: that page, signed in or not (removal-cancel.tsx).
  const [cancelToken] = useState(removalCancelToken);
  // Opened from the SMS receipt of a grant: that one consent, signed in or not.
  const [receiptToken] = useState(receiptTokenInUrl);
  // Opened from the SMS's link to a copy of the payer's data: its printable page, no session.
  const [exportToken] = useState(exportTokenInUrl);
  // An erasure asked: its answer stays on the page after the erasure signs the payer out.
  const [erasure, setErasure] = useState<TPayerRightsRequest | null>(null);

  if (exportToken) {
    return (
      <PageCard>
        <Suspense fallback={sectionLoading}>
          <PayerDataCopy token={exportToken} />
        </Suspense>
      </PageCard>
    );
  }

  if (receiptToken) {
    return (
      <PageCard>
        <ReceiptConsent token={receiptToken} signRevocation={signReceiptRevocation} />
      </PageCard>
    );
  }

  if (cancelToken) {
    return (
      <PageCard>
        <RemovalCancel token={cancelToken} signedIn={signedIn} />
      </PageCard>
    );
  }

  return (
    <PageCard labelledBy="payer-consents-title">
      <h1 id="payer-consents-title">Your consents</h1>
      {erasure ? <ErasureAsked request={erasure} /> : null}
      <ConsentList signedIn={signedIn} query={query} actions={actions} />
      {signedIn ? <PayerDevices /> : null}
      {signedIn ? <PhoneNumberChange /> : null}
      {signedIn ? (
        <Suspense fallback={sectionLoading}>
          <PayerComplaints />
          <PayerBvnLookups />
          <PayerDataRights signErasure={signErasure} onErasureAsked={setErasure} />
        </Suspense>
      ) : null}
    </PageCard>
  );
}
