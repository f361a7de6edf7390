import { BVN_CODE_LENGTH, toBvn } from './bvn';
import { bvnCodeResentMessage, type TBvnCodeSender } from './bvn-code-texts';
import { ERROR_CATALOGUE, type TErrorCode } from './errors';

/*
 * The BVN form (docs/identity.md "The BVN"): the payer types their BVN, the BVN registry answers
 * the ways it can send a code (masked hints), the payer picks one and the registry sends it (with
 * Mono, NIBSS does), and the code proves the BVN theirs. One state, drawn wherever the page asks
 * for the BVN: the linking panel's BVN step, the Data Sharing step, a saved account.
 */

/** A way the registry can send the code, as it hints at it. */
export type TBvnMethodChoice = { id: string; hint: string };

/** What every phase after the BVN knows: the BVN, who sends the code, and the ways it can go. */
type TOpened = { bvn: string; sender: TBvnCodeSender; methods: readonly TBvnMethodChoice[] };

export type TBvnFormState =
  /** The BVN field and 'Continue'. `busy` while the registry opens the verification. */
  | { phase: 'enter_bvn'; bvn: string; busy: boolean; error: string | null }
  /**
   * The ways the code can go, one to pick, and 'Send code' ('Sending...' while `busy`); who sends
   * it is said above them. `chosen`: the way being sent, or last sent.
   */
  | (TOpened & {
      phase: 'choose_method';
      chosen: string | null;
      busy: boolean;
      error: string | null;
    })
  /**
   * The code field and 'Verify' ('Verifying...' while `busy`), under where the code went
   * (`notice`: the server's words, naming the registry and its hint). 'Send again' resends the
   * same way (`resending`); 'Use another way' goes back to the ways.
   */
  | (TOpened & {
      phase: 'enter_code';
      method: string;
      busy: boolean;
      resending: boolean;
      error: string | null;
      notice: string | null;
    })
  /** The BVN is the payer's: only its last 4 digits are kept. */
  | { phase: 'verified'; last4: string };

type TFailure = { message?: string | null | undefined; code?: TErrorCode | undefined };

export type TBvnFormAction =
  /** 'Continue' with the BVN as typed: the registry is asked to open a verification. */
  | { type: 'code_requested'; bvn: string }
  /** The registry opened it: who sends the code and the ways it can go. */
  | { type: 'verification_opened'; sender: TBvnCodeSender; methods: TBvnMethodChoice[] }
  | ({ type: 'open_failed' } & TFailure)
  /** 'Send code' with the way picked. */
  | { type: 'method_chosen'; method: string }
  /** 'Send again' on the code field: the same way again. */
  | { type: 'resend_requested' }
  /** The registry sent the code: `message` says who, and where (its hint). */
  | { type: 'code_sent'; message?: string | null | undefined }
  | ({ type: 'send_failed' } & TFailure)
  /** 'Use another way' on the code field. */
  | { type: 'other_method' }
  /** 'Verify' with the code as typed. */
  | { type: 'verify_requested'; code: string }
  | { type: 'verified'; last4: string }
  | ({ type: 'verify_failed' } & TFailure)
  /** 'Change BVN': back to the BVN field, the BVN kept. */
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
const BVN_REFUSED: readonly TErrorCode[] = ['BVN_INVALID', 'BVN_TAKEN', 'BVN_NOT_FOUND'];
/** The verification is over (expired, or its sends or tries spent): a new one starts at the BVN. */
const VERIFICATION_OVER: readonly TErrorCode[] = [
  'PHONE_CODE_EXPIRED',
  'PHONE_CODE_NOT_FOUND',
  'PHONE_CODE_LOCKED',
];

/** The server's message; else the catalogue's for its code; else the generic `fallback`. */
const messageOf = (action: TFailure, fallback: TErrorCode): string =>
  action.message?.trim() || ERROR_CATALOGUE[action.code ?? fallback].message;

const backToBvn = (bvn: string, error: string | null): TBvnFormState => ({
  phase: 'enter_bvn',
  bvn,
  busy: false,
  error,
});

const opened = (state: TOpened): TOpened => ({
  bvn: state.bvn,
  sender: state.sender,
  methods: state.methods,
});

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
    case 'verification_opened':
      if (state.phase !== 'enter_bvn' || !state.busy) return state;
      // No way to send a code to the BVN's holder: the BVN is refused, and the payer may change it.
      if (action.methods.length === 0) {
        return backToBvn(state.bvn, ERROR_CATALOGUE.BVN_NOT_FOUND.message);
      }
      return {
        phase: 'choose_method',
        bvn: state.bvn,
        sender: action.sender,
        methods: action.methods,
        // One way only: it is already picked.
        chosen: action.methods.length === 1 ? (action.methods[0]?.id ?? null) : null,
        busy: false,
        error: null,
      };
    case 'open_failed':
      if (state.phase !== 'enter_bvn' || !state.busy) return state;
      return { ...state, busy: false, error: messageOf(action, 'API_REQUEST_FAILED') };
    case 'method_chosen':
      if (state.phase !== 'choose_method' || state.busy) return state;
      if (!state.methods.some((method) => method.id === action.method)) {
        return { ...state, error: ERROR_CATALOGUE.BVN_METHOD_UNKNOWN.message };
      }
      return { ...state, chosen: action.method, busy: true, error: null };
    case 'resend_requested':
      if (state.phase !== 'enter_code' || state.busy || state.resending) return state;
      return { ...state, resending: true, error: null, notice: null };
    case 'code_sent':
      if (state.phase === 'choose_method' && state.busy && state.chosen) {
        return {
          phase: 'enter_code',
          ...opened(state),
          method: state.chosen,
          busy: false,
          resending: false,
          error: null,
          notice: action.message?.trim() || null,
        };
      }
      if (state.phase === 'enter_code' && state.resending) {
        return { ...state, resending: false, notice: bvnCodeResentMessage(state.sender) };
      }
      return state;
    case 'send_failed': {
      const message = messageOf(action, 'API_REQUEST_FAILED');
      const over = action.code !== undefined && VERIFICATION_OVER.includes(action.code);
      if (state.phase === 'choose_method' && state.busy) {
        return over ? backToBvn(state.bvn, message) : { ...state, busy: false, error: message };
      }
      if (state.phase === 'enter_code' && state.resending) {
        return over
          ? backToBvn(state.bvn, message)
          : { ...state, resending: false, error: message };
      }
      return state;
    }
    case 'other_method':
      if (state.phase !== 'enter_code' || state.busy || state.resending) return state;
      return {
        phase: 'choose_method',
        ...opened(state),
        chosen: state.method,
        busy: false,
        error: null,
      };
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
      if (action.code && BVN_REFUSED.includes(action.code)) return backToBvn(state.bvn, message);
      // A wrong code with tries left, or one that can no longer succeed (locked, expired): the
      // code field stays with 'Send again' and 'Change BVN', and the message says which to do.
      return { ...state, busy: false, error: message };
    }
    case 'change_bvn':
      if (state.phase === 'enter_bvn' || state.phase === 'verified') return state;
      if (state.busy || (state.phase === 'enter_code' && state.resending)) return state;
      return backToBvn(state.bvn, null);
    default: {
      const unhandled: never = action;
      throw new Error(`Unhandled BVN form action ${JSON.stringify(unhandled)}`);
    }
  }
}
