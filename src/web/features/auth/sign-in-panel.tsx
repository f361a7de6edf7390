import { useState, useTransition, type ReactNode } from 'react';
import { PAGE_ERRORS } from '../../../domain/page-errors';
import type { TLoginResponse } from '../../../domain/schemas/auth';
import { Button } from '../../ui/button';
import { preloadable } from '../../ui/preloadable';
import { AuthenticatingOverlay } from './authenticating-overlay';
import type { TSignInContext } from './sign-in-context';
import { useSession } from './use-session';

// The panel's first screen is its buttons: what each one opens loads when it is used (the passkey
// ceremony and WebAuthn on 'Authenticate', behind the overlay; the code form and the passkey
// offer after it on the links), so the consent page's auth prompt, whose code loads before the
// page takes it over (vite.config.ts FIRST_SCREEN_MODULES), comes without them.
const PhoneCodeForm = preloadable(() =>
  import('./phone-code-form-view').then((module) => module.PhoneCodeForm),
);
const CreatePasskeyStep = preloadable(() =>
  import('./create-passkey-step').then((module) => module.CreatePasskeyStep),
);

/** What the payer reads when the passkey sign-in fails, its code loaded or not (spec §8). */
const signInFailure = (cause: unknown): Promise<string> =>
  import('./sign-in-errors').then(
    (errors) => errors.signInErrorMessage(cause),
    () => PAGE_ERRORS.AUTHENTICATION_FAILED_RETRY.message,
  );

type TSignInPanelProps = {
  context: TSignInContext;
  /** The passkey button: 'Authenticate' in the auth prompt (spec §2), plainer on /login. */
  passkeyLabel: string;
  /** What sits above the passkey button (the auth prompt's counterparty and list). */
  intro?: ReactNode;
  /** Passkeys work here; where they do not (an app's browser), no passkey button is offered. */
  passkeys?: boolean;
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
  passkeys = true,
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
  // The code form (and the passkey offer that may follow it) loading: the panel stays as it is,
  // its links disabled, until the form can show.
  const [opening, startOpening] = useTransition();

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
      const { signInWithPasskey } = await import('./passkey-sign-in');
      finish(await signInWithPasskey(context, { onStatus: setBusyStatus }));
    } catch (cause) {
      const message = await signInFailure(cause);
      setBusyStatus(null);
      setError(message);
    }
  };

  // Its code not come (a dropped connection): the page's FailureBoundary says so.
  const open = (next: 'code' | 'sign-up') =>
    startOpening(async () => {
      await Promise.all([PhoneCodeForm.preload(), CreatePasskeyStep.preload()]).catch(
        () => undefined,
      );
      startOpening(() => setMode(next));
    });

  if (mode === 'offer-passkey' && pending) {
    return (
      <CreatePasskeyStep
        token={pending.token}
        newAccount={pending.newAccount}
        passkeyCount={pending.passkeyCount}
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
      {passkeys ? (
        <Button onClick={() => void passkey()} disabled={busyStatus !== null}>
          {passkeyLabel}
        </Button>
      ) : null}
      <div className="auth-alternatives" aria-busy={opening || undefined}>
        <Button variant="link" onClick={() => open('code')} disabled={opening}>
          Use a code sent by SMS instead
        </Button>
        <p className="muted">
          New here?{' '}
          <Button variant="link" onClick={() => open('sign-up')} disabled={opening}>
            Create an account
          </Button>
        </p>
      </div>
      {busyStatus ? <AuthenticatingOverlay status={busyStatus} /> : null}
    </div>
  );
}
