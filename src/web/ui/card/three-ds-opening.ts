import { useState } from 'react';
import {
  browserKindOf,
  threeDsChallengeHref,
  threeDsOpening,
  type TThreeDsOpening,
} from '../../../domain/in-app-browser';
import { noteThreeDsInPlace, session } from './three-ds-return';

/*
 * The tab's note that this browser opened no tab for a check (`window.open` answered null: a
 * blocker, a frame's sandbox): from then on the page says, and does, this window.
 */
const NO_TAB_KEY = 'oya:3ds-no-tab';
const tabRefusedHere = (): boolean => session()?.getItem(NO_TAB_KEY) === '1';

/**
 * How this browser opens a 3-D Secure check (src/domain/in-app-browser.ts): a new tab, or this
 * window inside an app or where a tab has already failed to open. Read in the browser only: a
 * server draws the spec's new tab.
 */
export const threeDsOpeningHere = (): TThreeDsOpening =>
  threeDsOpening(browserKindOf(navigator.userAgent), tabRefusedHere());

/**
 * Opens the check in a new tab: false where the browser opened none (`window.open` answered
 * null: a blocker, a frame's sandbox), which this tab then remembers, so that the page no longer
 * says a new tab.
 */
function openInNewTab(challengeUrl: string): boolean {
  // Without 'noopener', which makes window.open answer null whether or not a tab opened.
  const tab = window.open(challengeUrl, '_blank');
  if (!tab) {
    session()?.setItem(NO_TAB_KEY, '1');
    return false;
  }
  tab.opener = null;
  return true;
}

/**
 * Opens the check in this window, with the way back to this page, which picks the attempt up
 * from the server when the payer returns.
 */
function openHere(challengeUrl: string): void {
  noteThreeDsInPlace();
  window.location.assign(threeDsChallengeHref(challengeUrl, window.location.href));
}

/**
 * Where the check opens here, and the press that opens it: in a new tab where one opens; where
 * the browser opens none, nothing leaves the page, which says so (`noTab`) and opens the check
 * in this window at the next press, as it now says. `onOpened` runs once the check is open.
 */
export function useThreeDsOpening(onOpened?: () => void) {
  // Drawn in the browser only (a charge's answer or the payment's read precedes it).
  const [opening, setOpening] = useState(threeDsOpeningHere);
  const [noTab, setNoTab] = useState(false);
  const open = (challengeUrl: string) => {
    if (opening === 'new_tab' && !openInNewTab(challengeUrl)) {
      setOpening('same_window');
      setNoTab(true);
      return;
    }
    onOpened?.();
    if (opening === 'same_window') openHere(challengeUrl);
  };
  return { opening, noTab, open };
}
