import {
  browserKindOf,
  THREE_DS_TEXTS,
  threeDsChallengeHref,
  threeDsOpening,
  type TThreeDsOpening,
} from '../../../domain/in-app-browser';
import { noteThreeDsInPlace } from './three-ds-return';

/**
 * How this browser opens a 3-D Secure check (src/domain/in-app-browser.ts): a new tab, or this
 * window inside an app. Read in the browser only: a server draws the spec's new tab.
 */
export const threeDsOpeningHere = (): TThreeDsOpening =>
  threeDsOpening(browserKindOf(navigator.userAgent));

/** What the page says while the check is awaited, by where it opens (spec §2 linking). */
export const awaitingThreeDsText = (opening: TThreeDsOpening): string =>
  opening === 'new_tab' ? THREE_DS_TEXTS.awaiting_new_tab : THREE_DS_TEXTS.awaiting_same_window;

/**
 * Opens the check: in a new tab where the browser opens one (`window.open` answers a window),
 * else in this window, with the way back to this page, which picks the attempt up from the
 * server when the payer returns (issue 43).
 */
export function openThreeDsChallenge(challengeUrl: string, opening: TThreeDsOpening): void {
  if (opening === 'new_tab') {
    // Without 'noopener', which makes window.open answer null whether or not a tab opened.
    const tab = window.open(challengeUrl, '_blank');
    if (tab) {
      tab.opener = null;
      return;
    }
  }
  noteThreeDsInPlace();
  window.location.assign(threeDsChallengeHref(challengeUrl, window.location.href));
}
