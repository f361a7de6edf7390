import { use, useMemo, useSyncExternalStore, type ReactNode } from 'react';

const noMedia = typeof window === 'undefined' || typeof window.matchMedia !== 'function';

const subscribeTo = (query: string) => (changed: () => void) => {
  if (noMedia) return () => undefined;
  const list = window.matchMedia(query);
  list.addEventListener('change', changed);
  return () => list.removeEventListener('change', changed);
};

const NEVER: Promise<never> = new Promise(() => undefined);

/**
 * Its children only where the window is at least `px` wide, kept up to date as it is resized.
 *
 * A server cannot know the width: it draws the children, which the page's CSS hides below the
 * breakpoint. A narrower window that hydrates them suspends here instead: React keeps what the
 * server drew (hidden) as it is and loads none of its code, and nothing outside this part draws
 * again for it (a change of state above a part still being hydrated would have React draw that
 * part again in the browser, its Loading screen first).
 */
export function WideOnly({ px, children }: { px: number; children: ReactNode }): ReactNode {
  const query = `(min-width: ${px}px)`;
  const matches = () => !noMedia && window.matchMedia(query).matches;
  const subscribe = useMemo(() => subscribeTo(query), [query]);
  const wide = useSyncExternalStore(
    subscribe,
    matches,
    // On a server: drawn, for the CSS to show or hide. Hydrating: the window's own width.
    () => noMedia || matches(),
  );
  if (!wide) use(NEVER);
  return children;
}
