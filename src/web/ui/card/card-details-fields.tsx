import type { Dispatch } from 'react';
import { CARD_BRAND_NAMES, detectCardBrand } from '../../../domain/card-brand';
import {
  shownCardNumber,
  type TCardField,
  type TCardFormAction,
  type TCardFormState,
} from '../../../domain/card-form';
import { cardNumberDigits } from '../../../domain/card-number';
import {
  CARD_EXPIRY_INPUT_LENGTH,
  CARD_NUMBER_INPUT_MAX_LENGTH,
  CVV_MAX_LENGTH,
} from '../../../domain/constants';

type TCardDetailsFieldsProps = {
  /** The form's id, which each field's id and message id start with. */
  id: string;
  state: TCardFormState;
  dispatch: Dispatch<TCardFormAction>;
};

/** The card's details: Card Number (with its brand), Expiry date and CVV, each with its message. */
export function CardDetailsFields({ id, state, dispatch }: TCardDetailsFieldsProps) {
  const { card, messages } = state;
  const brand = detectCardBrand(cardNumberDigits(card.cardNumber));

  /** What every field of the details step shares: its state, its message, focus and leaving. */
  const field = (name: TCardField) => {
    const message = messages[name];
    return {
      id: `${id}-${name}`,
      className: 'text-input',
      inputMode: 'numeric' as const,
      onFocus: () => dispatch({ type: 'focused', field: name }),
      onBlur: () => dispatch({ type: 'left', field: name, now: new Date() }),
      onChange: (event: { target: { value: string } }) =>
        dispatch({ type: 'typed', field: name, value: event.target.value, now: new Date() }),
      'aria-invalid': message ? true : undefined,
      'aria-describedby': message ? `${id}-${name}-error` : undefined,
    };
  };
  const fieldMessage = (name: TCardField) =>
    messages[name] ? (
      <p id={`${id}-${name}-error`} className="form-error field-error" role="alert">
        {messages[name]}
      </p>
    ) : null;

  return (
    <>
      <label htmlFor={`${id}-cardNumber`}>Card Number</label>
      <div className="input-with-brand">
        <input
          {...field('cardNumber')}
          autoComplete="cc-number"
          maxLength={CARD_NUMBER_INPUT_MAX_LENGTH}
          value={shownCardNumber(state)}
        />
        {brand ? <span className="card-brand">{CARD_BRAND_NAMES[brand]}</span> : null}
      </div>
      {fieldMessage('cardNumber')}
      <div className="field-pair">
        <div>
          <label htmlFor={`${id}-expiryDate`}>Expiry date</label>
          <input
            {...field('expiryDate')}
            autoComplete="cc-exp"
            placeholder="MM/YY"
            maxLength={CARD_EXPIRY_INPUT_LENGTH}
            value={card.expiryDate}
          />
          {fieldMessage('expiryDate')}
        </div>
        <div>
          <label htmlFor={`${id}-cvv`}>CVV</label>
          <input
            {...field('cvv')}
            type="password"
            autoComplete="cc-csc"
            maxLength={CVV_MAX_LENGTH}
            value={card.cvv}
          />
          {fieldMessage('cvv')}
        </div>
      </div>
    </>
  );
}
