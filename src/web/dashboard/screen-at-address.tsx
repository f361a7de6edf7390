import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';

// For the tests of the list screens whose search and "Load more" pages live in the address
// (useAddressFilters, useAddressPages): the screen drawn at an address, with every move of the
// address and every ask of the server recorded. Rendering again at an address is a reload.

/**
 * A server's answers for a list of three pages of one row each, the rows named `P1` to `P3` and
 * the pages chained by the cursors `c1` and `c2`; `list` names the answer's array.
 */
export const threePages =
  (list: string, rowOf: (id: string) => unknown) =>
  (url: URL): unknown => {
    const cursor = url.searchParams.get('cursor');
    const page = !cursor ? 1 : cursor === 'c1' ? 2 : 3;
    return { success: true, [list]: [rowOf(`P${page}`)], nextCursor: page < 3 ? `c${page}` : null };
  };

/**
 * `screen` at `path?search`, the server answering each ask with `answer`'s body (200, JSON): the
 * asks, in order, and the location, whose `history` holds each address the screen went to.
 */
export function screenAt(
  path: string,
  search: string,
  screen: ReactNode,
  answer: (url: URL) => unknown,
) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify(answer(new URL(url, 'http://localhost'))), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  const location = memoryLocation({ path, searchPath: search, record: true });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        {screen}
      </Router>
    </QueryClientProvider>,
  );
  return { asked, location };
}
