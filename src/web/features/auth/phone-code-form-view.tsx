import { browserSupportsWebAuthnAutofill, WebAuthnAbortService } from '@simplewebauthn/browser';
import { useEffect, useEffectEvent, useId, type Dispatch, type FormEvent } from 'react';
import {
  sendProblem,
  verifyProblem,
  type TPhoneCodeFormAction,
} from '../../../domain/phone-code-form';
import type { TLoginResponse } from '../../../domain/schemas/auth';
import { authApi } from '../../api/auth';
import { ApiError } from '../../api/api-error';
import { signInWithCode, signInWithPasskey } from './passkey-sign-in';
import type { TSignInContext } from './sign-in-context';
import { signInErrorMessage } from './sign-in-errors';
import { codeStep, phoneStep, type TPhoneCodeView } from './phone-code-steps';
import {
  usePhoneCodeState,
  type TPhoneCodeFormProps,
  type TPhoneCodeState,
} from './use-phone-code-state';

/**
 * Phone number → 6-digit code sent by SMS (in the sandbox: /sandbox/messages) → signed in.
 * The sign-up path and the fallback for a device with no passkey (issue: payer identity).
 */
export function PhoneCodeForm(props: TPhoneCodeFormProps) {
  const { context, intent, onSignedIn, onPasskeyAutofill, screenTitleId } = props;
  const id = useId();
  const form = usePhoneCodeState(intent);

  // Focus moves to the first field of each step.
  const { step, refs } = form;
  useEffect(() => {
    (step === 'code'
      ? refs.code
      : intent === 'sign-up'
        ? refs.fullName
        : refs.phone
    ).current?.focus();
  }, [step, intent, refs]);

  usePasskeyAutofill(
    Boolean(onPasskeyAutofill) && step === 'phone',
    context,
    onPasskeyAutofill,
    form.dispatch,
  );

  const view: TPhoneCodeView = {
    ...props,
    form,
    id,
    titleId: screenTitleId ?? `${id}-title`,
    sendCode: (event) => sendCode(form, intent, event),
    verify: (event) => verifyCode(form, context, onSignedIn, event),
  };
  return step === 'phone' ? phoneStep(view) : codeStep(view);
}

/**
 * Where autofill is supported, the phone field also offers the passkeys saved for this site
 * (conditional mediation); picking one signs in with it.
 */
function usePasskeyAutofill(
  autofill: boolean,
  context: TSignInContext,
  onPasskeyAutofill: TPhoneCodeFormProps['onPasskeyAutofill'],
  dispatch: Dispatch<TPhoneCodeFormAction>,
) {
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
        if (live && cause instanceof ApiError) {
          dispatch({ type: 'refused', error: { field: null, message: cause.message } });
        }
      }
    })();
    return () => {
      live = false;
      WebAuthnAbortService.cancelCeremony();
    };
  }, [autofill, context, dispatch]);
}

/** 'Send code' (and 'Send a new code'): the number checked, the code sent, the code step shown. */
async function sendCode(
  form: TPhoneCodeState,
  intent: TPhoneCodeFormProps['intent'],
  event?: FormEvent,
) {
  event?.preventDefault();
  // One call at a time: the buttons wait, and so does a second submit.
  if (form.busy) return;
  const problem = sendProblem(form, intent);
  if (problem) return form.dispatch({ type: 'refused', error: problem });
  form.dispatch({ type: 'sending' });
  try {
    const sent = await authApi.sendPhoneCode(form.phone);
    form.dispatch({ type: 'sent', message: sent.message });
  } catch (cause) {
    form.dispatch({ type: 'send_failed', code: codeOf(cause), message: signInErrorMessage(cause) });
  }
}

/** 'Verify code': signed in with the code, or asked a name where the number has no account. */
async function verifyCode(
  form: TPhoneCodeState,
  context: TSignInContext,
  onSignedIn: (result: TLoginResponse) => void,
  event: FormEvent,
) {
  event.preventDefault();
  if (form.busy) return;
  const problem = verifyProblem(form);
  if (problem) return form.dispatch({ type: 'refused', error: problem });
  form.dispatch({ type: 'verifying' });
  try {
    const result = await signInWithCode(context, {
      phone: form.phone,
      code: form.code.trim(),
      fullName: form.askName ? form.fullName.trim() : undefined,
    });
    onSignedIn(result);
  } catch (cause) {
    form.dispatch({
      type: 'verify_failed',
      code: codeOf(cause),
      message: signInErrorMessage(cause),
    });
  }
}

/** The catalogue's code of a refused call; null when no answer came. */
const codeOf = (cause: unknown) => (cause instanceof ApiError ? cause.code : null);
