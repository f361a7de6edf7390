import { useSyncExternalStore } from 'react';

const noMedia = typeof window === 'undefined' || typeof window.matchMedia !== 'function';

/**
 * Whether the window is at least `px` wide, kept up to date as it is resized; false where the
 * browser cannot say (no media queries), so the page keeps its one-column layout there.
 */
export function useMinWidth(px: number): boolean {
  const query = `(min-width: ${px}px)`;
  return useSyncExternalStore(
    (changed) => {
      if (noMedia) return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    () => !noMedia && window.matchMedia(query).matches,
    // On a server, the one-column layout.
    () => false,
  );
}
