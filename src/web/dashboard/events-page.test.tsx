// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { EventsPage } from './events-page';
import { screenAt, threePages } from './screen-at-address';

// The Events screen keeps its search (type, from, to) and its "Load more" pages in the address,
// as the other lists do: a reload keeps them, Back returns to the search before.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** An event the schema takes, its id the name `threePages` gives it. */
const event = (id: string) => ({
  id,
  type: 'refund.processed',
  createdAt: '2026-01-01T00:00:00Z',
  data: {},
});

/** The screen at `search`: three pages of one event each, the asks recorded. */
const eventsAt = (search: string) =>
  screenAt('/events', search, <EventsPage />, threePages('events', event));

const typeField = () => screen.getByLabelText(DASHBOARD_TEXTS.eventTypeLabel);

describe('the events screen’s address', () => {
  it('takes a search by type, which a reload draws in the form and asks again', async () => {
    const { asked, location } = eventsAt('');
    await waitFor(() => expect(asked).toEqual(['/api/dashboard/events?']));
    fireEvent.change(typeField(), { target: { value: 'refund.processed' } });
    fireEvent.click(screen.getByRole('button', { name: DASHBOARD_TEXTS.search }));
    await waitFor(() => expect(location.history.at(-1)).toBe('/events?type=refund.processed'));
    await waitFor(() => expect(asked.at(-1)).toBe('/api/dashboard/events?type=refund.processed'));

    // Another address, as Back gives: the form draws its search afresh.
    location.navigate('/events');
    await waitFor(() => expect(typeField()).toHaveProperty('value', ''));

    cleanup();
    const again = eventsAt('type=refund.processed&from=2026-01-01');
    expect(typeField()).toHaveProperty('value', 'refund.processed');
    expect(screen.getByLabelText(DASHBOARD_TEXTS.fromLabel)).toHaveProperty('value', '2026-01-01');
    await waitFor(() => expect(again.asked).toHaveLength(1));
    expect(again.asked).toEqual(['/api/dashboard/events?type=refund.processed&from=2026-01-01']);
  });

  it('keeps each Load more’s cursor, and a reload reads the same pages', async () => {
    const more = () => screen.getByRole('button', { name: DASHBOARD_TEXTS.moreEvents });
    const { asked, location } = eventsAt('type=refund.processed');
    await screen.findByText('P1');
    fireEvent.click(more());
    await screen.findByText('P2');
    expect(location.history).toEqual([
      '/events?type=refund.processed',
      '/events?type=refund.processed&cursor=c1',
    ]);
    expect(asked).toEqual([
      '/api/dashboard/events?type=refund.processed',
      '/api/dashboard/events?type=refund.processed&cursor=c1',
    ]);

    cleanup();
    const again = eventsAt('type=refund.processed&cursor=c1');
    await screen.findByText('P2');
    expect(screen.getByText('P1')).toBeTruthy();
    expect(screen.queryByText('P3')).toBeNull();
    await waitFor(() => expect(again.asked).toHaveLength(2));
    expect(again.asked).toEqual([
      '/api/dashboard/events?type=refund.processed',
      '/api/dashboard/events?type=refund.processed&cursor=c1',
    ]);
  });
});
