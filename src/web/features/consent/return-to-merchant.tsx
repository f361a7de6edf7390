import { useEffect, useState } from 'react';
import { RETURN_DELAY_SECONDS, RETURN_TEXTS, returnMerchantName } from '../../../domain/return-url';
import { Button } from '../../ui/button';

type TProps = {
  /** Where to send the payer (returnAddress): the merchant's URL with the consent's answer. */
  address: string;
  merchantName: string | null | undefined;
};

/**
 * Sends a standalone page's payer back to the merchant after the spec's last screen: a countdown
 * they can cut short ('Return to …') or stop ('Stay on this page', so nobody is moved on before
 * they have read the screen: WCAG 2.2.1).
 */
export function ReturnToMerchant({ address, merchantName }: TProps) {
  const merchant = returnMerchantName(merchantName);
  const [left, setLeft] = useState<number | null>(RETURN_DELAY_SECONDS);

  useEffect(() => {
    if (left === null) return;
    if (left === 0) {
      window.location.assign(address);
      return;
    }
    const tick = window.setTimeout(() => setLeft(left - 1), 1_000);
    return () => window.clearTimeout(tick);
  }, [left, address]);

  const said =
    left === null
      ? RETURN_TEXTS.stayed(merchant)
      : left === 0
        ? RETURN_TEXTS.going(merchant)
        : RETURN_TEXTS.counting(merchant, left);
  return (
    <div className="return-to-merchant">
      {/* Spoken when it changes course (stopped, or leaving), not at every second of the count. */}
      <p className="footer-note" aria-live={left !== null && left > 0 ? 'off' : 'polite'}>
        {said}
      </p>
      <div className="actions">
        <a className="button primary" href={address}>
          {RETURN_TEXTS.returnNow(merchant)}
        </a>
        {left !== null && left > 0 ? (
          <Button variant="secondary" onClick={() => setLeft(null)}>
            {RETURN_TEXTS.stay}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
