import { PAYER_RIGHTS_TEXTS as T } from '../../../domain/payer-rights';
import type { TPayerRightsRequest } from '../../../domain/schemas/payer-rights';

/** What an erasure keeps, and why, hold by hold. */
export function KeptList({ kept }: { kept: NonNullable<TPayerRightsRequest['kept']> }) {
  return (
    <ul className="payer-rights-kept" aria-label={T.keptHeading}>
      {kept.map((held) => (
        <li key={held.hold}>
          {held.what}. {held.why}
        </li>
      ))}
    </ul>
  );
}
