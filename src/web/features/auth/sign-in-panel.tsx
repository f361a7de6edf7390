import { useState, type ReactNode } from 'react';
import type { TLoginResponse } from '../../../domain/schemas/auth';
import { Button } from '../../ui/button';
import { AuthenticatingOverlay } from './authenticating-overlay';
import { CreatePasskeyStep } from './create-passkey-step';
import { signInWithPasskey } from './passkey-sign-in';
import { PhoneCodeForm } from './phone-code-form';
import type { TSignInContext } from './sign-in-context';
import { signInErrorMessage } from './sign-in-errors';
import { useSession } from './use-session';

type TSignInPanelProps = {
  context: TSignInContext;
  /** The passkey button: 'Authenticate' in the auth prompt (spec §2), plainer on /login. */
  passkeyLabel: string;
  /** What sits above the passkey button (the auth prompt's counterparty and list). */
  intro?: ReactNode;
  /** Let the code path's phone field offer saved passkeys (login page). */
  autofill?: boolean;
  /**
   * Where the panel is the whole screen (the auth prompt): the id of the screen's title, which
   * each step after the first (code, sign-up, passkey offer) then gives its own h1.
   */
  screenTitleId?: string;
  onSignedIn(): void;
};

type TMode = 'choose' | 'code' | 'sign-up' | 'offer-passkey';

/**
 * Every way in: passkey (the "biometric login"), a code by SMS on a device with no passkey,
 * and sign-up (code, then a passkey). The session is stored only once the flow is over, so a
 * page that hides this panel on sign-in does not cut the passkey step short.
 */
export function SignInPanel({
  context,
  passkeyLabel,
  intro,
  autofill,
  screenTitleId,
  onSignedIn,
}: TSignInPanelProps) {
  const session = useSession();
  const [mode, setMode] = useState<TMode>('choose');
  const [busyStatus, setBusyStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<TLoginResponse | null>(null);

  const finish = (result: TLoginResponse) => {
    session.signIn({ token: result.token, user: result.user });
    onSignedIn();
  };

  /**
   * After a code: the payer came without a passkey on this device (or with a new account), so
   * one is offered before the session is kept; 'Not now' goes on without.
   */
  const afterCode = (result: TLoginResponse) => {
    setPending(result);
    setMode('offer-passkey');
  };

  const passkey = async () => {
    setError(null);
    setBusyStatus('Authenticating...');
    try {
      finish(await signInWithPasskey(context, { onStatus: setBusyStatus }));
    } catch (cause) {
      setBusyStatus(null);
      setError(signInErrorMessage(cause));
    }
  };

  if (mode === 'offer-passkey' && pending) {
    return (
      <CreatePasskeyStep
        token={pending.token}
        newAccount={pending.newAccount}
        screenTitleId={screenTitleId}
        onDone={() => finish(pending)}
      />
    );
  }

  if (mode === 'code' || mode === 'sign-up') {
    return (
      <PhoneCodeForm
        context={context}
        intent={mode === 'code' ? 'sign-in' : 'sign-up'}
        onSignedIn={afterCode}
        onBack={() => setMode('choose')}
        onPasskeyAutofill={autofill && mode === 'code' ? finish : undefined}
        screenTitleId={screenTitleId}
      />
    );
  }

  return (
    <div className="auth-form">
      {intro}
      {error ? (
        <div className="auth-error" role="alert">
          <p>{error}</p>
          <p>No passkey on this device? Use a code sent by SMS instead.</p>
        </div>
      ) : null}
      <Button onClick={() => void passkey()} disabled={busyStatus !== null}>
        {passkeyLabel}
      </Button>
      <div className="auth-alternatives">
        <Button variant="link" onClick={() => setMode('code')}>
          Use a code sent by SMS instead
        </Button>
        <p className="muted">
          New here?{' '}
          <Button variant="link" onClick={() => setMode('sign-up')}>
            Create an account
          </Button>
        </p>
      </div>
      {busyStatus ? <AuthenticatingOverlay status={busyStatus} /> : null}
    </div>
  );
}
