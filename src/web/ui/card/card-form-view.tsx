import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { CARD_BRAND_NAMES, detectCardBrand } from '../../../domain/card-brand';
import { encryptCard } from '../../../domain/card-envelope';
import { validateCardForEncryption } from '../../../domain/card-encryption-validation';
import { formatExpiryInput } from '../../../domain/card-expiry';
import { canContinueCardForm, isSaveCardForced, sanitizeCvvInput } from '../../../domain/card-form';
import {
  cardNumberDigits,
  formatCardNumberInput,
  maskCardNumberInput,
  obfuscateCardNumber,
  validateCardNumber,
} from '../../../domain/card-number';
import {
  CARD_EXPIRY_INPUT_LENGTH,
  CARD_NUMBER_INPUT_MAX_LENGTH,
  CVV_MAX_LENGTH,
  PIN_LENGTH,
} from '../../../domain/constants';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import { canSubmitPin, sanitizePinInput } from '../../../domain/pin-input';
import type { TEncryptedCard } from '../../../domain/schemas/card';
import { paymentsApi } from '../../api/payments';
import { Button } from '../button';
import { Spinner } from '../spinner';
import './card.css';

type TCardFormViewProps = {
  /**
   * Sends the envelopes; resolves when the charge has answered (the screen moves on). `card` is
   * how the card shows from now on (obfuscateCard), so a screen can name it without its number.
   */
  onSubmit(
    cardDetails: TEncryptedCard,
    saveCard: boolean,
    card: { obfuscatedCard: string },
  ): Promise<void>;
  /** The charge's refusal, in the catalogue's words, shown under the form. */
  error: string | null;
  onBack(): void;
  /** What the card is for: an immediate payment, or linking (saving it is then forced, §5). */
  purpose?: 'payment' | 'linking';
  /** The form's heading. */
  title?: string;
  /** Said under the heading, before the fields. */
  intro?: ReactNode;
};

/**
 * Pay with Card (spec §2 Card screens, §5): the card's details, then its PIN. Every field is
 * encrypted here, each in its own envelope, before anything is sent; clear values live only in
 * this form's state and are dropped with it.
 */
export function CardFormView({
  onSubmit,
  error,
  onBack,
  purpose = 'payment',
  title = 'Pay with Card',
  intro = null,
}: TCardFormViewProps) {
  const id = useId();
  const [cardNumber, setCardNumber] = useState('');
  const [numberFocused, setNumberFocused] = useState(false);
  const [numberTouched, setNumberTouched] = useState(false);
  const [expiryDate, setExpiryDate] = useState('');
  const [cvv, setCvv] = useState('');
  const [pin, setPin] = useState('');
  // spec §5: a card linked, not paid with, is always saved.
  const forced = isSaveCardForced(purpose === 'payment' ? 'immediate' : null);
  const [saveCard, setSaveCard] = useState(forced);
  const [step, setStep] = useState<'details' | 'pin'>('details');
  const [working, setWorking] = useState(false);
  const [localError, setLocalError] = useState<string | null>(null);

  const digits = cardNumberDigits(cardNumber);
  const brand = detectCardBrand(digits);
  const numberError = numberTouched && digits.length > 0 ? validateCardNumber(cardNumber) : null;
  const card = { cardNumber, expiryDate, cvv };

  const complete = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmitPin(pin) || working) return;
    const invalid = validateCardForEncryption({ ...card, pin }, new Date());
    if (invalid) {
      setLocalError(invalid);
      return;
    }
    setLocalError(null);
    setWorking(true);
    try {
      let key;
      try {
        key = await paymentsApi.encryptionKey();
      } catch {
        setLocalError(ERROR_CATALOGUE.ENCRYPTION_KEY_FAILED.message);
        return;
      }
      let envelopes: TEncryptedCard;
      try {
        envelopes = await encryptCard(crypto.subtle, key, { ...card, pin });
      } catch {
        setLocalError(ERROR_CATALOGUE.CARD_ENCRYPTION_FAILED.message);
        return;
      }
      await onSubmit(envelopes, saveCard, { obfuscatedCard: obfuscateCardNumber(cardNumber) });
    } finally {
      setWorking(false);
    }
  };

  const shownError = localError ?? error;

  if (step === 'pin') {
    return (
      <form className="card-form" onSubmit={(event) => void complete(event)} noValidate>
        <h2 className="section-title">Enter Card PIN</h2>
        <label htmlFor={`${id}-pin`}>Card PIN</label>
        <input
          id={`${id}-pin`}
          className="text-input pin-input"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={PIN_LENGTH}
          value={pin}
          onChange={(event) => setPin(sanitizePinInput(event.target.value))}
          aria-describedby={shownError ? `${id}-error` : undefined}
          autoFocus
        />
        {shownError ? (
          <p id={`${id}-error`} className="form-error" role="alert">
            {shownError}
          </p>
        ) : null}
        <div className="actions">
          <Button type="submit" disabled={!canSubmitPin(pin) || working} aria-busy={working}>
            {working ? (
              <>
                <Spinner small /> Processing...
              </>
            ) : (
              'Complete Payment'
            )}
          </Button>
          <Button
            variant="link"
            onClick={() => {
              setPin('');
              setStep('details');
            }}
          >
            back
          </Button>
        </div>
      </form>
    );
  }

  return (
    <form
      className="card-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (canContinueCardForm(card)) setStep('pin');
      }}
    >
      <h2 className="section-title">{title}</h2>
      {intro}
      <label htmlFor={`${id}-number`}>Card Number</label>
      <div className="input-with-brand">
        <input
          id={`${id}-number`}
          className="text-input"
          inputMode="numeric"
          autoComplete="cc-number"
          maxLength={CARD_NUMBER_INPUT_MAX_LENGTH}
          value={numberFocused ? cardNumber : maskCardNumberInput(cardNumber)}
          onFocus={() => setNumberFocused(true)}
          onBlur={() => {
            setNumberFocused(false);
            setNumberTouched(true);
          }}
          onChange={(event) => setCardNumber(formatCardNumberInput(event.target.value))}
          aria-invalid={numberError ? true : undefined}
          aria-describedby={numberError ? `${id}-number-error` : undefined}
        />
        {brand ? <span className="card-brand">{CARD_BRAND_NAMES[brand]}</span> : null}
      </div>
      {numberError ? (
        <p id={`${id}-number-error`} className="form-error">
          {numberError}
        </p>
      ) : null}
      <div className="field-pair">
        <div>
          <label htmlFor={`${id}-expiry`}>Expiry date</label>
          <input
            id={`${id}-expiry`}
            className="text-input"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            maxLength={CARD_EXPIRY_INPUT_LENGTH}
            value={expiryDate}
            onChange={(event) => setExpiryDate(formatExpiryInput(event.target.value))}
          />
        </div>
        <div>
          <label htmlFor={`${id}-cvv`}>CVV</label>
          <input
            id={`${id}-cvv`}
            className="text-input"
            type="password"
            inputMode="numeric"
            autoComplete="cc-csc"
            maxLength={CVV_MAX_LENGTH}
            value={cvv}
            onChange={(event) => setCvv(sanitizeCvvInput(event.target.value))}
          />
        </div>
      </div>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={saveCard}
          disabled={forced}
          onChange={(event) => setSaveCard(event.target.checked)}
        />
        Save this card for future payments
      </label>
      {shownError ? (
        <p className="form-error" role="alert">
          {shownError}
        </p>
      ) : null}
      <div className="actions">
        <Button type="submit" disabled={!canContinueCardForm(card)}>
          Continue to PIN
        </Button>
        <Button variant="link" onClick={onBack}>
          back
        </Button>
      </div>
    </form>
  );
}
