import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
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
  const queryClient = useQueryClient();
  const token = readToken();
  const me = useMeQuery(token);
  const [state, setState] = useState<TStep>({ step: 'shown' });
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [proving, setProving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const fieldRef = useRef<HTMLInputElement>(null);
  const noteRef = useRef<HTMLParagraphElement>(null);

  // Each step takes the focus where the payer goes on: the field to fill, or what happened.
  useEffect(() => {
    if (state.step === 'changed') noteRef.current?.focus();
    else if (state.step !== 'shown') fieldRef.current?.focus();
  }, [state.step]);

  const run = async (call: () => Promise<void>) => {
    setBusy(true);
    setFailure(null);
    try {
      await withPasskeyProof(call, setProving);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setBusy(false);
    }
  };

  const sendCode = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const sent = await identityApi.sendPhoneChangeCode({ phone });
      setCode('');
      setState({ step: 'code', phone, sentTo: sent.message });
    });
  };

  const change = (event: FormEvent) => {
    event.preventDefault();
    if (state.step !== 'code') return;
    void run(async () => {
      const changed = await identityApi.changePhoneNumber({ phone: state.phone, code });
      if (token) saveSession({ token, user: changed.user });
      await queryClient.invalidateQueries({ queryKey: ['auth', 'me'] });
      setState({ step: 'changed', message: changed.message });
    });
  };

  const number = me.data?.user.phoneNumber;
  const errorId = `${id}-error`;
  const error = failure ? (
    <p id={errorId} className="form-error" role="alert">
      {failure}
    </p>
  ) : null;
  // What both steps' field, error and buttons share.
  const field = (fieldId: string) => ({
    id: fieldId,
    className: 'text-input',
    'aria-invalid': failure ? true : undefined,
    'aria-describedby': failure ? errorId : undefined,
  });
  const submit = (label: string) => (
    <>
      {error}
      <div className="actions">
        <Button type="submit" disabled={busy}>
          {label}
        </Button>
        <Button
          variant="link"
          disabled={busy}
          onClick={() => {
            setFailure(null);
            setState({ step: 'shown' });
          }}
        >
          Cancel
        </Button>
      </div>
    </>
  );

  return (
    <section className="payer-phone" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Your sign-in number</h2>
      {proving ? <BusyOverlay title="Getting your biometric approval..." /> : null}
      <p className="muted">
        Codes sent by SMS go to {number ? formatNigerianPhone(number) : 'your number'}. Changing it
        needs your passkey, and we tell this number.
      </p>
      {state.step === 'shown' ? (
        <Button variant="secondary" onClick={() => setState({ step: 'new_number' })}>
          Change number
        </Button>
      ) : null}
      {state.step === 'changed' ? (
        <p className="removed-note" role="status" tabIndex={-1} ref={noteRef}>
          {state.message}. We told your old number.
        </p>
      ) : null}
      {state.step === 'new_number' ? (
        <form className="payer-phone-form" onSubmit={sendCode} noValidate aria-busy={busy}>
          <label htmlFor={`${id}-phone`}>New phone number</label>
          <input
            {...field(`${id}-phone`)}
            ref={fieldRef}
            type="tel"
            autoComplete="tel-national"
            placeholder="0803 123 4567"
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
          />
          {submit(busy ? 'Sending...' : 'Send code')}
        </form>
      ) : null}
      {state.step === 'code' ? (
        <form className="payer-phone-form" onSubmit={change} noValidate aria-busy={busy}>
          <p role="status">{state.sentTo}</p>
          <label htmlFor={`${id}-code`}>6-digit code</label>
          <input
            {...field(`${id}-code`)}
            ref={fieldRef}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={PHONE_CODE_LENGTH}
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
          />
          {submit(busy ? 'Changing...' : 'Change number')}
        </form>
      ) : null}
    </section>
  );
}
