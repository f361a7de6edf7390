import { useEffect } from 'react';

/**
 * Set on the document once the consent page shows the screen for the payer's stored session
 * (src/web/app/routes/consent-route.tsx). The page the server drew has no session: for a
 * signed-in payer it is drawn again once their session is read, and a tap on the drawn screen
 * meanwhile would be lost with it. The drawn page's held clicks (src/server/routes/pages.ts) wait
 * for it, so a tap is given to the screen the payer goes on with.
 */
export const PAGE_SETTLED_ATTRIBUTE = 'data-page-settled';

/**
 * Marks the page settled once it commits with `settled` true: placed beside the screen, inside
 * its boundary, it commits with the screen it stands beside, not before.
 */
export function PageSettledMark({ settled }: { settled: boolean }): null {
  useEffect(() => {
    if (settled) document.documentElement.setAttribute(PAGE_SETTLED_ATTRIBUTE, '');
  }, [settled]);
  return null;
}
