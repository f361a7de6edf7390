import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { WEBHOOK_EVENT_TYPES, type TWebhookPayload } from '../../domain/schemas/webhooks';
import { Button } from '../ui/button';
import { formatDateTime } from '../ui/format-date';
import { filtersKey, useAddressFilters, useAddressPages } from './address-filters';
import { DashboardList } from './dashboard-list';
import { dashboardQueries, type TEventFilters } from './queries';
import { Screen } from './screen';

/** The filters of the events' search, as the address holds them. */
const EVENT_FILTER_NAMES: readonly (keyof TEventFilters)[] = ['type', 'from', 'to'];

/**
 * What the merchant's webhooks carried (GET /api/v1/events), by type and Lagos day; the search
 * and the pages asked with "Load more" live in the page's address (useAddressFilters,
 * useAddressPages).
 */
export function EventsPage() {
  const [filters, search] = useAddressFilters(EVENT_FILTER_NAMES);
  const list = useInfiniteQuery(dashboardQueries.events(filters));
  const { pages, paging } = useAddressPages(list);
  const events = pages.flatMap((page) => page.events);
  return (
    <Screen title={DASHBOARD_TEXTS.eventsTitle} wide>
      {/* Back or Forward to other filters: the form shows them, afresh. */}
      <EventFilters
        key={filtersKey(EVENT_FILTER_NAMES, filters)}
        shown={filters}
        onSearch={search}
      />
      <DashboardList
        read={paging}
        rows={events}
        rowKey={(event) => event.id}
        renderRow={(event) => <EventRow event={event} />}
        emptyText={DASHBOARD_TEXTS.noEvents}
        moreText={DASHBOARD_TEXTS.moreEvents}
        holdWhileLoading
      />
    </Screen>
  );
}

/** The search form: the type and the days chosen, sent to the address on Search. */
function EventFilters({
  shown,
  onSearch,
}: {
  shown: TEventFilters;
  onSearch(filters: TEventFilters): void;
}) {
  const [draft, setDraft] = useState<TEventFilters>(shown);
  const field = (name: keyof TEventFilters) => ({
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
        {DASHBOARD_TEXTS.eventTypeLabel}
        <select {...field('type')}>
          <option value="">{DASHBOARD_TEXTS.anyType}</option>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </label>
      <label className="dash-field">
        {DASHBOARD_TEXTS.fromLabel}
        <input type="date" {...field('from')} />
      </label>
      <label className="dash-field">
        {DASHBOARD_TEXTS.toLabel}
        <input type="date" {...field('to')} />
      </label>
      <Button type="submit">{DASHBOARD_TEXTS.search}</Button>
    </form>
  );
}

/** An event: its type, time and id, its data behind a disclosure button. */
function EventRow({ event }: { event: TWebhookPayload }) {
  const [open, setOpen] = useState(false);
  const dataId = useId();
  return (
    <>
      <span>
        <strong>{event.type}</strong>{' '}
        <span className="dash-muted">{formatDateTime(event.createdAt)}</span>
      </span>
      <code className="dash-muted dash-break">{event.id}</code>
      <span className="dash-actions">
        <Button
          variant="secondary"
          aria-expanded={open}
          aria-controls={dataId}
          aria-label={`${DASHBOARD_TEXTS.showData}: ${event.type} ${event.id}`}
          onClick={() => setOpen(!open)}
        >
          {DASHBOARD_TEXTS.showData}
        </Button>
      </span>
      <pre id={dataId} className="dash-pre" hidden={!open}>
        {JSON.stringify(event.data, null, 2)}
      </pre>
    </>
  );
}
