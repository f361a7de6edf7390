import { MOBILE_BREAKPOINT_PX } from '../../domain/constants';
import { AuthPromptScreen, PayNowScreen } from './consent-screens';
import type { TFirstScreenPart } from './page-answers';
import { ConsentRoute } from './router';

/**
 * Loads the code of the consent page and of the parts of its first screen, so that the page
 * hydrates what the server drew in one pass, suspending nowhere (ui/preloadable.ts). The side
 * panel's only where it shows (from MOBILE_BREAKPOINT_PX wide): hidden, it stays as drawn.
 */
export async function loadFirstScreen(parts: readonly TFirstScreenPart[]): Promise<void> {
  const wide =
    typeof window.matchMedia === 'function' &&
    window.matchMedia(`(min-width: ${MOBILE_BREAKPOINT_PX}px)`).matches;
  await Promise.all([
    ConsentRoute.preload(),
    parts.includes('auth-prompt') ? AuthPromptScreen.preload() : null,
    parts.includes('immediate-payment') ? PayNowScreen.preload() : null,
    parts.includes('side-panel') && wide
      ? import('../features/consent/consent-page').then((page) => page.ConsentSidePanel.preload())
      : null,
    parts.includes('settled')
      ? import('../features/consent/consent-page-screen').then((screen) =>
          screen.loadSettledScreens(),
        )
      : null,
    parts.includes('summary')
      ? import('../features/consent/consent-page-screen').then((screen) =>
          screen.ConsentOverview.preload(),
        )
      : null,
  ]);
}
