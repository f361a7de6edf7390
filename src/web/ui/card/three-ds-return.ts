/*
 * The page's note, for this tab's session, that it left for a 3-D Secure check in its own window
 * (an app's browser): the consent page that opens on the way back reads it once, to say
 * how the check ended as a page that stayed would.
 */
const KEY = 'oya:3ds-in-place';

/** This tab's session storage, where the browser gives one. */
export const session = (): Storage | null => {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
};

export function noteThreeDsInPlace(): void {
  session()?.setItem(KEY, window.location.pathname);
}

/** Whether this page is the one that left for the check; the note is spent. */
export function takeThreeDsReturn(): boolean {
  const store = session();
  const left = store?.getItem(KEY);
  if (left == null) return false;
  store?.removeItem(KEY);
  return left === window.location.pathname;
}
