import { useState } from 'react';
import { Button } from '../../ui/button';
import { AuthenticatingOverlay } from './authenticating-overlay';
import { createPasskey } from './passkey-sign-in';
import { isCeremonyCancelled, signInErrorMessage } from './sign-in-errors';

type TCreatePasskeyStepProps = {
  token: string;
  /** True right after sign-up: the wording welcomes; otherwise it offers one more device. */
  newAccount: boolean;
  onDone(passkeyCreated: boolean): void;
};

/**
 * The last step of sign-up, and an offer after a code sign-in on a device with no passkey:
 * create a passkey so the next sign-in is biometric.
 */
export function CreatePasskeyStep({ token, newAccount, onDone }: TCreatePasskeyStepProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      await createPasskey(token);
      onDone(true);
    } catch (cause) {
      setError(
        isCeremonyCancelled(cause)
          ? 'No passkey was created. You can try again, or do it later.'
          : signInErrorMessage(cause),
      );
      setBusy(false);
    }
  };

  return (
    <div className="auth-form">
      <h2 className="auth-heading" id="create-passkey-title">
        {newAccount ? 'Create your passkey' : 'Create a passkey on this device'}
      </h2>
      <p className="auth-lead">
        Next time, sign in with your fingerprint, face or screen lock. No code needed.
      </p>
      {error ? (
        <p className="auth-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="actions">
        <Button onClick={() => void create()} disabled={busy}>
          Create passkey
        </Button>
        <Button variant="secondary" onClick={() => onDone(false)} disabled={busy}>
          Not now
        </Button>
      </div>
      {busy ? <AuthenticatingOverlay /> : null}
    </div>
  );
}
