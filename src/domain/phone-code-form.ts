import { ERROR_CATALOGUE } from './errors';
import { isPhoneCodeFormat, toNigerianE164, ZFullName } from './schemas/auth';

/*
 * The phone-code form (sign-up, and sign-in on a device without a passkey): the phone number
 * (and the name on sign-up), then the 6-digit code sent by SMS. Where it stands and what each
 * answer moves it to, for src/web/features/auth/phone-code-form-view.tsx to draw.
 */

export type TPhoneCodeIntent = 'sign-in' | 'sign-up';

export type TPhoneCodeField = 'fullName' | 'phone' | 'code';

/** What went wrong, and the field it is about (none for a refused passkey). */
export type TPhoneCodeError = { field: TPhoneCodeField | null; message: string };

export type TPhoneCodeFormState = {
  step: 'phone' | 'code';
  fullName: string;
  phone: string;
  /** Digits only: anything else typed is dropped. */
  code: string;
  /** Sign-up asks a name first; sign-in only once the number turns out to have no account. */
  askName: boolean;
  /** What the server said it sent ('Code sent to …'), shown above the code. */
  sentMessage: string | null;
  error: TPhoneCodeError | null;
  /** A call is out: the buttons wait. */
  busy: boolean;
};

export type TPhoneCodeFormAction =
  | { type: 'edited'; field: TPhoneCodeField; value: string }
  /** Refused before any call (a field's check), or a passkey offered by autofill refused. */
  | { type: 'refused'; error: TPhoneCodeError }
  | { type: 'sending' }
  | { type: 'sent'; message: string }
  /** The send refused: the catalogue's code (null: no answer) and what the payer reads. */
  | { type: 'send_failed'; code: string | null; message: string }
  | { type: 'verifying' }
  | { type: 'verify_failed'; code: string | null; message: string }
  /** 'Use a different number'. */
  | { type: 'change_number' };

export const phoneCodeFormInitial = (intent: TPhoneCodeIntent): TPhoneCodeFormState => ({
  step: 'phone',
  fullName: '',
  phone: '',
  code: '',
  askName: intent === 'sign-up',
  sentMessage: null,
  error: null,
  busy: false,
});

/** The form's state machine; an action its state does not take returns the same state. */
export function phoneCodeFormReducer(
  state: TPhoneCodeFormState,
  action: TPhoneCodeFormAction,
): TPhoneCodeFormState {
  switch (action.type) {
    case 'edited':
      return {
        ...state,
        [action.field]: action.field === 'code' ? action.value.replace(/\D/g, '') : action.value,
      };
    case 'refused':
      return { ...state, error: action.error };
    case 'sending':
    case 'verifying':
      return state.busy ? state : { ...state, busy: true, error: null };
    case 'sent':
      return { ...state, step: 'code', code: '', sentMessage: action.message, busy: false };
    case 'send_failed':
      // A code that could not be sent leaves nothing to enter: back to the number, to check it
      // and send again. Any other refusal (too many codes) leaves the step as it was.
      return {
        ...state,
        ...(action.code === 'CODE_NOT_SENT' || action.code === 'PHONE_NUMBER_UNREACHABLE'
          ? { step: 'phone', sentMessage: null }
          : {}),
        error: { field: 'phone', message: action.message },
        busy: false,
      };
    case 'verify_failed':
      // A number with no account yet: the name is asked, and the code is sent with it.
      return action.code === 'PAYER_NOT_FOUND'
        ? {
            ...state,
            askName: true,
            error: { field: 'fullName', message: action.message },
            busy: false,
          }
        : { ...state, error: { field: 'code', message: action.message }, busy: false };
    case 'change_number':
      return state.busy ? state : { ...state, step: 'phone', error: null };
    default: {
      const unhandled: never = action;
      throw new Error(`Unhandled phone-code action ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Why the full name typed is refused, or null. */
function nameProblem(fullName: string): TPhoneCodeError | null {
  const parsed = ZFullName.safeParse(fullName);
  if (parsed.success) return null;
  return { field: 'fullName', message: parsed.error.issues[0]?.message ?? 'Enter your full name' };
}

/** What keeps 'Send code' from going (the name on sign-up, the number), or null. */
export function sendProblem(
  state: TPhoneCodeFormState,
  intent: TPhoneCodeIntent,
): TPhoneCodeError | null {
  const name = intent === 'sign-up' ? nameProblem(state.fullName) : null;
  if (name) return name;
  return toNigerianE164(state.phone)
    ? null
    : { field: 'phone', message: ERROR_CATALOGUE.PHONE_NUMBER_INVALID.message };
}

/** What keeps 'Verify code' from going (the code's six digits, the name where asked), or null. */
export function verifyProblem(state: TPhoneCodeFormState): TPhoneCodeError | null {
  if (!isPhoneCodeFormat(state.code.trim())) {
    return { field: 'code', message: ERROR_CATALOGUE.PHONE_CODE_FORMAT_INVALID.message };
  }
  return state.askName ? nameProblem(state.fullName) : null;
}
