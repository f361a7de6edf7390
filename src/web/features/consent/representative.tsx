import type { TConsent } from '../../../domain/schemas/consent';
import { MerchantLogo } from '../../ui/merchant-logo';
import './representative.css';

/** Who acts for the merchant (spec §1 actOnBehalfOf): image, name, and the role and location. */
export function Representative({ rep }: { rep: NonNullable<TConsent['actOnBehalfOf']> }) {
  return (
    <div className="representative">
      <MerchantLogo name={rep.fullName} image={rep.image} />
      <div>
        <p className="representative-name">{rep.fullName}</p>
        <p className="secondary-text">
          {rep.role.name}
          {rep.location ? ` · ${rep.location}` : ''}
        </p>
      </div>
    </div>
  );
}
