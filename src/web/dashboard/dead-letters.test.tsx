// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeadLetters } from './dead-letters';

// The Developers screen's dead letters (docs/dashboard.md "Developers"): a section named by its
// heading, listing each delivery its job gave up on, or saying there is none.

function answer(deadLetters: unknown[]) {
  const fetch = vi.fn(
    async () => new Response(JSON.stringify({ success: true, deadLetters }), { status: 200 }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const show = () =>
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <DeadLetters />
    </QueryClientProvider>,
  );

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the dead letters of the Developers screen', () => {
  it('lists each delivery given up: its event, where it went, its tries and its status', async () => {
    const fetch = answer([
      {
        deliveryId: 7,
        eventId: 'evt_dead0001',
        eventType: 'payment.completed',
        url: 'https://shop.example/hooks',
        tries: 11,
        deadSince: '2026-11-23T10:00:00.000Z',
        status: 'pending',
      },
    ]);
    show();
    const section = screen.getByRole('region', { name: 'Dead letters' });
    const [item] = await within(section).findAllByRole('listitem');
    expect(item?.textContent).toContain('payment.completed');
    expect(item?.textContent).toContain('https://shop.example/hooks · 11 tries · given up');
    expect(item?.textContent).toContain('evt_dead0001');
    expect(item?.textContent).toContain('pending');
    expect(fetch).toHaveBeenCalledWith('/api/dashboard/webhooks/dead-letters', expect.anything());
  });

  it('says when there is none', async () => {
    answer([]);
    show();
    expect(await screen.findByText('No dead letters.')).toBeTruthy();
    expect(screen.queryAllByRole('listitem')).toEqual([]);
  });
});
