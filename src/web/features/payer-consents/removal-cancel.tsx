import { useEffect, useRef, useState } from 'react';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import { PAYER_CONSENTS_PATH } from '../../../domain/payer-pages';
import { isApiError } from '../../api/api-error';
import { authApi } from '../../api/auth';
import { Button } from '../../ui/button';

/** The query parameter of the SMS's cancel link: /consents?cancelRemoval=<token>#devices. */
const CANCEL_PARAM = 'cancelRemoval';

/** The cancel link's token in this page's address, or null. */
export function removalCancelToken(): string | null {
  return new URL(window.location.href).searchParams.get(CANCEL_PARAM);
}

type TState =
  | { step: 'asking'; busy: boolean; failure: string | null }
  // The server refused the link for good: used, the removal already made, or never ours.
  | { step: 'refused' }
  | { step: 'cancelled' };

/**
 * The SMS's cancel link of a scheduled passkey removal (docs/identity.md "Scheduled removal"):
 * it works with no session (a payer who lost their phone may have none), and it cancels only when
 * the payer presses the button, never on opening: link previewers fetch the URLs in messages.
 * Cancelled or refused, the page leads on to the payer's account, where their passkeys are
 * listed as they are now (a sign-in first, without a session).
 */
export function RemovalCancel({ token, signedIn }: { token: string; signedIn: boolean }) {
  const [state, setState] = useState<TState>({ step: 'asking', busy: false, failure: null });
  const done = useRef<HTMLParagraphElement>(null);

  // What happened takes the focus: the button pressed is gone.
  useEffect(() => {
    if (state.step !== 'asking') done.current?.focus();
  }, [state.step]);

  const cancel = async () => {
    setState({ step: 'asking', busy: true, failure: null });
    try {
      await authApi.cancelRemovalByToken(token);
    } catch (error) {
      // A malformed token (a guessed or cut link) is refused before the service: as used.
      if (isApiError(error, 'PASSKEY_REMOVAL_CANCEL_INVALID', 'VALIDATION_FAILED')) {
        setState({ step: 'refused' });
        return;
      }
      setState({
        step: 'asking',
        busy: false,
        failure: error instanceof Error ? error.message : 'Please try again.',
      });
      return;
    }
    setState({ step: 'cancelled' });
  };

  // A page load of its own: the list is read as it is now, the link's token gone.
  const wayOn = (
    <a className="button primary" href={`${PAYER_CONSENTS_PATH}#devices`}>
      {signedIn ? 'See your devices' : 'Go to your account'}
    </a>
  );

  return (
    <section className="removal-cancel" aria-labelledby="removal-cancel-title">
      <h1 id="removal-cancel-title">Cancel a passkey removal</h1>
      {state.step === 'cancelled' ? (
        <>
          <p className="removed-note" role="status" tabIndex={-1} ref={done}>
            Removal cancelled. Your passkey stays on your account.
          </p>
          {wayOn}
        </>
      ) : state.step === 'refused' ? (
        <>
          <p className="form-error" role="alert" tabIndex={-1} ref={done}>
            {ERROR_CATALOGUE.PASSKEY_REMOVAL_CANCEL_INVALID.message}
          </p>
          {wayOn}
        </>
      ) : (
        <>
          <p>
            A session signed in by a code sent by SMS asked to remove a passkey from your account.
            If it was not you, cancel the removal: your passkey stays, and you can sign in with it
            as before.
          </p>
          {state.failure ? (
            <p className="form-error" role="alert">
              {state.failure}
            </p>
          ) : null}
          <Button disabled={state.busy} onClick={() => void cancel()}>
            {state.busy ? 'Cancelling...' : 'Cancel removal'}
          </Button>
        </>
      )}
    </section>
  );
}
