import { useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { PAYER_CONSENTS_PATH } from '../../../domain/payer-pages';
import { formatNigerianPhone } from '../../../domain/schemas/auth';
import { usePublicConfig } from '../../api/auth';
import { returnToOf } from '../../api/http';
import { Button } from '../../ui/button';
import { CreatePasskeyStep } from './create-passkey-step';
import { pageSignInContext } from './sign-in-context';
import { SignInPanel } from './sign-in-panel';
import { useSession } from './use-session';
import './auth.css';

/**
 * Sign-in page (spec §2: /login and /). Signed out: passkey, code by SMS, or sign-up. Signed in:
 * who you are, another passkey for this device, sign-out. ?returnTo= brings the payer back to
 * the page that sent them here (e.g. after an expired token, spec §8).
 */
export function LoginPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const session = useSession();
  const productName = usePublicConfig().data?.productName;
  const context = useMemo(() => pageSignInContext(search), [search]);
  const returnTo = returnToOf(search);
  // Left by a redirect (spec §8 expired token), or raised here when the stored token turns out
  // to be expired; it goes once the payer signs in again.
  const notice = session.signedIn ? null : session.notice;
  const [addingPasskey, setAddingPasskey] = useState(false);
  const [passkeyAdded, setPasskeyAdded] = useState(false);

  const signedIn = () => {
    if (returnTo) navigate(returnTo);
  };

  return (
    <div className="page">
      <main className="card auth-card">
        <div className="card-body">
          {notice ? (
            <p className="auth-notice" role="status">
              {notice}
            </p>
          ) : null}
          {session.signedIn && session.user ? (
            <>
              <h1 className="auth-heading">You are signed in</h1>
              <div className="auth-signed-in">
                <strong>{session.user.fullName}</strong>
                {session.user.phoneNumber ? (
                  <span className="muted">{formatNigerianPhone(session.user.phoneNumber)}</span>
                ) : null}
              </div>
              {passkeyAdded ? (
                <p className="auth-success" role="status">
                  Passkey created. Next time, sign in with it.
                </p>
              ) : null}
              {addingPasskey && session.token ? (
                <CreatePasskeyStep
                  token={session.token}
                  newAccount={false}
                  onDone={(created) => {
                    setAddingPasskey(false);
                    setPasskeyAdded(created);
                  }}
                />
              ) : (
                <div className="actions">
                  {returnTo ? <Button onClick={() => navigate(returnTo)}>Continue</Button> : null}
                  <a className="button secondary" href={PAYER_CONSENTS_PATH}>
                    Your consents
                  </a>
                  <Button variant="secondary" onClick={() => setAddingPasskey(true)}>
                    Add a passkey on this device
                  </Button>
                  <Button variant="secondary" onClick={() => void session.signOut()}>
                    Sign out
                  </Button>
                </div>
              )}
            </>
          ) : (
            <>
              <h1 className="auth-heading">Sign in{productName ? ` to ${productName}` : ''}</h1>
              <SignInPanel
                context={context}
                passkeyLabel="Sign in with a passkey"
                autofill
                onSignedIn={signedIn}
              />
            </>
          )}
        </div>
      </main>
    </div>
  );
}
