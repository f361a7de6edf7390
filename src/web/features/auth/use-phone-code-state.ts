import { useRef, useState } from 'react';
import type { TLoginResponse } from '../../../domain/schemas/auth';
import type { TSignInContext } from './sign-in-context';

// The phone-code form's props and state, shared by the form (phone-code-form.tsx) and its two
// steps (phone-code-steps.tsx).

export type TPhoneCodeFormProps = {
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

export type TField = 'fullName' | 'phone' | 'code';

/** What went wrong, and the field it is about (none for a refused passkey). */
export type TPhoneCodeError = { field: TField | null; message: string };

/** The form's fields, its step, its error and where each field is, to focus it. */
export function usePhoneCodeState(intent: TPhoneCodeFormProps['intent']) {
  const [step, setStep] = useState<'phone' | 'code'>('phone');
  const [fullName, setFullName] = useState('');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [askName, setAskName] = useState(intent === 'sign-up');
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const [error, setError] = useState<TPhoneCodeError | null>(null);
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const phoneRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [refs] = useState(() => ({ fullName: nameRef, phone: phoneRef, code: codeRef }));
  const fail = (field: TField | null, message: string) => {
    setError({ field, message });
    if (field) refs[field].current?.focus();
  };
  return {
    ...{ step, setStep, fullName, setFullName, phone, setPhone, code, setCode },
    ...{ askName, setAskName, sentMessage, setSentMessage, error, setError, busy, setBusy },
    refs,
    fail,
  };
}

export type TPhoneCodeState = ReturnType<typeof usePhoneCodeState>;
