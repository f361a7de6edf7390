import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'wouter';

/**
 * A list screen's filters, kept in the page's address (`?q=…&status=…`): a search is a
 * navigation, so a reload keeps it, Back returns to the one before and the address can be shared.
 * `names` are the filters the screen knows; each reads '' where the address has none.
 */
export function useAddressFilters<TName extends string>(
  names: readonly TName[],
): [Record<TName, string>, (filters: Record<TName, string>) => void] {
  const [params, setParams] = useSearchParams();
  return [filtersOf(names, params), (filters) => setParams(paramsOf(names, filters))];
}

/** The filters `params` holds, '' for each it does not. */
export function filtersOf<TName extends string>(
  names: readonly TName[],
  params: URLSearchParams,
): Record<TName, string> {
  return Object.fromEntries(names.map((name) => [name, params.get(name) ?? ''])) as Record<
    TName,
    string
  >;
}

/** The address's search for `filters`: only those set, trimmed. */
export function paramsOf<TName extends string>(
  names: readonly TName[],
  filters: Record<TName, string>,
): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of names) if (filters[name].trim()) params.set(name, filters[name].trim());
  return params;
}

/** A key that changes with the filters: a form keyed by it is drawn afresh on Back or Forward. */
export const filtersKey = <TName extends string>(
  names: readonly TName[],
  filters: Record<TName, string>,
) => paramsOf(names, filters).toString();

/** What a paged list draws: the pages the address asks for, and how to ask the next. */
export type TAddressPages<TPage> = {
  pages: TPage[];
  paging: {
    error: unknown;
    isPending: boolean;
    isSuccess: boolean;
    hasNextPage: boolean;
    isFetchingNextPage: boolean;
    fetchNextPage: () => Promise<void>;
  };
};

/**
 * A paged list's cursors, kept in the address beside its filters (`?cursor=…`, one per "Load
 * more": the cursor of each page past the first). "Load more" is a navigation: a reload reads as
 * many pages again, Back shows one page fewer; a new search, whose address has no cursor, starts
 * at the first page.
 */
export function useAddressPages<TPage extends { nextCursor: string | null }>(
  read: UseInfiniteQueryResult<InfiniteData<TPage>>,
): TAddressPages<TPage> {
  const [params, setParams] = useSearchParams();
  const cursors = params.getAll('cursor');
  const wanted = cursors.length + 1;
  const loaded = read.data?.pages ?? [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = read;
  useEffect(() => {
    if (loaded.length > 0 && loaded.length < wanted && hasNextPage && !isFetchingNextPage) {
      void fetchNextPage();
    }
  }, [loaded.length, wanted, hasNextPage, isFetchingNextPage, fetchNextPage]);
  const pages = loaded.slice(0, wanted);
  const next = pages.at(-1)?.nextCursor ?? null;
  const more = async () => {
    if (!next || cursors.at(-1) === next) return;
    const asked = new URLSearchParams(params);
    asked.append('cursor', next);
    setParams(asked);
  };
  return {
    pages,
    paging: {
      error: read.error,
      isPending: read.isPending,
      isSuccess: read.isSuccess,
      hasNextPage: next !== null,
      isFetchingNextPage: isFetchingNextPage || (loaded.length < wanted && hasNextPage),
      fetchNextPage: more,
    },
  };
}
