import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export type TPreloadable<P> = LazyExoticComponent<ComponentType<P>> & {
  /** Loads the component's code now; once it is here, the component renders without suspending. */
  preload(): Promise<void>;
};

/**
 * Code of the page that did not come (a dropped connection). Chromium keeps a failed module for
 * the page's life, so asking again fails the same: only a new page asks the server again
 * (FailureBoundary's 'Try Again').
 */
export class PartLoadError extends Error {
  constructor(cause: unknown) {
    super('A part of the page did not load', { cause });
    this.name = 'PartLoadError';
  }
}

/** Every part's loader, as its module declares it: the server loads them all before it draws. */
const everyPart = new Set<() => Promise<unknown>>();

/**
 * Loads the code of every part declared, and of those their code declares, until no new one
 * appears: the server does so once at its start, so that drawing a first screen never waits on
 * code, and the first payer after a start gets a drawn page like everyone else.
 */
export async function preloadEveryPart(): Promise<void> {
  let known = -1;
  while (known !== everyPart.size) {
    known = everyPart.size;
    await Promise.all([...everyPart].map((load) => load()));
  }
}

/**
 * A component whose code loads when it first renders (React.lazy), or sooner, by `preload()`.
 * Preloaded, it renders at once: React.lazy would suspend on a promise however settled it was,
 * and hydrating the page the server drew must not suspend on code already here (a part of it
 * still waiting would be drawn again in the browser, its Loading screen first, at any change of
 * state above it; src/web/main.tsx). Code that does not come throws a PartLoadError to the
 * nearest FailureBoundary.
 */
export function preloadable<P>(load: () => Promise<ComponentType<P>>): TPreloadable<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const fetchIt = () =>
    (loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        // A browser that keeps no failed module (Firefox) asks the server again next time.
        loading = null;
        throw new PartLoadError(error);
      },
    ));
  everyPart.add(fetchIt);
  const Component = lazy(() => {
    const ready = loaded;
    // A thenable that calls back at once: React.lazy reads a module already here synchronously.
    if (ready) {
      return {
        then: (resolve: (module: { default: ComponentType<P> }) => void) =>
          resolve({ default: ready }),
      } as unknown as Promise<{ default: ComponentType<P> }>;
    }
    return fetchIt().then((component) => ({ default: component }));
  });
  return Object.assign(Component, { preload: () => fetchIt().then(() => undefined) });
}
