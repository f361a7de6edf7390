import type { ReactNode } from 'react';

/**
 * The id of the heading every screen of the consent page opens with. The page's `<main>` takes
 * its name from it, so that inside a merchant's page, which has a `<main>` of its own, a screen
 * reader can tell the two apart ("Consent Not Found, main").
 */
export const SCREEN_TITLE_ID = 'screen-title';

/** The consent page's main landmark, named by the screen's heading. */
export function ScreenMain({ children }: { children: ReactNode }) {
  return <main aria-labelledby={SCREEN_TITLE_ID}>{children}</main>;
}
