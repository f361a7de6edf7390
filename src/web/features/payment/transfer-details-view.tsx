import { useEffect, useState } from 'react';
import { formatNaira } from '../../../domain/money';
import type { TTransferDetails } from '../../../domain/schemas/payment';
import { transferBankName, transferCountdown } from '../../../domain/transfer-details';
import { Button } from '../../ui/button';
import { CopyRow, DetailRow } from '../../ui/copy-row';

/** Seconds left on the one-time account, re-read every second. */
function useCountdown(expiresAt: string): string | null {
  const [now, setNow] = useState(() => new Date());
  const text = transferCountdown(expiresAt, now);
  const expired = text === null;
  useEffect(() => {
    if (expired) return;
    const timer = setInterval(() => setNow(new Date()), 1_000);
    return () => clearInterval(timer);
  }, [expired]);
  return text;
}

type TTransferDetailsViewProps = {
  details: TTransferDetails;
  /** The server ended the account (expired, or its attempt over): shown expired, whatever the clock. */
  ended: boolean;
  confirming: boolean;
  renewing: boolean;
  error: string | null;
  onConfirm(): void;
  onRenew(): void;
  onBack(): void;
};

/** Pay with Transfer (spec §2): where to send the money, and 'I have made the transfer'. */
export function TransferDetailsView({
  details,
  ended,
  confirming,
  renewing,
  error,
  onConfirm,
  onRenew,
  onBack,
}: TTransferDetailsViewProps) {
  const ticking = useCountdown(details.expiresAt);
  const countdown = ended ? null : ticking;
  const bank = transferBankName(details.bankName);
  // The amount is copied as the payer's banking app takes it: naira, no symbol or commas.
  const amountForApp = (details.amount / 100).toFixed(2);
  return (
    <div className="transfer-details">
      <h2 className="section-title">Pay with Transfer</h2>
      <dl className="copy-details">
        <CopyRow label="Amount" value={amountForApp} shown={formatNaira(details.amount)} />
        <CopyRow label="Account number" value={details.accountNumber} />
        <CopyRow label="Bank name" value={bank} />
        <DetailRow label="Account name" value={details.accountName} />
        <DetailRow label="Bank" value={bank} />
      </dl>
      {countdown ? (
        <p className="countdown" role="timer" aria-live="off">
          This account expires in <span className="countdown-value">{countdown}</span>
        </p>
      ) : (
        <div className="expired" role="alert">
          <p>This account has expired. Do not transfer to it.</p>
          <Button variant="secondary" onClick={onRenew} disabled={renewing}>
            {renewing ? 'Getting a new account...' : 'Get a new account'}
          </Button>
        </div>
      )}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="actions">
        <Button onClick={onConfirm} disabled={confirming || !countdown} aria-busy={confirming}>
          {confirming ? 'Processing...' : 'I have made the transfer'}
        </Button>
        <Button variant="link" onClick={onBack}>
          back
        </Button>
      </div>
    </div>
  );
}
