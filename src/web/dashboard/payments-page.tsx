import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { dashboardPaymentFacts } from '../../domain/dashboard-payment-row';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { formatNaira } from '../../domain/money';
import {
  DASHBOARD_PAYMENT_STATUSES,
  type TDashboardPaymentRow,
} from '../../domain/schemas/dashboard';
import { Button } from '../ui/button';
import { filtersKey, useAddressFilters, useAddressPages } from './address-filters';
import { DashboardList } from './dashboard-list';
import { dashboardQueries, PAYMENT_FILTER_NAMES, type TPaymentFilters } from './queries';
import { Screen } from './screen';

/** How many filters past the search are set: the folded filters' button says so. */
const activeFilters = (filters: TPaymentFilters) =>
  [filters.status, filters.amount, filters.from, filters.to].filter((value) => value.trim()).length;

/**
 * Search by reference, the payer's masked account or card, amount, date and status; the filters
 * live in the page's address (useAddressFilters).
 */
export function PaymentsPage() {
  const [filters, search] = useAddressFilters(PAYMENT_FILTER_NAMES);
  const list = useInfiniteQuery(dashboardQueries.payments(filters));
  const { pages, paging } = useAddressPages(list);
  const payments = pages.flatMap((page) => page.payments);
  return (
    <Screen title={DASHBOARD_TEXTS.paymentsTitle} wide>
      {/* Back or Forward to other filters: the form shows them, afresh. */}
      <PaymentFilters
        key={filtersKey(PAYMENT_FILTER_NAMES, filters)}
        shown={filters}
        onSearch={search}
      />
      <DashboardList
        read={paging}
        rows={payments}
        rowKey={(p) => p.paymentId}
        renderRow={(p) => <PaymentRow payment={p} />}
        emptyText={DASHBOARD_TEXTS.noPayments}
        moreText={DASHBOARD_TEXTS.morePayments}
      />
    </Screen>
  );
}

/** A payment's row: amount, status, narration, reference, how and when it was paid. */
function PaymentRow({ payment: p }: { payment: TDashboardPaymentRow }) {
  const facts = dashboardPaymentFacts(p);
  return (
    <Link href={`/payments/${p.paymentId}`} className="dash-row-link">
      <span className="dash-amount">{formatNaira(p.amount)}</span>
      <span className={`dash-status ${facts.status}`}>{facts.status}</span>
      <span>{p.narration}</span>
      <span className="dash-muted">
        {p.reference ?? p.paymentId} · {facts.paid} · {facts.when}
        {p.refunded > 0 ? ` · refunded ${formatNaira(p.refunded)}` : ''}
      </span>
    </Link>
  );
}

/** The search form: what the payer types, sent to the address on Search. */
function PaymentFilters({
  shown,
  onSearch,
}: {
  shown: TPaymentFilters;
  onSearch(filters: TPaymentFilters): void;
}) {
  const [draft, setDraft] = useState<TPaymentFilters>(shown);
  // On a phone the filters past the search are folded, so the payments come first; open when
  // the address holds some.
  const [folded, setFolded] = useState(activeFilters(shown) === 0);
  const field = (name: keyof TPaymentFilters) => ({
    value: draft[name],
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(draft);
  };
  return (
    <form className="dash-card dash-filters" onSubmit={submit} role="search">
      <label className="dash-field grow">
        {DASHBOARD_TEXTS.searchLabel}
        <input {...field('q')} />
      </label>
      <div className="dash-more-filters" id="payment-filters" data-open={folded ? 'false' : 'true'}>
        <label className="dash-field">
          {DASHBOARD_TEXTS.statusLabel}
          <select {...field('status')}>
            <option value="">{DASHBOARD_TEXTS.anyStatus}</option>
            {DASHBOARD_PAYMENT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </label>
        <label className="dash-field">
          {DASHBOARD_TEXTS.amountLabel}
          <input inputMode="decimal" {...field('amount')} />
        </label>
        <label className="dash-field">
          {DASHBOARD_TEXTS.fromLabel}
          <input type="date" {...field('from')} />
        </label>
        <label className="dash-field">
          {DASHBOARD_TEXTS.toLabel}
          <input type="date" {...field('to')} />
        </label>
      </div>
      <div className="dash-actions">
        <Button
          variant="secondary"
          className="dash-filters-toggle"
          aria-expanded={!folded}
          aria-controls="payment-filters"
          onClick={() => setFolded(!folded)}
        >
          {DASHBOARD_TEXTS.moreFilters(activeFilters(draft))}
        </Button>
        <Button type="submit">{DASHBOARD_TEXTS.search}</Button>
      </div>
    </form>
  );
}
