/**
 * The cards the simulator knows, keyed by number, and the steps each one asks for.
 *
 * The numbers are Paystack's published test cards (paystack.com/docs/payments/test-payments),
 * with the PINs and OTPs the same page gives. Where that page was not at hand, the card's
 * behaviour is the one its published copies agree on, and the README says which ones.
 * Every other number is declined, as a real card is in test mode.
 */

/** A step the payer is asked for before the charge is decided (the `send_*` and `open_url` answers). */
export type TCardStep = 'pin' | 'otp' | 'phone' | 'birthday' | 'three_ds';

export type TTestCard = {
  /** What the card is for, in the README's words. */
  label: string;
  brand: 'visa' | 'mastercard' | 'verve';
  /** Paystack's `card_type`: the brand and the kind of card. */
  cardType: string;
  /** The steps, in order, before the outcome. */
  steps: TCardStep[];
  /** The PIN it accepts, when one of its steps is `pin`. */
  pin?: string;
  /** The outcome once every step is passed. */
  outcome:
    | { status: 'success' }
    | { status: 'failed'; gatewayResponse: string }
    // Answered `pending` at once, and decided as failed by the first check by reference.
    | { status: 'pending'; thenFailed: string };
};

/** The OTP every test card accepts (Paystack's test page gives 123456 for each). */
export const TEST_OTP = '123456';
/** The phone number and birthday the simulator accepts where a card asks for them. */
export const TEST_PHONE = '08012345678';
export const TEST_BIRTHDAY = '1990-01-01';

export const TEST_CARDS: Record<string, TTestCard> = {
  '4084084084084081': {
    label: 'Success, no validation',
    brand: 'visa',
    cardType: 'visa DEBIT',
    steps: [],
    outcome: { status: 'success' },
  },
  '507850785078507812': {
    label: 'Verve, PIN then OTP (PIN 1111, OTP 123456)',
    brand: 'verve',
    cardType: 'verve DEBIT',
    steps: ['pin', 'otp'],
    pin: '1111',
    outcome: { status: 'success' },
  },
  '5060666666666666666': {
    label: 'Verve, PIN then OTP (PIN 1234, OTP 123456)',
    brand: 'verve',
    cardType: 'verve DEBIT',
    steps: ['pin', 'otp'],
    pin: '1234',
    outcome: { status: 'success' },
  },
  // Not a Paystack test card: Paystack's cards that ask for a PIN and then an OTP are Verve
  // cards of 18 and 19 digits, which the consent page's card form refuses (spec §2: 'Card number
  // must be 16 digits'). This one takes their steps in 16 digits, so the page can be tested
  // through them.
  '5078501111111111': {
    label: 'Simulator only: PIN then OTP in 16 digits (PIN 1111, OTP 123456)',
    brand: 'verve',
    cardType: 'verve DEBIT',
    steps: ['pin', 'otp'],
    pin: '1111',
    outcome: { status: 'success' },
  },
  '507850785078507804': {
    label: 'Verve, PIN then phone then OTP (PIN 0000, phone 08012345678, OTP 123456)',
    brand: 'verve',
    cardType: 'verve DEBIT',
    steps: ['pin', 'phone', 'otp'],
    pin: '0000',
    outcome: { status: 'success' },
  },
  '4084080000000409': {
    label: '3-D Secure: open_url, then the payer approves or declines',
    brand: 'visa',
    cardType: 'visa DEBIT',
    steps: ['three_ds'],
    outcome: { status: 'success' },
  },
  // Not a Paystack test card: Paystack's page has no card that asks for a birthday, and the
  // Charge API documents the `send_birthday` step, so the simulator adds one.
  '5399830000000008': {
    label: 'Simulator only: asks for a birthday (1990-01-01), then succeeds',
    brand: 'mastercard',
    cardType: 'mastercard DEBIT',
    steps: ['birthday'],
    outcome: { status: 'success' },
  },
  '4084080000005408': {
    label: 'Declined',
    brand: 'visa',
    cardType: 'visa DEBIT',
    steps: [],
    outcome: { status: 'failed', gatewayResponse: 'Declined' },
  },
  '4084080000670037': {
    label: 'Insufficient funds',
    brand: 'visa',
    cardType: 'visa DEBIT',
    steps: [],
    outcome: { status: 'failed', gatewayResponse: 'Insufficient Funds' },
  },
  '5060660000000064': {
    label: 'Timeout: answered pending, then failed on the first check',
    brand: 'verve',
    cardType: 'verve DEBIT',
    steps: [],
    outcome: { status: 'pending', thenFailed: 'Timeout' },
  },
};

/** A declined answer for any number the table does not hold. */
export const UNKNOWN_CARD: TTestCard = {
  label: 'Any other number',
  brand: 'visa',
  cardType: 'visa DEBIT',
  steps: [],
  outcome: { status: 'failed', gatewayResponse: 'Declined' },
};

/** Whether the number passes the Luhn check every card scheme uses. */
export const passesLuhn = (digits: string) => {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
};
