import { useEffect, useReducer, useRef, useState } from 'react';
import {
  phoneCodeFormInitial,
  phoneCodeFormReducer,
  type TPhoneCodeIntent,
} from '../../../domain/phone-code-form';
import type { TLoginResponse } from '../../../domain/schemas/auth';
import type { TSignInContext } from './sign-in-context';

// The phone-code form's props and state, shared by the form (phone-code-form-view.tsx) and its two
// steps (phone-code-steps.tsx). Where the form stands is the domain's reducer
// (src/domain/phone-code-form.ts).

export type TPhoneCodeFormProps = {
  context: TSignInContext;
  /** Sign-up asks a name first; sign-in asks one only when the number has no account yet. */
  intent: TPhoneCodeIntent;
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

/** The form's state, what it is told, and where each field is: an error moves focus to its field. */
export function usePhoneCodeState(intent: TPhoneCodeIntent) {
  const [state, dispatch] = useReducer(phoneCodeFormReducer, intent, phoneCodeFormInitial);
  const nameRef = useRef<HTMLInputElement>(null);
  const phoneRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [refs] = useState(() => ({ fullName: nameRef, phone: phoneRef, code: codeRef }));
  // After the render that drew it: a name asked for the first time exists only from then.
  useEffect(() => {
    const field = state.error?.field;
    if (field) refs[field].current?.focus();
  }, [state.error, refs]);
  return { ...state, dispatch, refs };
}

export type TPhoneCodeState = ReturnType<typeof usePhoneCodeState>;
