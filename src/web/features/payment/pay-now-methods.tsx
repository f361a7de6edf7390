import type { RefObject } from 'react';
import type { TStoredCard } from '../../../domain/pay-now-state';

type TPaymentMethodsProps = {
  /** The card entered on this page last, offered again as 'Pay with Card | {masked card}'. */
  storedCard: TStoredCard | null;
  /** The stored card is being sent again. */
  resending: boolean;
  /** 'Pay with Card' is waiting for the form's code. */
  openingCard: boolean;
  /** The ways to pay this server and device serve (domain/capabilities.ts payMethodsOn). */
  offers: { transfer: boolean; card: boolean; terminal: boolean };
  /** The spec's Bluetooth reader, or the merchant's terminal the payment is sent to. */
  terminalKind: 'reader' | 'push';
  /** 'Chip Card Terminal', focused again when its modal closes. */
  terminalButton: RefObject<HTMLButtonElement | null>;
  onPayByTransfer(): void;
  onRetryCard(): void;
  onPayWithCard(): void;
  onOpenTerminal(): void;
};

/**
 * The ways to pay (spec §2): transfer, the stored card, a card, and the chip terminal; each only
 * where this server's capability for it is on (docs/going-live.md).
 */
export function PaymentMethods({
  storedCard,
  resending,
  openingCard,
  offers,
  terminalKind,
  terminalButton,
  onPayByTransfer,
  onRetryCard,
  onPayWithCard,
  onOpenTerminal,
}: TPaymentMethodsProps) {
  return (
    <div className="methods" role="group" aria-label="Payment methods">
      {offers.transfer ? (
        <button type="button" className="method" onClick={onPayByTransfer}>
          <span className="method-name">Pay by Transfer</span>
          <span className="secondary-text">Manual bank transfer</span>
        </button>
      ) : null}
      {storedCard && offers.card ? (
        <button
          type="button"
          className="method"
          onClick={onRetryCard}
          disabled={resending}
          aria-busy={resending}
        >
          <span className="method-name">Pay with Card | {storedCard.obfuscatedCard}</span>
          <span className="secondary-text">Credit or debit card</span>
        </button>
      ) : null}
      {offers.card ? (
        <button
          type="button"
          className="method"
          onClick={onPayWithCard}
          disabled={openingCard}
          aria-busy={openingCard || undefined}
        >
          <span className="method-name">Pay with Card</span>
          <span className="secondary-text">Credit or debit card</span>
        </button>
      ) : null}
      {offers.terminal ? (
        <button
          ref={terminalButton}
          type="button"
          className="method"
          aria-haspopup="dialog"
          onClick={onOpenTerminal}
        >
          <span className="method-name">Chip Card Terminal</span>
          <span className="secondary-text">
            {terminalKind === 'push'
              ? 'Pay on the merchant’s card terminal'
              : 'Bluetooth EMV reader'}
          </span>
        </button>
      ) : null}
    </div>
  );
}
