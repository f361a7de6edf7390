import { useId } from 'react';
import { BVN_LOOKUPS_TEXTS as T, bvnLookupText } from '../../../domain/bvn-lookups';
import type { TBvnLookup } from '../../../domain/schemas/payer-protections';
import { useBvnLookupsQuery } from '../../api/payer-protections';
import { Button } from '../../ui/button';
import { formatDateTime } from '../../ui/format-date';
import { Spinner } from '../../ui/spinner';
import './payer-data-rights.css';

/*
 * 'Who looked at my BVN' on the payer's own page (docs/payer-consents.md "Who looked at your
 * BVN"): every lookup made with their BVN or linked accounts, newest first, each with when, for
 * which consent or link, through which provider, and what a merchant received. Loaded when the
 * page first draws it, apart from the consent page's first screen.
 */

function LookupItem({ lookup }: { lookup: TBvnLookup }) {
  return (
    <li>
      <span className="payer-lookup">
        <span>
          {bvnLookupText({
            kind: lookup.kind,
            provider: lookup.provider,
            merchantName: lookup.merchant?.name ?? null,
            account: lookup.account,
            items: lookup.items,
          })}
        </span>
        <span className="secondary-text">
          <time dateTime={lookup.at}>{formatDateTime(lookup.at)}</time>
          {` · ${lookup.madeFor.label}`}
        </span>
      </span>
    </li>
  );
}

export function PayerBvnLookups() {
  const id = useId();
  const query = useBvnLookupsQuery();
  const lookups = query.data?.pages.flatMap((page) => page.lookups) ?? [];
  return (
    <section className="payer-rights" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{T.heading}</h2>
      <p className="muted">{T.intro}</p>
      {query.isPending ? (
        <p className="loading-line" role="status">
          <Spinner small /> {T.loading}
        </p>
      ) : null}
      {query.isError ? (
        <p className="form-error" role="alert">
          {T.failed} {query.error.message}
        </p>
      ) : null}
      {query.isSuccess && lookups.length === 0 ? <p>{T.none}</p> : null}
      {lookups.length > 0 ? (
        <ul className="list payer-lookups" aria-label={T.heading}>
          {lookups.map((lookup) => (
            <LookupItem key={lookup.lookupId} lookup={lookup} />
          ))}
        </ul>
      ) : null}
      {query.hasNextPage ? (
        <Button
          variant="secondary"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {query.isFetchingNextPage ? 'Loading...' : T.more}
        </Button>
      ) : null}
    </section>
  );
}
