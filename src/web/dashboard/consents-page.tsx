import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { formatNaira } from '../../domain/money';
import { countNoun } from '../../domain/plural';
import { CONSENT_STATUSES } from '../../domain/schemas/consent';
import type { TMerchantConsentsResponse } from '../../domain/schemas/merchant-api';
import { Button } from '../ui/button';
import { formatDateTime } from '../ui/format-date';
import { filtersKey, useAddressFilters, useAddressPages } from './address-filters';
import { DashboardList } from './dashboard-list';
import { CONSENT_FILTER_NAMES, dashboardQueries, type TConsentFilters } from './queries';
import { Screen } from './screen';

/**
 * The merchant's consents, newest first, searched by reference and status; the search lives in
 * the page's address (useAddressFilters).
 */
export function ConsentsPage() {
  const [filters, search] = useAddressFilters(CONSENT_FILTER_NAMES);
  const list = useInfiniteQuery(dashboardQueries.consents(filters));
  const { pages, paging } = useAddressPages(list);
  const consents = pages.flatMap((page) => page.consents);
  return (
    <Screen title={DASHBOARD_TEXTS.consentsTitle} wide>
      <ConsentFilters
        key={filtersKey(CONSENT_FILTER_NAMES, filters)}
        shown={filters}
        onSearch={search}
      />
      <DashboardList
        read={paging}
        rows={consents}
        rowKey={(c) => c.consentId}
        renderRow={(c) => <ConsentRow consent={c} />}
        emptyText={DASHBOARD_TEXTS.noConsents}
        moreText={DASHBOARD_TEXTS.moreConsents}
      />
    </Screen>
  );
}

/** A consent's row: reference, status, future payments and mandates, when it was granted. */
function ConsentRow({ consent: c }: { consent: TMerchantConsentsResponse['consents'][number] }) {
  const future = c.payments.filter((p) => p.type === 'future');
  return (
    <Link href={`/consents/${c.consentId}`} className="dash-row-link">
      <span className="dash-amount">{c.reference ?? c.consentId}</span>
      <span className={`dash-status ${c.status}`}>{c.status}</span>
      <span>
        {future.length > 0
          ? `${future.length} future · ${formatNaira(future.reduce((sum, p) => sum + p.amount, 0))}`
          : 'No future payments'}
        {c.mandates.length > 0 ? ` · ${countNoun(c.mandates.length, 'mandate')}` : ''}
      </span>
      <span className="dash-muted">
        {c.consentId} · {c.grantedAt ? `granted ${formatDateTime(c.grantedAt)}` : 'not granted'}
      </span>
    </Link>
  );
}

/** The search form: what is typed, sent to the address on Search. */
function ConsentFilters({
  shown,
  onSearch,
}: {
  shown: TConsentFilters;
  onSearch(filters: TConsentFilters): void;
}) {
  const [draft, setDraft] = useState<TConsentFilters>(shown);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(draft);
  };
  return (
    <form className="dash-card dash-filters" onSubmit={submit} role="search">
      <label className="dash-field grow">
        {DASHBOARD_TEXTS.referenceLabel}
        <input
          value={draft.reference}
          onChange={(e) => setDraft({ ...draft, reference: e.target.value })}
        />
      </label>
      <label className="dash-field">
        {DASHBOARD_TEXTS.statusLabel}
        <select
          value={draft.status}
          onChange={(e) => setDraft({ ...draft, status: e.target.value })}
        >
          <option value="">{DASHBOARD_TEXTS.anyStatus}</option>
          {CONSENT_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </label>
      <Button type="submit">{DASHBOARD_TEXTS.search}</Button>
    </form>
  );
}
