import type { TCounterparty } from '../../../domain/schemas/consent';
import { MerchantLogo } from '../../ui/merchant-logo';

/** spec §2 Consent header: who asks, on the merchant's secondary colour. */
export function ConsentHeader({
  counterparty,
  linking = false,
}: {
  counterparty: TCounterparty;
  linking?: boolean;
}) {
  return (
    <header className="consent-header">
      <MerchantLogo name={counterparty.name} image={counterparty.image} />
      <div>
        <p className="eyebrow">{linking ? 'Link Account' : 'Consent Request'}</p>
        <p className="merchant-name">{counterparty.name}</p>
      </div>
    </header>
  );
}
