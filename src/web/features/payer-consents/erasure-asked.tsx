import { useEffect, useId, useRef } from 'react';
import { erasureAskedLine, PAYER_RIGHTS_TEXTS as T } from '../../../domain/payer-rights';
import { formatPaymentDate } from '../../../domain/payment-date';
import type { TPayerRightsRequest } from '../../../domain/schemas/payer-rights';
import { KeptList } from './kept-list';

const day = (iso: string) => formatPaymentDate(iso) ?? iso;

/**
 * The erasure's answer as the server gave it on asking (docs/payer-rights.md "Erase my data"):
 * when it was received, by when it is done, and what is kept, and why. It stays on the page when
 * the erasure signs the payer out, since no later call of theirs can read it.
 */
export function ErasureAsked({ request }: { request: TPayerRightsRequest }) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="payer-rights-erasure" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {T.erasureAskedHeading}
      </h2>
      <p>{erasureAskedLine(request, day)}</p>
      {request.kept ? (
        <>
          <h3>{T.keptHeading}</h3>
          <KeptList kept={request.kept} />
        </>
      ) : null}
    </section>
  );
}
