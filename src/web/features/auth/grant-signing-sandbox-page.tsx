import { useMemo, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ZGrantPayload, type TGrantPayload, type TSignedGrant } from '../../../domain/schemas/auth';
import { authApi } from '../../api/auth';
import { Button } from '../../ui/button';
import { BiometricApprovalOverlay } from './authenticating-overlay';
import { signGrant } from './sign-grant';
import { signInErrorMessage } from './sign-in-errors';
import { useSession } from './use-session';
import './auth.css';

const samplePayload = (consentId: string): TGrantPayload => ({
  consentData: { consentId },
  userAuthenticated: true,
  futurePayments: { granted: true, selectedAccounts: ['acc_demo_0001'], paymentMethods: [] },
  dataSharing: { granted: true, dataTypes: ['bvnData'] },
});

type TResult = { tone: 'success' | 'error'; text: string };

/**
 * /sandbox/grant-signing?consentId=: the signed-grant primitive on its own, for people and
 * tests. The payer's passkey signs a payload; the server verifies it. "Alter after signing"
 * sends a changed payload with the original signature, which the server must refuse.
 */
export function GrantSigningSandboxPage() {
  const search = useSearch();
  const [pathname] = useLocation();
  const here = search ? `${pathname}?${search}` : pathname;
  const consentId = useMemo(
    () => new URLSearchParams(search).get('consentId')?.trim() ?? '',
    [search],
  );
  const session = useSession();
  const grant = useGrantSigning(consentId);

  return (
    <div className="page">
      <main className="card auth-card">
        <div className="card-body">
          <h1 className="auth-heading">Signed grant sandbox</h1>
          {!consentId ? (
            <p className="auth-error" role="alert">
              Add ?consentId= to the address.
            </p>
          ) : !session.signedIn ? (
            <p>
              <Link href={`/login?returnTo=${encodeURIComponent(here)}`}>Sign in</Link> with a
              passkey first.
            </p>
          ) : (
            <GrantSigningForm consentId={consentId} grant={grant} />
          )}
        </div>
        {grant.signing ? <BiometricApprovalOverlay /> : null}
      </main>
    </div>
  );
}

/**
 * The payload, whether to alter it after signing, and what the server said: signing asks the
 * passkey, then sends the signed grant (or its altered copy) to be verified.
 */
function useGrantSigning(consentId: string) {
  const [payloadText, setPayloadText] = useState(() =>
    JSON.stringify(samplePayload(consentId), null, 2),
  );
  const [tamper, setTamper] = useState(false);
  const [signing, setSigning] = useState(false);
  const [result, setResult] = useState<TResult | null>(null);
  const [lastSigned, setLastSigned] = useState<TSignedGrant | null>(null);

  const verify = async (signed: TSignedGrant) => {
    try {
      const verified = await authApi.verifyGrantSignature(signed);
      setResult({ tone: 'success', text: `Signature verified. Digest ${verified.digest}` });
    } catch (cause) {
      setResult({ tone: 'error', text: signInErrorMessage(cause) });
    }
  };

  const signAndVerify = async () => {
    setResult(null);
    let payload: TGrantPayload;
    try {
      payload = ZGrantPayload.parse(JSON.parse(payloadText));
    } catch {
      setResult({ tone: 'error', text: 'The payload must be a JSON object.' });
      return;
    }
    setSigning(true);
    let signed: TSignedGrant;
    try {
      signed = await signGrant(consentId, payload);
    } catch (cause) {
      setSigning(false);
      setResult({ tone: 'error', text: signInErrorMessage(cause) });
      return;
    }
    setSigning(false);
    setLastSigned(signed);
    await verify(tamper ? { ...signed, payload: { ...signed.payload, tampered: true } } : signed);
  };

  return {
    payloadText,
    setPayloadText,
    tamper,
    setTamper,
    signing,
    result,
    lastSigned,
    verify,
    signAndVerify,
  };
}

/** The signed-in payer's form: the payload, the alteration, the server's answer, the buttons. */
function GrantSigningForm({
  consentId,
  grant,
}: {
  consentId: string;
  grant: ReturnType<typeof useGrantSigning>;
}) {
  const { payloadText, tamper, signing, result, lastSigned } = grant;
  return (
    <>
      <p className="auth-lead">
        Your passkey signs this payload for consent {consentId}; the server checks it.
      </p>
      <div className="auth-field">
        <label htmlFor="grant-payload">Grant payload (JSON)</label>
        <textarea
          id="grant-payload"
          className="auth-payload"
          value={payloadText}
          onChange={(e) => grant.setPayloadText(e.target.value)}
          spellCheck={false}
        />
      </div>
      <label className="auth-checkbox">
        <input
          type="checkbox"
          checked={tamper}
          onChange={(e) => grant.setTamper(e.target.checked)}
        />
        <span>Alter the payload after signing</span>
      </label>
      {result ? (
        <p
          className={result.tone === 'success' ? 'auth-success' : 'auth-error'}
          role={result.tone === 'success' ? 'status' : 'alert'}
        >
          {result.text}
        </p>
      ) : null}
      <div className="actions">
        <Button onClick={() => void grant.signAndVerify()} disabled={signing}>
          Sign and verify
        </Button>
        {lastSigned ? (
          <Button
            variant="secondary"
            onClick={() => void grant.verify(lastSigned)}
            disabled={signing}
          >
            Send the same signature again
          </Button>
        ) : null}
      </div>
    </>
  );
}
