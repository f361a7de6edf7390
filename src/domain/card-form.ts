import {
  cvvRuleBroken,
  expiryRuleBroken,
  cardNumberRuleBroken,
} from './card-encryption-validation';
import { formatExpiryInput } from './card-expiry';
import { formatCardNumberInput, maskCardNumberInput, validateCardNumber } from './card-number';
import { CVV_MAX_LENGTH } from './constants';
import { ERROR_CATALOGUE, type TErrorCode } from './errors';
import { sanitizePinInput } from './pin-input';

/** The CVV field as the payer types: digits only, at most 4 (spec §5). */
export function sanitizeCvvInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, CVV_MAX_LENGTH);
}

/** The fields of the card details step, in the order the payer meets them. */
export const CARD_FIELDS = ['cardNumber', 'expiryDate', 'cvv'] as const;
export type TCardField = (typeof CARD_FIELDS)[number];
export type TCardDetails = Record<TCardField, string>;

const messageOf = (code: TErrorCode | null): string | null =>
  code === null ? null : ERROR_CATALOGUE[code].message;

/**
 * What is wrong with one field of the card, in the spec's words, or null (spec §5). The card
 * number answers the form's rule first ('{Brand} cards should have 16 digits', 'Card number must
 * be between 16 and 19 digits'), then the encryption rule ('Card number must be 16 digits': a
 * 17–19 digit card of no known brand); the expiry and CVV answer the encryption rules, in their
 * order. So every refusal the PIN step would give is said at its field first.
 */
export function cardFieldError(field: TCardField, card: TCardDetails, now: Date): string | null {
  switch (field) {
    case 'cardNumber':
      return (
        validateCardNumber(card.cardNumber) ?? messageOf(cardNumberRuleBroken(card.cardNumber))
      );
    case 'expiryDate':
      return messageOf(expiryRuleBroken(card.expiryDate, now));
    case 'cvv':
      return messageOf(cvvRuleBroken(card.cvv));
  }
}

/** Every field's error (only the fields that have one). */
export function cardFormErrors(card: TCardDetails, now: Date): Partial<Record<TCardField, string>> {
  const errors: Partial<Record<TCardField, string>> = {};
  for (const field of CARD_FIELDS) {
    const error = cardFieldError(field, card, now);
    if (error !== null) errors[field] = error;
  }
  return errors;
}

/** Whether every field of the card is right: 'Continue to PIN' goes on (spec §5). */
export function cardDetailsComplete(card: TCardDetails, now: Date): boolean {
  return Object.keys(cardFormErrors(card, now)).length === 0;
}

/**
 * When the card's PIN is asked (docs/payments.md "The card's steps"): with the card, before it
 * is sent ('with_card': a card linked, whose test charge carries its PIN), or only once the
 * issuer asks for it ('when_asked': a payment's card goes with its details alone, and its PIN
 * step is the payment screen's, so a card checked by 3-D Secure is never asked for one).
 */
export type TPinAsked = 'with_card' | 'when_asked';

/**
 * The card form (spec §2 Card screens, §5): the details, each field's message once the payer has
 * left it (or pressed 'Continue to PIN'), then the PIN where it is asked with the card. Clear
 * values live only here and are dropped with the form.
 */
export type TCardFormState = {
  pinAsked: TPinAsked;
  step: 'details' | 'pin';
  card: TCardDetails;
  pin: string;
  /** The field the payer is in: the card number shows whole there, masked elsewhere (§5). */
  focused: TCardField | null;
  /** The message under each field that has one. */
  messages: Partial<Record<TCardField, string>>;
  /** How many times 'Continue to PIN' was refused: each moves focus to the first bad field. */
  refusals: number;
  /** The charge is being encrypted and sent. */
  working: boolean;
  /** Why the PIN step could not send the card (encryption key, encryption, a late §5 rule). */
  error: string | null;
};

export type TCardFormAction =
  | { type: 'typed'; field: TCardField; value: string; now: Date }
  | { type: 'focused'; field: TCardField }
  | { type: 'left'; field: TCardField; now: Date }
  | { type: 'continued'; now: Date }
  | { type: 'pin_typed'; value: string }
  | { type: 'back_to_details' }
  | { type: 'sending' }
  | { type: 'refused'; error: string }
  | { type: 'settled' };

export const INITIAL_CARD_FORM: TCardFormState = {
  pinAsked: 'with_card',
  step: 'details',
  card: { cardNumber: '', expiryDate: '', cvv: '' },
  pin: '',
  focused: null,
  messages: {},
  refusals: 0,
  working: false,
  error: null,
};

const FORMATTERS: Readonly<Record<TCardField, (raw: string) => string>> = {
  cardNumber: formatCardNumberInput,
  expiryDate: formatExpiryInput,
  cvv: sanitizeCvvInput,
};

const withMessage = (
  messages: TCardFormState['messages'],
  field: TCardField,
  message: string | null,
): TCardFormState['messages'] => {
  const { [field]: _dropped, ...others } = messages;
  return message === null ? others : { ...others, [field]: message };
};

/** A card form whose PIN is asked as `pinAsked` says. */
export const initialCardForm = (pinAsked: TPinAsked): TCardFormState => ({
  ...INITIAL_CARD_FORM,
  pinAsked,
});

/**
 * The card form's edges. A field says what is wrong when the payer leaves it with something in
 * it; once said, the message follows the typing and goes as soon as the field is right (no new
 * message appears mid-typing). 'Continue to PIN' goes on only with every field right (to the PIN
 * step, or, where the PIN is asked later, sending the card); otherwise every field's message
 * shows and focus goes to the first.
 */
export function cardFormReducer(state: TCardFormState, action: TCardFormAction): TCardFormState {
  switch (action.type) {
    case 'typed': {
      const card = { ...state.card, [action.field]: FORMATTERS[action.field](action.value) };
      if (state.messages[action.field] === undefined) return { ...state, card };
      const message = cardFieldError(action.field, card, action.now);
      return { ...state, card, messages: withMessage(state.messages, action.field, message) };
    }
    case 'focused':
      return { ...state, focused: action.field };
    case 'left': {
      const focused = state.focused === action.field ? null : state.focused;
      const said = state.messages[action.field] !== undefined;
      if (state.card[action.field] === '' && !said) return { ...state, focused };
      const message = cardFieldError(action.field, state.card, action.now);
      return { ...state, focused, messages: withMessage(state.messages, action.field, message) };
    }
    case 'continued': {
      const messages = cardFormErrors(state.card, action.now);
      if (Object.keys(messages).length > 0) {
        return { ...state, messages, refusals: state.refusals + 1 };
      }
      if (state.pinAsked === 'when_asked') {
        return { ...state, messages: {}, working: true, error: null };
      }
      return { ...state, step: 'pin', messages: {}, error: null };
    }
    case 'pin_typed':
      return { ...state, pin: sanitizePinInput(action.value) };
    case 'back_to_details':
      return { ...state, step: 'details', pin: '' };
    case 'sending':
      return { ...state, working: true, error: null };
    case 'refused':
      return { ...state, working: false, error: action.error };
    case 'settled':
      return { ...state, working: false };
  }
}

/** The first field with a message, where focus goes after a refused 'Continue to PIN'. */
export function firstFieldWithMessage(state: TCardFormState): TCardField | null {
  return CARD_FIELDS.find((field) => state.messages[field] !== undefined) ?? null;
}

/** The card number as the field shows it: whole while the payer is in it, masked after (§5). */
export function shownCardNumber(state: TCardFormState): string {
  return state.focused === 'cardNumber'
    ? state.card.cardNumber
    : maskCardNumberInput(state.card.cardNumber);
}

/**
 * Whether 'Save this card for future payments' is forced on (spec §5): it is whenever the card
 * is not paying an immediate payment, i.e. for future payments and for linking (no payment).
 */
export function isSaveCardForced(paymentType: 'immediate' | 'future' | null): boolean {
  return paymentType !== 'immediate';
}
