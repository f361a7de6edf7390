import { useId, useState, type FormEvent } from 'react';
import { PIN_LENGTH } from '../../../domain/constants';
import { encryptCardField } from '../../../domain/card-envelope';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import { canSubmitPin, sanitizePinInput } from '../../../domain/pin-input';
import type { TEncryptedField } from '../../../domain/schemas/card';
import { paymentsApi } from '../../api/payments';
import { Button } from '../button';
import { Spinner } from '../spinner';
import './card.css';

type TCardPinStepProps = {
  pin: string;
  onPinTyped(value: string): void;
  /** 'Complete Payment' with a whole PIN (canSubmitPin). */
  onComplete(): void;
  working: boolean;
  error: string | null;
  onBack(): void;
};

/**
 * 'Enter Card PIN' with 'Complete Payment' (spec §2 Card screens, §5): the card's PIN, 4 digits,
 * never shown. Drawn by the card form where the PIN goes with the card (linking), and by the
 * payment screen where the card's issuer asked for it (AskedPinView).
 */
export function CardPinStep({
  pin,
  onPinTyped,
  onComplete,
  working,
  error,
  onBack,
}: TCardPinStepProps) {
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canSubmitPin(pin) && !working) onComplete();
  };
  return (
    <form className="card-form" onSubmit={submit} noValidate>
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
        onChange={(event) => onPinTyped(event.target.value)}
        aria-describedby={error ? `${id}-error` : undefined}
        autoFocus
      />
      {error ? (
        <p id={`${id}-error`} className="form-error" role="alert">
          {error}
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
        <Button variant="link" onClick={onBack}>
          back
        </Button>
      </div>
    </form>
  );
}

/**
 * The PIN a payment's card charge asked for (requiresPIN): typed here and sealed in its own
 * envelope before it leaves the form (the card's details went with the charge); the payment
 * screen sends it beside them. A refusal of its own (the key, the sealing) is said here.
 */
export function AskedPinView({
  working,
  error,
  onSubmit,
  onBack,
}: {
  working: boolean;
  error: string | null;
  onSubmit(encryptedPin: TEncryptedField): Promise<void>;
  onBack(): void;
}) {
  const [pin, setPin] = useState('');
  const [sealing, setSealing] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const complete = async () => {
    setSealing(true);
    setRefusal(null);
    let encryptedPin: TEncryptedField;
    try {
      encryptedPin = await sealPin(pin);
    } catch (why) {
      setRefusal(
        why instanceof Error ? why.message : ERROR_CATALOGUE.CARD_ENCRYPTION_FAILED.message,
      );
      setSealing(false);
      return;
    }
    setSealing(false);
    await onSubmit(encryptedPin);
  };
  return (
    <CardPinStep
      pin={pin}
      onPinTyped={(value) => setPin(sanitizePinInput(value))}
      onComplete={() => void complete()}
      working={working || sealing}
      error={refusal ?? error}
      onBack={onBack}
    />
  );
}

/** The PIN in its envelope, under the page's card key; refused in the catalogue's words. */
async function sealPin(pin: string): Promise<TEncryptedField> {
  let key;
  try {
    key = await paymentsApi.encryptionKey();
  } catch {
    throw new Error(ERROR_CATALOGUE.ENCRYPTION_KEY_FAILED.message);
  }
  try {
    return await encryptCardField(crypto.subtle, key.publicKey, key.keyId, pin);
  } catch {
    throw new Error(ERROR_CATALOGUE.CARD_ENCRYPTION_FAILED.message);
  }
}
