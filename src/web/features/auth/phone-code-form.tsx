import { browserSupportsWebAuthnAutofill, WebAuthnAbortService } from '@simplewebauthn/browser';
import { useEffect, useEffectEvent, useId, useRef, useState, type FormEvent } from 'react';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import {
  isPhoneCodeFormat,
  PHONE_CODE_LENGTH,
  toNigerianE164,
  ZFullName,
  type TLoginResponse,
} from '../../../domain/schemas/auth';
import { authApi } from '../../api/auth';
import { ApiError } from '../../api/api-error';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import { signInWithCode, signInWithPasskey } from './passkey-sign-in';
import type { TSignInContext } from './sign-in-context';
import { signInErrorMessage } from './sign-in-errors';
import { StepHeading } from './step-heading';

type TPhoneCodeFormProps = {
  context: TSignInContext;
  /** Sign-up asks a name first; sign-in asks one only when the number has no account yet. */
  intent: 'sign-in' | 'sign-up';
  onSignedIn(result: TLoginResponse): void;
  onBack(): void;
  /**
   * Where autofill is supported, the phone field also offers the passkeys saved for this site
   * (conditional mediation); picking one signs in with it.
   */
  onPasskeyAutofill?: ((result: TLoginResponse) => void) | undefined;
  /** The screen's title id, where the form is the whole screen (StepHeading). */
  screenTitleId?: string | undefined;
};

type TField = 'fullName' | 'phone' | 'code';

/**
 * Phone number → 6-digit code sent by SMS (in the sandbox: /sandbox/messages) → signed in.
 * The sign-up path and the fallback for a device with no passkey (issue: payer identity).
 */
export function PhoneCodeForm({
  context,
  intent,
  onSignedIn,
  onBack,
  onPasskeyAutofill,
  screenTitleId,
}: TPhoneCodeFormProps) {
  const id = useId();
  const titleId = screenTitleId ?? `${id}-title`;
  const [step, setStep] = useState<'phone' | 'code'>('phone');
  const [fullName, setFullName] = useState('');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [askName, setAskName] = useState(intent === 'sign-up');
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const [error, setError] = useState<{ field: TField | null; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const phoneRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const focus = (field: TField) =>
    ({ fullName: nameRef, phone: phoneRef, code: codeRef })[field].current?.focus();

  // Focus moves to the first field of each step.
  useEffect(() => {
    (step === 'code' ? codeRef : intent === 'sign-up' ? nameRef : phoneRef).current?.focus();
  }, [step, intent]);

  const autofill = Boolean(onPasskeyAutofill) && step === 'phone';
  const autofillDone = useEffectEvent((result: TLoginResponse) => onPasskeyAutofill?.(result));
  useEffect(() => {
    if (!autofill) return;
    let live = true;
    void (async () => {
      if (!(await browserSupportsWebAuthnAutofill()) || !live) return;
      try {
        const result = await signInWithPasskey(context, { useBrowserAutofill: true });
        if (live) autofillDone(result);
      } catch (cause) {
        // Leaving the step aborts the pending request; only a refused login is worth saying.
        if (live && cause instanceof ApiError) setError({ field: null, message: cause.message });
      }
    })();
    return () => {
      live = false;
      WebAuthnAbortService.cancelCeremony();
    };
  }, [autofill, context]);

  const fail = (field: TField | null, message: string) => {
    setError({ field, message });
    if (field) focus(field);
  };

  const nameProblem = (): string | null => {
    const parsed = ZFullName.safeParse(fullName);
    return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Enter your full name');
  };

  const sendCode = async (event?: FormEvent) => {
    event?.preventDefault();
    setError(null);
    if (intent === 'sign-up') {
      const problem = nameProblem();
      if (problem) return fail('fullName', problem);
    }
    if (!toNigerianE164(phone)) return fail('phone', ERROR_CATALOGUE.PHONE_NUMBER_INVALID.message);
    setBusy(true);
    try {
      const sent = await authApi.sendPhoneCode(phone);
      setSentMessage(sent.message);
      setCode('');
      setStep('code');
    } catch (cause) {
      fail('phone', signInErrorMessage(cause));
    } finally {
      setBusy(false);
    }
  };

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!isPhoneCodeFormat(code.trim())) {
      return fail('code', ERROR_CATALOGUE.PHONE_CODE_FORMAT_INVALID.message);
    }
    if (askName) {
      const problem = nameProblem();
      if (problem) return fail('fullName', problem);
    }
    setBusy(true);
    try {
      const result = await signInWithCode(context, {
        phone,
        code: code.trim(),
        fullName: askName ? fullName.trim() : undefined,
      });
      onSignedIn(result);
    } catch (cause) {
      setBusy(false);
      if (cause instanceof ApiError && cause.code === 'PAYER_NOT_FOUND') {
        setAskName(true);
        setError({ field: 'fullName', message: cause.message });
        // The name field appears with this render; focus it once it exists.
        setTimeout(() => nameRef.current?.focus(), 0);
        return;
      }
      fail('code', signInErrorMessage(cause));
    }
  };

  const errorId = `${id}-error`;
  const describedBy = (field: TField) => (error?.field === field ? errorId : undefined);
  const errorBox = error ? (
    <p id={errorId} className="auth-error" role="alert">
      {error.message}
    </p>
  ) : null;

  const nameField = (
    <div className="auth-field">
      <label htmlFor={`${id}-name`}>Full name</label>
      <input
        ref={nameRef}
        id={`${id}-name`}
        name="name"
        autoComplete="name"
        value={fullName}
        onChange={(e) => setFullName(e.target.value)}
        aria-invalid={error?.field === 'fullName'}
        aria-describedby={describedBy('fullName')}
        maxLength={100}
      />
    </div>
  );

  if (step === 'phone') {
    return (
      <form
        className="auth-form"
        onSubmit={(e) => void sendCode(e)}
        noValidate
        aria-labelledby={titleId}
      >
        <StepHeading screenTitleId={screenTitleId} id={titleId}>
          {intent === 'sign-up' ? 'Create your account' : 'Sign in with a code'}
        </StepHeading>
        <p className="auth-lead">We will send a 6-digit code to your phone by SMS.</p>
        {intent === 'sign-up' ? nameField : null}
        <div className="auth-field">
          <label htmlFor={`${id}-phone`}>Phone number</label>
          <input
            ref={phoneRef}
            id={`${id}-phone`}
            name="phone"
            type="tel"
            inputMode="tel"
            // The phone number is the passkey's user name, so autofill can offer passkeys here.
            autoComplete={onPasskeyAutofill ? 'username webauthn' : 'tel-national'}
            placeholder="0803 123 4567"
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
            aria-invalid={error?.field === 'phone'}
            aria-describedby={describedBy('phone') ?? `${id}-phone-hint`}
            maxLength={20}
          />
          <span id={`${id}-phone-hint`} className="hint">
            A Nigerian mobile number
          </span>
        </div>
        {errorBox}
        <div className="actions">
          <Button type="submit" disabled={busy}>
            {busy ? <Spinner small /> : null}
            Send code
          </Button>
          <Button variant="link" onClick={onBack} disabled={busy}>
            Back
          </Button>
        </div>
      </form>
    );
  }

  return (
    <form
      className="auth-form"
      onSubmit={(e) => void verify(e)}
      noValidate
      aria-labelledby={titleId}
    >
      <StepHeading screenTitleId={screenTitleId} id={titleId}>
        Enter your code
      </StepHeading>
      {sentMessage ? (
        <p className="auth-lead" role="status">
          {sentMessage}
        </p>
      ) : null}
      <div className="auth-field">
        <label htmlFor={`${id}-code`}>6-digit code</label>
        <input
          ref={codeRef}
          id={`${id}-code`}
          name="code"
          className="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={PHONE_CODE_LENGTH}
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
          aria-invalid={error?.field === 'code'}
          aria-describedby={describedBy('code')}
        />
      </div>
      {askName && intent === 'sign-in' ? nameField : null}
      {errorBox}
      <div className="actions">
        <Button type="submit" disabled={busy}>
          {busy ? <Spinner small /> : null}
          {askName ? 'Create account' : 'Verify code'}
        </Button>
        <Button variant="link" onClick={() => void sendCode()} disabled={busy}>
          Send a new code
        </Button>
        <Button
          variant="link"
          onClick={() => {
            setStep('phone');
            setError(null);
          }}
          disabled={busy}
        >
          Use a different number
        </Button>
      </div>
    </form>
  );
}
