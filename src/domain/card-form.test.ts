import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateCardForEncryption } from './card-encryption-validation';
import {
  cardFieldError,
  cardFormErrors,
  cardDetailsComplete,
  cardFormReducer,
  initialCardForm,
  firstFieldWithMessage,
  INITIAL_CARD_FORM,
  isSaveCardForced,
  sanitizeCvvInput,
  shownCardNumber,
  type TCardField,
  type TCardFormState,
} from './card-form';

describe('sanitizeCvvInput', () => {
  it.each([
    ['12a3', '123'],
    ['12345', '1234'],
    ['', ''],
  ])('keeps at most 4 digits: %j → %j', (raw, cvv) => {
    expect(sanitizeCvvInput(raw)).toBe(cvv);
  });

  it('is idempotent and never exceeds 4 characters', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const once = sanitizeCvvInput(raw);
        expect(sanitizeCvvInput(once)).toBe(once);
        expect(once.length).toBeLessThanOrEqual(4);
      }),
    );
  });
});

const NOW = new Date('2025-06-15T12:00:00Z');
const good = { cardNumber: '4111 1111 1111 1111', expiryDate: '12/27', cvv: '123' };

describe('cardFieldError: every §5 message at its field', () => {
  it.each([
    ['cardNumber', 'a Visa of 16 digits', good.cardNumber, null],
    ['cardNumber', 'a Visa of 15 digits', '4111 1111 1111 111', 'Visa cards should have 16 digits'],
    [
      'cardNumber',
      'a Mastercard of 19 digits',
      '5399 8300 0000 8381 123',
      'Mastercard cards should have 16 digits',
    ],
    [
      'cardNumber',
      'a Verve of 19 digits',
      '5061 4604 1012 0223 210',
      'Verve cards should have 16 digits',
    ],
    [
      'cardNumber',
      'an unknown brand of 12 digits',
      '9111 1111 1111',
      'Card number must be between 16 and 19 digits',
    ],
    [
      'cardNumber',
      'an unknown brand of 19 digits',
      '9111 1111 1111 1111 111',
      'Card number must be 16 digits',
    ],
    ['cardNumber', 'an unknown brand of 16 digits', '9111 1111 1111 1111', null],
    ['cardNumber', 'nothing', '', 'Card number must be between 16 and 19 digits'],
    ['cardNumber', 'a letter', '4111 1111 1111 111a', 'Card number must contain only digits'],
    ['expiryDate', 'a good expiry', '12/27', null],
    ['expiryDate', 'month 13', '13/27', 'Please select a valid month'],
    ['expiryDate', 'month 00', '00/27', 'Please select a valid month'],
    ['expiryDate', 'nothing', '', 'Please select a valid month'],
    ['expiryDate', 'a past year', '12/24', 'Please select a valid year'],
    ['expiryDate', 'a half-typed year', '12/2', 'Please select a valid year'],
    ['expiryDate', 'last month', '05/25', 'Card has expired'],
    ['expiryDate', 'this month', '06/25', null],
    ['cvv', 'a 3-digit CVV', '123', null],
    ['cvv', 'a 4-digit CVV', '1234', null],
    ['cvv', 'a 2-digit CVV', '12', 'CVV must be 3 or 4 digits'],
    ['cvv', 'nothing', '', 'CVV must be 3 or 4 digits'],
    ['cvv', 'a letter', '12a', 'CVV must contain only digits'],
  ] as const)('%s with %s → %j', (field, _, value, message) => {
    expect(cardFieldError(field, { ...good, [field]: value }, NOW)).toBe(message);
  });

  it('agrees with the encryption check: a card with no field error may be encrypted', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{12,19}$/),
        fc.stringMatching(/^\d{2}\/\d{2}$/),
        fc.stringMatching(/^\d{2,5}$/),
        (cardNumber, expiryDate, cvv) => {
          const card = { cardNumber, expiryDate, cvv };
          if (Object.keys(cardFormErrors(card, NOW)).length === 0) {
            expect(validateCardForEncryption(card, NOW)).toBeNull();
          }
        },
      ),
    );
  });
});

describe('cardFormReducer', () => {
  const typed = (state: TCardFormState, field: TCardField, value: string) =>
    cardFormReducer(state, { type: 'typed', field, value, now: NOW });
  const left = (state: TCardFormState, field: TCardField) =>
    cardFormReducer(state, { type: 'left', field, now: NOW });
  const filled = (card: Partial<typeof good>) =>
    Object.entries({ ...good, ...card }).reduce(
      (state, [field, value]) => typed(state, field as TCardField, value),
      INITIAL_CARD_FORM,
    );

  it('formats each field as the payer types, and says nothing while they type', () => {
    let state = typed(INITIAL_CARD_FORM, 'cardNumber', '41111111a11111111');
    state = typed(state, 'expiryDate', '1327');
    state = typed(state, 'cvv', '12345');
    expect(state.card).toEqual({
      cardNumber: '4111 1111 1111 1111',
      expiryDate: '13/27',
      cvv: '1234',
    });
    expect(state.messages).toEqual({});
  });

  it('says what is wrong when the payer leaves a field with something in it', () => {
    const state = left(filled({ expiryDate: '13/27' }), 'expiryDate');
    expect(state.messages).toEqual({ expiryDate: 'Please select a valid month' });
  });

  it('says nothing on leaving an empty field untouched', () => {
    const state = left(
      cardFormReducer(INITIAL_CARD_FORM, { type: 'focused', field: 'cvv' }),
      'cvv',
    );
    expect(state.messages).toEqual({});
    expect(state.focused).toBeNull();
  });

  it('says an expired card on leaving its expiry, before the PIN', () => {
    expect(left(filled({ expiryDate: '05/25' }), 'expiryDate').messages).toEqual({
      expiryDate: 'Card has expired',
    });
  });

  it('a said message follows the typing and goes once the field is right', () => {
    let state = left(filled({ cvv: '12' }), 'cvv');
    expect(state.messages.cvv).toBe('CVV must be 3 or 4 digits');
    state = typed(state, 'cvv', '');
    expect(state.messages.cvv).toBe('CVV must be 3 or 4 digits');
    state = typed(state, 'cvv', '123');
    expect(state.messages).toEqual({});
    state = typed(state, 'cvv', '12');
    expect(state.messages).toEqual({});
  });

  it('a field emptied after its message keeps saying it on leaving', () => {
    let state = left(filled({ cardNumber: '4111' }), 'cardNumber');
    state = left(typed(state, 'cardNumber', ''), 'cardNumber');
    expect(state.messages.cardNumber).toBe('Card number must be between 16 and 19 digits');
  });

  it("'Continue to PIN' with a bad field stays, says every field's message and counts a refusal", () => {
    const state = cardFormReducer(filled({ cardNumber: '', cvv: '12' }), {
      type: 'continued',
      now: NOW,
    });
    expect(state.step).toBe('details');
    expect(state.messages).toEqual({
      cardNumber: 'Card number must be between 16 and 19 digits',
      cvv: 'CVV must be 3 or 4 digits',
    });
    expect(state.refusals).toBe(1);
    expect(firstFieldWithMessage(state)).toBe('cardNumber');
    const again = cardFormReducer(state, { type: 'continued', now: NOW });
    expect(again.refusals).toBe(2);
  });

  it("'Continue to PIN' with every field right goes to the PIN", () => {
    const state = cardFormReducer(filled({}), { type: 'continued', now: NOW });
    expect(state.step).toBe('pin');
    expect(state.refusals).toBe(0);
    expect(firstFieldWithMessage(state)).toBeNull();
  });

  it("a payment's card, whose PIN is asked only when its issuer wants it, is sent with its details", () => {
    const form = { ...initialCardForm('when_asked'), card: good };
    const state = cardFormReducer(form, { type: 'continued', now: NOW });
    expect(state).toMatchObject({ step: 'details', working: true, messages: {}, error: null });
    expect(cardDetailsComplete(good, NOW)).toBe(true);
    const refused = cardFormReducer(
      { ...form, card: { ...good, cvv: '1' } },
      { type: 'continued', now: NOW },
    );
    expect(refused).toMatchObject({ step: 'details', working: false, refusals: 1 });
    expect(cardDetailsComplete(refused.card, NOW)).toBe(false);
  });

  it('the PIN takes 4 digits; back to the details forgets it', () => {
    let state = cardFormReducer(filled({}), { type: 'continued', now: NOW });
    state = cardFormReducer(state, { type: 'pin_typed', value: '12a345' });
    expect(state.pin).toBe('1234');
    state = cardFormReducer(state, { type: 'back_to_details' });
    expect(state).toMatchObject({ step: 'details', pin: '', card: good });
  });

  it('sending, refused and settled: working while sending, the refusal said', () => {
    let state = cardFormReducer(INITIAL_CARD_FORM, { type: 'refused', error: 'earlier' });
    state = cardFormReducer(state, { type: 'sending' });
    expect(state).toMatchObject({ working: true, error: null });
    state = cardFormReducer(state, { type: 'refused', error: 'Failed to get encryption key' });
    expect(state).toMatchObject({ working: false, error: 'Failed to get encryption key' });
    state = cardFormReducer(cardFormReducer(state, { type: 'sending' }), { type: 'settled' });
    expect(state.working).toBe(false);
  });

  it('shows the card number whole while the payer is in it, masked after (spec §5)', () => {
    const state = filled({});
    expect(shownCardNumber(state)).toBe('**** **** **** 1111');
    const inside = cardFormReducer(state, { type: 'focused', field: 'cardNumber' });
    expect(shownCardNumber(inside)).toBe('4111 1111 1111 1111');
    expect(shownCardNumber(left(inside, 'cardNumber'))).toBe('**** **** **** 1111');
  });
});

describe('isSaveCardForced', () => {
  it.each([
    ['immediate', false],
    ['future', true],
    [null, true],
  ] as const)('for a %s payment → %s', (type, forced) => {
    expect(isSaveCardForced(type)).toBe(forced);
  });
});
