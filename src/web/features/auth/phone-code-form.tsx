import { browserSupportsWebAuthnAutofill, WebAuthnAbortService } from '@simplewebauthn/browser';
import { useEffect, useEffectEvent, useId, type FormEvent } from 'react';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import {
  isPhoneCodeFormat,
  toNigerianE164,
  ZFullName,
  type TLoginResponse,
} from '../../../domain/schemas/auth';
import { authApi } from '../../api/auth';
import { ApiError } from '../../api/api-error';
import { signInWithCode, signInWithPasskey } from './passkey-sign-in';
import type { TSignInContext } from './sign-in-context';
import { signInErrorMessage } from './sign-in-errors';
import { codeStep, phoneStep, type TPhoneCodeView } from './phone-code-steps';
import {
  usePhoneCodeState,
  type TPhoneCodeError,
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
    form.setError,
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
  setError: (error: TPhoneCodeError) => void,
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
        if (live && cause instanceof ApiError) setError({ field: null, message: cause.message });
      }
    })();
    return () => {
      live = false;
      WebAuthnAbortService.cancelCeremony();
    };
  }, [autofill, context, setError]);
}

/** Why the full name typed is refused, or null. */
function nameProblem(fullName: string): string | null {
  const parsed = ZFullName.safeParse(fullName);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Enter your full name');
}

/** 'Send code' (and 'Send a new code'): the number checked, the code sent, the code step shown. */
async function sendCode(
  form: TPhoneCodeState,
  intent: TPhoneCodeFormProps['intent'],
  event?: FormEvent,
) {
  event?.preventDefault();
  form.setError(null);
  if (intent === 'sign-up') {
    const problem = nameProblem(form.fullName);
    if (problem) return form.fail('fullName', problem);
  }
  if (!toNigerianE164(form.phone)) {
    return form.fail('phone', ERROR_CATALOGUE.PHONE_NUMBER_INVALID.message);
  }
  form.setBusy(true);
  try {
    const sent = await authApi.sendPhoneCode(form.phone);
    form.setSentMessage(sent.message);
    form.setCode('');
    form.setStep('code');
  } catch (cause) {
    // A code that could not be sent leaves nothing to enter: back to the number, to check it and
    // send again.
    if (cause instanceof ApiError && cause.code === 'CODE_NOT_SENT') {
      form.setSentMessage(null);
      form.setStep('phone');
    }
    form.fail('phone', signInErrorMessage(cause));
  } finally {
    form.setBusy(false);
  }
}

/** 'Verify code': signed in with the code, or asked a name where the number has no account. */
async function verifyCode(
  form: TPhoneCodeState,
  context: TSignInContext,
  onSignedIn: (result: TLoginResponse) => void,
  event: FormEvent,
) {
  const { code, askName, fullName } = form;
  event.preventDefault();
  form.setError(null);
  if (!isPhoneCodeFormat(code.trim())) {
    return form.fail('code', ERROR_CATALOGUE.PHONE_CODE_FORMAT_INVALID.message);
  }
  if (askName) {
    const problem = nameProblem(fullName);
    if (problem) return form.fail('fullName', problem);
  }
  form.setBusy(true);
  try {
    const result = await signInWithCode(context, {
      phone: form.phone,
      code: code.trim(),
      fullName: askName ? fullName.trim() : undefined,
    });
    onSignedIn(result);
  } catch (cause) {
    form.setBusy(false);
    if (cause instanceof ApiError && cause.code === 'PAYER_NOT_FOUND') {
      form.setAskName(true);
      form.setError({ field: 'fullName', message: cause.message });
      // The name field appears with this render; focus it once it exists.
      setTimeout(() => form.refs.fullName.current?.focus(), 0);
      return;
    }
    form.fail('code', signInErrorMessage(cause));
  }
}
