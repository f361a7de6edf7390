import { use, useSyncExternalStore, type ReactNode } from 'react';

const noMedia = typeof window === 'undefined' || typeof window.matchMedia !== 'function';

/**
 * Whether the window is at least `px` wide, kept up to date as it is resized; false where the
 * browser cannot say (no media queries), so the page keeps its one-column layout there.
 *
 * A server cannot know the width: it draws the wide layout, whose extra parts the page's CSS
 * hides below the breakpoint, and the page hydrates that same layout (React reads the server
 * snapshot while hydrating) before it drops what a narrow window does not show.
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
    // On a server, and while hydrating what it drew: the wide layout (see above).
    () => true,
  );
}

const NEVER: Promise<never> = new Promise(() => undefined);

/**
 * Its children only where the window is at least `px` wide. On a narrower one, while the page
 * hydrates the wide layout the server drew, it suspends: React keeps the server's (hidden) part
 * as it is, loads none of its code, and removes it once useMinWidth reads the real width.
 */
export function WideOnly({ px, children }: { px: number; children: ReactNode }): ReactNode {
  if (!noMedia && !window.matchMedia(`(min-width: ${px}px)`).matches) use(NEVER);
  return children;
}
