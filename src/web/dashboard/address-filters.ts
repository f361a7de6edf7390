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
