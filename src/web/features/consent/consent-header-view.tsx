import type { ReactNode } from 'react';
import { consentHeaderTitle } from '../../../domain/consent-header';
import type { TCounterparty } from '../../../domain/schemas/consent';
import { MerchantLogo } from '../../ui/merchant-logo';
import './consent-header.css';

/** spec §2 Consent header: who asks, on the merchant's secondary colour. */
export function ConsentHeader({
  counterparty,
  linking = false,
  children,
}: {
  counterparty: TCounterparty;
  linking?: boolean;
  /** At its end: the signed-in payer's 'Your consents'. */
  children?: ReactNode;
}) {
  return (
    <header className="consent-header">
      <MerchantLogo name={counterparty.name} image={counterparty.image} />
      <div>
        <p className="eyebrow">{consentHeaderTitle(linking)}</p>
        <p className="merchant-name">{counterparty.name}</p>
      </div>
      {children}
    </header>
  );
}

/**
 * Embedded, where the header is hidden (spec §2): one line naming who asks, so the payer sees
 * it whatever the merchant's page around the frame says. It opens the screen's
 * main landmark rather than being a banner of its own: the merchant's page has the banner.
 */
export function MerchantByline({
  counterparty,
  linking = false,
  children,
}: {
  counterparty: TCounterparty;
  linking?: boolean;
  /** At its end: the signed-in payer's 'Your consents'. */
  children?: ReactNode;
}) {
  return (
    <div className="merchant-byline">
      <MerchantLogo name={counterparty.name} image={counterparty.image} />
      <p>
        <span className="merchant-name">{counterparty.name}</span>
        <span className="secondary-text">{consentHeaderTitle(linking)}</span>
      </p>
      {children}
    </div>
  );
}
