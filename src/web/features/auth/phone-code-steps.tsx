import type { FormEvent, ReactNode } from 'react';
import { PHONE_CODE_LENGTH } from '../../../domain/schemas/auth';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import type { TPhoneCodeField } from '../../../domain/phone-code-form';
import type { TPhoneCodeFormProps, TPhoneCodeState } from './use-phone-code-state';
import { StepHeading } from './step-heading';

/** What the form's steps are drawn from: its props, its state, its ids and its two calls. */
export type TPhoneCodeView = TPhoneCodeFormProps & {
  form: TPhoneCodeState;
  id: string;
  titleId: string;
  sendCode(event?: FormEvent): Promise<void>;
  verify(event: FormEvent): Promise<void>;
};

/** A field typed in. */
const edited = (form: TPhoneCodeState, field: TPhoneCodeField, value: string) =>
  form.dispatch({ type: 'edited', field, value });

/** The field's error, where the error is about it. */
function describedBy({ form, id }: TPhoneCodeView, field: TPhoneCodeField) {
  return form.error?.field === field ? `${id}-error` : undefined;
}

/** The form's error, said under its fields. */
function errorBox({ form, id }: TPhoneCodeView): ReactNode {
  return form.error ? (
    <p id={`${id}-error`} className="auth-error" role="alert">
      {form.error.message}
    </p>
  ) : null;
}

/** The full name: asked first on sign-up, or on sign-in when the number has no account yet. */
function nameField(view: TPhoneCodeView): ReactNode {
  const { form, id } = view;
  return (
    <div className="auth-field">
      <label htmlFor={`${id}-name`}>Full name</label>
      <input
        ref={form.refs.fullName}
        id={`${id}-name`}
        name="name"
        autoComplete="name"
        value={form.fullName}
        onChange={(e) => edited(form, 'fullName', e.target.value)}
        aria-invalid={form.error?.field === 'fullName'}
        aria-describedby={describedBy(view, 'fullName')}
        maxLength={100}
      />
    </div>
  );
}

/** The first step: the phone number (and the name on sign-up), then 'Send code'. */
export function phoneStep(view: TPhoneCodeView): ReactNode {
  const { form, id, titleId, intent, onPasskeyAutofill } = view;
  const { busy } = form;
  return (
    <form
      className="auth-form"
      onSubmit={(e) => void view.sendCode(e)}
      noValidate
      aria-labelledby={titleId}
    >
      <StepHeading screenTitleId={view.screenTitleId} id={titleId}>
        {intent === 'sign-up' ? 'Create your account' : 'Sign in with a code'}
      </StepHeading>
      <p className="auth-lead">We will send a 6-digit code to your phone by SMS.</p>
      {intent === 'sign-up' ? nameField(view) : null}
      <div className="auth-field">
        <label htmlFor={`${id}-phone`}>Phone number</label>
        <input
          ref={form.refs.phone}
          id={`${id}-phone`}
          name="phone"
          type="tel"
          inputMode="tel"
          // The phone number is the passkey's user name, so autofill can offer passkeys here.
          autoComplete={onPasskeyAutofill ? 'username webauthn' : 'tel-national'}
          placeholder="0803 123 4567"
          value={form.phone}
          onChange={(e) => edited(form, 'phone', e.target.value)}
          aria-invalid={form.error?.field === 'phone'}
          aria-describedby={describedBy(view, 'phone') ?? `${id}-phone-hint`}
          maxLength={20}
        />
        <span id={`${id}-phone-hint`} className="hint">
          A Nigerian mobile number
        </span>
      </div>
      {errorBox(view)}
      <div className="actions">
        <Button type="submit" disabled={busy}>
          {busy ? <Spinner small /> : null}
          Send code
        </Button>
        <Button variant="link" onClick={view.onBack} disabled={busy}>
          Back
        </Button>
      </div>
    </form>
  );
}

/** The second step: the code sent by SMS (and the name where it is asked), then 'Verify code'. */
export function codeStep(view: TPhoneCodeView): ReactNode {
  const { form, id, titleId } = view;
  const { busy, askName } = form;
  return (
    <form
      className="auth-form"
      onSubmit={(e) => void view.verify(e)}
      noValidate
      aria-labelledby={titleId}
    >
      <StepHeading screenTitleId={view.screenTitleId} id={titleId}>
        Enter your code
      </StepHeading>
      {form.sentMessage ? (
        <p className="auth-lead" role="status">
          {form.sentMessage}
        </p>
      ) : null}
      <div className="auth-field">
        <label htmlFor={`${id}-code`}>6-digit code</label>
        <input
          ref={form.refs.code}
          id={`${id}-code`}
          name="code"
          className="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={PHONE_CODE_LENGTH}
          value={form.code}
          onChange={(e) => edited(form, 'code', e.target.value)}
          aria-invalid={form.error?.field === 'code'}
          aria-describedby={describedBy(view, 'code')}
        />
      </div>
      {askName && view.intent === 'sign-in' ? nameField(view) : null}
      {errorBox(view)}
      <div className="actions">
        <Button type="submit" disabled={busy}>
          {busy ? <Spinner small /> : null}
          {askName ? 'Create account' : 'Verify code'}
        </Button>
        <Button variant="link" onClick={() => void view.sendCode()} disabled={busy}>
          Send a new code
        </Button>
        <Button
          variant="link"
          onClick={() => form.dispatch({ type: 'change_number' })}
          disabled={busy}
        >
          Use a different number
        </Button>
      </div>
    </form>
  );
}
