import {
  useEffect,
  useEffectEvent,
  useId,
  useReducer,
  useState,
  type Dispatch,
  type ReactNode,
} from 'react';
import { encryptCard } from '../../../domain/card-envelope';
import {
  validateCardForEncryption,
  type TCardToEncrypt,
} from '../../../domain/card-encryption-validation';
import {
  cardDetailsComplete,
  cardFormReducer,
  firstFieldWithMessage,
  initialCardForm,
  isSaveCardForced,
  type TCardFormAction,
} from '../../../domain/card-form';
import { maskCardForPayer } from '../../../domain/card-number';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import type { TEncryptedCard } from '../../../domain/schemas/card';
import { paymentsApi } from '../../api/payments';
import { Button } from '../button';
import { Spinner } from '../spinner';
import { CardDetailsFields } from './card-details-fields';
import { CardPinStep } from './card-pin-step';
import './card.css';

type TCardFormViewProps = {
  /**
   * Sends the envelopes; resolves when the charge has answered (the screen moves on). `card` is
   * how the card shows to the payer from now on (maskCardForPayer: its last 4 digits), so a
   * screen can name it without its number.
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
 * Seals the card's fields (with its PIN where it goes with the card), each in its own envelope;
 * a refusal of the form's own (the key, the sealing, a late §5 rule) is told to the form, and
 * nothing is given back.
 */
async function sealCard(
  card: TCardToEncrypt,
  dispatch: Dispatch<TCardFormAction>,
): Promise<TEncryptedCard | null> {
  const invalid = validateCardForEncryption(card, new Date());
  if (invalid) {
    dispatch({ type: 'refused', error: invalid });
    return null;
  }
  dispatch({ type: 'sending' });
  let key;
  try {
    key = await paymentsApi.encryptionKey();
  } catch {
    dispatch({ type: 'refused', error: ERROR_CATALOGUE.ENCRYPTION_KEY_FAILED.message });
    return null;
  }
  try {
    return await encryptCard(crypto.subtle, key, card);
  } catch {
    dispatch({ type: 'refused', error: ERROR_CATALOGUE.CARD_ENCRYPTION_FAILED.message });
    return null;
  }
}

type TCardFormActionsProps = {
  /** The card is being sealed and sent. */
  working: boolean;
  onBack(): void;
};

/** 'Continue to PIN' ('Processing...' while the card goes) and 'back'. */
function CardFormActions({ working, onBack }: TCardFormActionsProps) {
  return (
    <div className="actions">
      <Button type="submit" disabled={working} aria-busy={working}>
        {working ? (
          <>
            <Spinner small /> Processing...
          </>
        ) : (
          'Continue to PIN'
        )}
      </Button>
      <Button variant="link" onClick={onBack}>
        back
      </Button>
    </div>
  );
}

/**
 * Pay with Card (spec §2 Card screens, §5): the card's details, then its PIN, drawn from the
 * domain's card form (cardFormReducer): each field says what is wrong when the payer leaves it,
 * and 'Continue to PIN' goes on only with every field right. A card linked asks its PIN here,
 * with the card; a payment's card goes with its details alone, and the payment screen asks for
 * the PIN when the card's issuer does (AskedPinView). Every field is encrypted here, each
 * in its own envelope, before anything is sent; clear values live only in this form's state and
 * are dropped with it.
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
  const [state, dispatch] = useReducer(
    cardFormReducer,
    purpose === 'payment' ? 'when_asked' : 'with_card',
    initialCardForm,
  );
  // spec §5: a card linked, not paid with, is always saved.
  const forced = isSaveCardForced(purpose === 'payment' ? 'immediate' : null);
  const [saveCard, setSaveCard] = useState(forced);
  const { card, pin, working, refusals } = state;

  // A refused 'Continue to PIN' takes the payer to the first field that says why (its message is
  // its description, read with it); only a new refusal moves focus.
  const focusFirstWithMessage = useEffectEvent(() => {
    const first = firstFieldWithMessage(state);
    if (first) document.getElementById(`${id}-${first}`)?.focus();
  });
  useEffect(() => {
    if (refusals > 0) focusFirstWithMessage();
  }, [refusals]);

  /** Seals the card's fields (with its PIN where it goes with the card) and hands them on. */
  const send = async (withPin: string | undefined) => {
    const envelopes = await sealCard(
      withPin === undefined ? card : { ...card, pin: withPin },
      dispatch,
    );
    if (!envelopes) return;
    try {
      await onSubmit(envelopes, saveCard, { obfuscatedCard: maskCardForPayer(card.cardNumber) });
    } finally {
      dispatch({ type: 'settled' });
    }
  };

  const shownError = state.error ?? error;

  if (state.step === 'pin') {
    return (
      <CardPinStep
        pin={pin}
        onPinTyped={(value) => dispatch({ type: 'pin_typed', value })}
        onComplete={() => void send(pin)}
        working={working}
        error={shownError}
        onBack={() => dispatch({ type: 'back_to_details' })}
      />
    );
  }

  return (
    <form
      className="card-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (working) return;
        const now = new Date();
        dispatch({ type: 'continued', now });
        // A payment's card goes with its details alone: its issuer asks for the PIN if it wants one.
        if (state.pinAsked === 'when_asked' && cardDetailsComplete(card, now)) void send(undefined);
      }}
    >
      <h2 className="section-title">{title}</h2>
      {intro}
      <CardDetailsFields id={id} state={state} dispatch={dispatch} />
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
      <CardFormActions working={working} onBack={onBack} />
    </form>
  );
}
