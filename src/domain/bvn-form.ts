import { BVN_CODE_LENGTH, toBvn } from './bvn';
import { ERROR_CATALOGUE, type TErrorCode } from './errors';
import { BVN_CODE_RESENT_MESSAGE } from './phone-code-texts';

/*
 * The BVN form (docs/identity.md "The BVN"): the payer types their BVN, a code goes to the phone
 * the BVN is registered with, and the code proves the BVN theirs. One state, drawn wherever the
 * page asks for the BVN: the linking panel's BVN step, the Data Sharing step, a saved account.
 */

export type TBvnFormState =
  /** The BVN field and 'Send code'. `busy` while the code is being sent. */
  | { phase: 'enter_bvn'; bvn: string; busy: boolean; error: string | null }
  /**
   * The code field and 'Verify' ('Verifying...' while `busy`), under the words the server answers
   * whatever the BVN (BVN_CODE_SENT_MESSAGE: no phone, no word of whether the BVN is on record).
   * `notice` says a new code went.
   */
  | {
      phase: 'enter_code';
      bvn: string;
      busy: boolean;
      /** 'Send again' is under way. */
      resending: boolean;
      error: string | null;
      notice: string | null;
    }
  /** The BVN is the payer's: only its last 4 digits are kept. */
  | { phase: 'verified'; last4: string };

export type TBvnFormAction =
  /** 'Send code' with the BVN as typed. */
  | { type: 'code_requested'; bvn: string }
  /** 'Send again' on the code field: a new code to the same BVN's phone. */
  | { type: 'resend_requested' }
  | { type: 'code_sent' }
  | { type: 'send_failed'; message?: string | null | undefined; code?: TErrorCode | undefined }
  /** 'Verify' with the code as typed. */
  | { type: 'verify_requested'; code: string }
  | { type: 'verified'; last4: string }
  | { type: 'verify_failed'; message?: string | null | undefined; code?: TErrorCode | undefined }
  /** 'Change BVN' on the code field: back to the BVN field, the BVN kept. */
  | { type: 'change_bvn' };

export const BVN_FORM_INITIAL: TBvnFormState = {
  phase: 'enter_bvn',
  bvn: '',
  busy: false,
  error: null,
};

/** The code as typed, when it is the 6 digits the code is. */
export function toBvnCode(input: string): string | null {
  const digits = input.replace(/\s/g, '');
  return new RegExp(`^\\d{${BVN_CODE_LENGTH}}$`).test(digits) ? digits : null;
}

/** Refusals of the BVN itself: the payer goes back to the BVN field to change it. */
const BVN_REFUSED: readonly TErrorCode[] = ['BVN_INVALID', 'BVN_TAKEN'];

/** The server's message; else the catalogue's for its code; else the generic `fallback`. */
const messageOf = (
  action: { message?: string | null | undefined; code?: TErrorCode | undefined },
  fallback: TErrorCode,
): string => action.message?.trim() || ERROR_CATALOGUE[action.code ?? fallback].message;

/**
 * The BVN form's state machine. An action its phase does not accept returns the same state
 * object: a second 'Send code' or 'Verify' while one is under way changes nothing.
 */
export function bvnFormReducer(state: TBvnFormState, action: TBvnFormAction): TBvnFormState {
  switch (action.type) {
    case 'code_requested': {
      if (state.phase !== 'enter_bvn' || state.busy) return state;
      const bvn = toBvn(action.bvn);
      if (!bvn) {
        return { ...state, bvn: action.bvn, error: ERROR_CATALOGUE.BVN_INVALID.message };
      }
      return { ...state, bvn, busy: true, error: null };
    }
    case 'resend_requested':
      if (state.phase !== 'enter_code' || state.busy || state.resending) return state;
      return { ...state, resending: true, error: null, notice: null };
    case 'code_sent':
      if (state.phase === 'enter_bvn' && state.busy) {
        return {
          phase: 'enter_code',
          bvn: state.bvn,
          busy: false,
          resending: false,
          error: null,
          notice: null,
        };
      }
      if (state.phase === 'enter_code' && state.resending) {
        return { ...state, resending: false, notice: BVN_CODE_RESENT_MESSAGE };
      }
      return state;
    case 'send_failed': {
      const message = messageOf(action, 'API_REQUEST_FAILED');
      if (state.phase === 'enter_bvn' && state.busy) {
        return { ...state, busy: false, error: message };
      }
      if (state.phase === 'enter_code' && state.resending) {
        return action.code && BVN_REFUSED.includes(action.code)
          ? { phase: 'enter_bvn', bvn: state.bvn, busy: false, error: message }
          : { ...state, resending: false, error: message };
      }
      return state;
    }
    case 'verify_requested': {
      if (state.phase !== 'enter_code' || state.busy || state.resending) return state;
      if (!toBvnCode(action.code)) {
        return { ...state, error: ERROR_CATALOGUE.PHONE_CODE_FORMAT_INVALID.message, notice: null };
      }
      return { ...state, busy: true, error: null, notice: null };
    }
    case 'verified':
      if (state.phase !== 'enter_code' || !state.busy) return state;
      return { phase: 'verified', last4: action.last4 };
    case 'verify_failed': {
      if (state.phase !== 'enter_code' || !state.busy) return state;
      const message = messageOf(action, 'OTP_VERIFICATION_FAILED');
      if (action.code && BVN_REFUSED.includes(action.code)) {
        return { phase: 'enter_bvn', bvn: state.bvn, busy: false, error: message };
      }
      // A wrong code with tries left, or one that can no longer succeed (locked, expired): the
      // code field stays with its 'Send again', and the catalogue's message says which to do.
      return { ...state, busy: false, error: message };
    }
    case 'change_bvn':
      if (state.phase !== 'enter_code' || state.busy || state.resending) return state;
      return { phase: 'enter_bvn', bvn: state.bvn, busy: false, error: null };
    default: {
      const unhandled: never = action;
      throw new Error(`Unhandled BVN form action ${JSON.stringify(unhandled)}`);
    }
  }
}
