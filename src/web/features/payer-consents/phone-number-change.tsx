import { useQueryClient } from '@tanstack/react-query';
import {
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { formatNigerianPhone, PHONE_CODE_LENGTH } from '../../../domain/schemas/auth';
import { useMeQuery } from '../../api/auth';
import { identityApi } from '../../api/identity';
import { readToken, saveSession } from '../../api/session';
import { BusyOverlay } from '../../ui/busy-overlay';
import { Button } from '../../ui/button';
import { withPasskeyProof } from './passkey-proof';

type TStep =
  | { step: 'shown' }
  | { step: 'new_number' }
  | { step: 'code'; phone: string; sentTo: string }
  | { step: 'changed'; message: string };

/**
 * 'Your sign-in number' on the payer's own page (docs/identity.md "Changing the phone number"):
 * the number SMS codes go to, and Change number: the new number, a code sent to it, and the
 * change. It needs the passkey: a session signed in by an SMS code proves itself first (the
 * step-up), as for every action that needs it.
 */
export function PhoneNumberChange() {
  const id = useId();
  const token = readToken();
  const me = useMeQuery(token);
  const fieldRef = useRef<HTMLInputElement>(null);
  const noteRef = useRef<HTMLParagraphElement>(null);
  const change = usePhoneChange(token, fieldRef, noteRef);
  const { state } = change;
  const number = me.data?.user.phoneNumber;
  return (
    <section className="payer-phone" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Your sign-in number</h2>
      {change.proving ? <BusyOverlay title="Getting your biometric approval..." /> : null}
      <p className="muted">
        Codes sent by SMS go to {number ? formatNigerianPhone(number) : 'your number'}. Changing it
        needs your passkey, and we tell this number.
      </p>
      {state.step === 'shown' ? (
        <Button variant="secondary" onClick={() => change.setState({ step: 'new_number' })}>
          Change number
        </Button>
      ) : null}
      {state.step === 'changed' ? (
        <p className="removed-note" role="status" tabIndex={-1} ref={noteRef}>
          {state.message}. We told your old number.
        </p>
      ) : null}
      {state.step === 'new_number' ? (
        <NewNumberForm change={change} id={id} fieldRef={fieldRef} />
      ) : null}
      {state.step === 'code' ? (
        <CodeForm change={change} id={id} state={state} fieldRef={fieldRef} />
      ) : null}
    </section>
  );
}

/**
 * The change's steps and calls: the code sent to the new number (the first and each new one),
 * then the change, each proved with the passkey first where the session needs it.
 */
function usePhoneChange(
  token: string | null,
  fieldRef: RefObject<HTMLInputElement | null>,
  noteRef: RefObject<HTMLParagraphElement | null>,
) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<TStep>({ step: 'shown' });
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  // What is under way: a code being sent, or the change.
  const [busy, setBusy] = useState<'sending' | 'changing' | null>(null);
  const [proving, setProving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  // Each step takes the focus where the payer goes on: the field to fill, or what happened.
  useEffect(() => {
    if (state.step === 'changed') noteRef.current?.focus();
    else if (state.step !== 'shown') fieldRef.current?.focus();
  }, [state.step, fieldRef, noteRef]);

  const run = async (what: 'sending' | 'changing', call: () => Promise<void>) => {
    setBusy(what);
    setFailure(null);
    try {
      await withPasskeyProof(call, setProving);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setBusy(null);
    }
  };

  // The first code, and each new one (the server's limits apply, and its refusal is shown).
  const sendCode = async (to: string) => {
    await run('sending', async () => {
      const sent = await identityApi.sendPhoneChangeCode({ phone: to });
      setCode('');
      setState({ step: 'code', phone: to, sentTo: sent.message });
    });
    // Back to the field, the button pressed having been disabled meanwhile: the new code goes
    // there, or the refusal is read out with it.
    fieldRef.current?.focus();
  };

  const change = (event: FormEvent) => {
    event.preventDefault();
    if (state.step !== 'code') return;
    void run('changing', async () => {
      const changed = await identityApi.changePhoneNumber({ phone: state.phone, code });
      if (token) saveSession({ token, user: changed.user });
      await queryClient.invalidateQueries({ queryKey: ['auth', 'me'] });
      setState({ step: 'changed', message: changed.message });
    });
  };

  return {
    ...{ state, setState, phone, setPhone, code, setCode, busy, proving, failure, setFailure },
    ...{ sendCode, change },
  };
}

type TPhoneChange = ReturnType<typeof usePhoneChange>;

type TStepFormProps = {
  change: TPhoneChange;
  id: string;
  fieldRef: RefObject<HTMLInputElement | null>;
};

/** What both steps' field shares: its error tied to it. */
function fieldProps({ failure }: TPhoneChange, id: string, fieldId: string) {
  return {
    id: fieldId,
    className: 'text-input',
    'aria-invalid': failure ? true : undefined,
    'aria-describedby': failure ? `${id}-error` : undefined,
  };
}

/** What both steps' forms end with: the error, the step's button, Cancel, and any more. */
function formActions(
  { failure, busy, setFailure, setState }: TPhoneChange,
  id: string,
  label: string,
  more?: ReactNode,
): ReactNode {
  return (
    <>
      {failure ? (
        <p id={`${id}-error`} className="form-error" role="alert">
          {failure}
        </p>
      ) : null}
      <div className="actions">
        <Button type="submit" disabled={busy !== null}>
          {label}
        </Button>
        <Button
          variant="link"
          disabled={busy !== null}
          onClick={() => {
            setFailure(null);
            setState({ step: 'shown' });
          }}
        >
          Cancel
        </Button>
        {more}
      </div>
    </>
  );
}

/** The new number, to which a code is sent. */
function NewNumberForm({ change, id, fieldRef }: TStepFormProps) {
  const { busy } = change;
  return (
    <form
      className="payer-phone-form"
      onSubmit={(event) => {
        event.preventDefault();
        void change.sendCode(change.phone);
      }}
      noValidate
      aria-busy={busy !== null}
    >
      <label htmlFor={`${id}-phone`}>New phone number</label>
      <input
        {...fieldProps(change, id, `${id}-phone`)}
        ref={fieldRef}
        type="tel"
        autoComplete="tel-national"
        placeholder="0803 123 4567"
        value={change.phone}
        onChange={(e) => change.setPhone(e.target.value)}
      />
      {formActions(change, id, busy === 'sending' ? 'Sending...' : 'Send code')}
    </form>
  );
}

/** The code sent to the new number, which makes the change; or a new code. */
function CodeForm({
  change,
  id,
  fieldRef,
  state,
}: TStepFormProps & { state: Extract<TStep, { step: 'code' }> }) {
  const { busy } = change;
  return (
    <form
      className="payer-phone-form"
      onSubmit={change.change}
      noValidate
      aria-busy={busy !== null}
    >
      <p role="status">{state.sentTo}</p>
      <label htmlFor={`${id}-code`}>6-digit code</label>
      <input
        {...fieldProps(change, id, `${id}-code`)}
        ref={fieldRef}
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={PHONE_CODE_LENGTH}
        value={change.code}
        onChange={(e) => change.setCode(e.target.value.replace(/\D/g, ''))}
      />
      {formActions(
        change,
        id,
        busy === 'changing' ? 'Changing...' : 'Change number',
        <Button
          variant="link"
          disabled={busy !== null}
          onClick={() => void change.sendCode(state.phone)}
        >
          {busy === 'sending' ? 'Sending...' : 'Send a new code'}
        </Button>,
      )}
    </form>
  );
}
