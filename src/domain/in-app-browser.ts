/*
 * Where the page runs: a consent link shared on WhatsApp, Instagram or Facebook opens in that app's
 * own browser, and a merchant's app shows the page in an Android WebView or an iOS WKWebView. There
 * a new tab may never open or never come back, and passkeys may not exist. The page asks these
 * rules what to do; it gives them what the browser tells it (the user agent, whether
 * PublicKeyCredential exists, what window.open answered).
 */

/** The apps whose in-app browser names itself in the user agent. */
export const IN_APP_BROWSER_APPS = [
  'whatsapp',
  'instagram',
  'messenger',
  'facebook',
  'tiktok',
  'snapchat',
  'line',
  'twitter',
  'telegram',
] as const;
export type TInAppBrowserApp = (typeof IN_APP_BROWSER_APPS)[number];

export type TBrowserKind =
  /** An app's own browser for the links shared in it. */
  | { kind: 'in_app'; app: TInAppBrowserApp; android: boolean }
  /** An Android app showing the page in a WebView (the '; wv)' token). */
  | { kind: 'android_webview' }
  /** An iOS app showing the page in a WKWebView (iOS WebKit without the 'Safari/' token). */
  | { kind: 'ios_webview' }
  /** A browser of its own: tabs open, passkeys work where the device has them. */
  | { kind: 'browser' };

/**
 * Each app's mark in its user agent, checked in this order: Messenger before Facebook (both say
 * FBAV), Instagram before Facebook (its Android agent may carry FB tokens).
 */
const APP_MARKS: ReadonlyArray<readonly [TInAppBrowserApp, RegExp]> = [
  ['whatsapp', /\bWhatsApp\//i],
  ['instagram', /\bInstagram\s\d/],
  ['messenger', /FBAN\/(?:MessengerForiOS|MessengerLiteForiOS)|FB_IAB\/(?:Orca-Android|MESSENGER)/],
  ['facebook', /\bFBAN\/|\bFBAV\/|\bFB_IAB\/|\bFBIOS\b/],
  ['tiktok', /\bmusical_ly|\bBytedanceWebview\b|\bTikTok\b|\btrill_\d/],
  ['snapchat', /\bSnapchat\//],
  ['line', /\bLine\/\d/],
  ['twitter', /\bTwitterAndroid\b|\bTwitter for iP(?:hone|ad)\b/],
  ['telegram', /\bTelegram-Android\/|\bTelegramBot\b/],
];

const ANDROID = /\bAndroid\b/;
const ANDROID_WEBVIEW = /;\s*wv\)/;
const IOS = /\b(?:iPhone|iPad|iPod)\b/;

/** What kind of browser a user agent names. */
export function browserKindOf(userAgent: string): TBrowserKind {
  const android = ANDROID.test(userAgent);
  for (const [app, mark] of APP_MARKS) {
    if (mark.test(userAgent)) return { kind: 'in_app', app, android };
  }
  if (android && ANDROID_WEBVIEW.test(userAgent)) return { kind: 'android_webview' };
  if (IOS.test(userAgent) && /AppleWebKit\//.test(userAgent) && !/\bSafari\//.test(userAgent)) {
    return { kind: 'ios_webview' };
  }
  return { kind: 'browser' };
}

/** Whether the page runs inside an app rather than a browser of its own. */
export const isInsideApp = (kind: TBrowserKind): boolean => kind.kind !== 'browser';

/**
 * How 'Continue to Authentication' opens the bank's 3-D Secure check (spec §2 3D Secure screen):
 * in a new tab, as the spec says, in a browser of its own; in the same window, with a way back to
 * this page, inside an app (whose new tab may never open or never come back) or in a browser that
 * has already opened no tab for it (`tabRefused`: `window.open` gave null, a blocker or a frame's
 * sandbox), where a new tab would not be true either.
 */
export type TThreeDsOpening = 'new_tab' | 'same_window';

export function threeDsOpening(kind: TBrowserKind, tabRefused = false): TThreeDsOpening {
  return isInsideApp(kind) || tabRefused ? 'same_window' : 'new_tab';
}

/**
 * The spec's words for the new tab (§2 3D Secure screen), said where a tab opens; ours for the
 * same window, and for the moment a browser opened no tab though one was said.
 */
export const THREE_DS_TEXTS = {
  title: '3D Secure Authentication Required',
  new_tab:
    'Your bank requires additional verification. Click the button below to complete the authentication in a new tab.',
  same_window:
    'Your bank requires additional verification. Click the button below to complete the authentication. This page opens again when you are done.',
  button: 'Continue to Authentication',
  /** Back on the page with the check not done (spec §2 linking: 'Awaiting 3D Secure ...'). */
  awaiting_new_tab: 'Please complete the authentication in the new tab, then return here...',
  awaiting_same_window: 'Please complete the authentication with your bank, then return here...',
  /** The browser opened no tab: the same button now opens the check here. */
  no_tab:
    'Your browser did not open a new tab, so the authentication opens in this window instead.',
} as const;

/**
 * Where the challenge sends the payer back: the consent page as it is now, which reads the
 * payment from the server and goes on from where the attempt stands. Only a challenge page of this
 * server (the sandbox's) is told where: a bank's own address is opened as the bank gave it, and
 * the payer's Back brings them to the same page.
 */
export function threeDsChallengeHref(challengeUrl: string, pageUrl: string): string {
  const challenge = new URL(challengeUrl, pageUrl);
  const page = new URL(pageUrl);
  if (challenge.origin !== page.origin) return challenge.href;
  page.hash = '';
  challenge.searchParams.set(THREE_DS_RETURN_PARAM, page.pathname + page.search);
  return challenge.href;
}

/** The challenge page's parameter that names the way back (threeDsChallengeHref). */
export const THREE_DS_RETURN_PARAM = 'return';

/**
 * Whether a way back named to this server's challenge page may be followed: a consent page of the
 * same server (a path under /r/), never another site (an open redirect).
 */
export function isConsentReturnPath(path: string): boolean {
  return /^\/r\/[A-Za-z0-9_-]{1,200}(?:\?[^#\s]*)?$/.test(path);
}

/** What the page knows of passkeys where it runs. */
export type TPasskeyFacts = {
  kind: TBrowserKind;
  /** `window.PublicKeyCredential` exists. */
  hasPublicKeyCredential: boolean;
  /**
   * `PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable()`: null until it answers
   * (or where it cannot be asked).
   */
  platformAuthenticator: boolean | null;
};

/**
 * Whether the payer can give the grant's 'biometric approval' here (spec §2 Overlays). Without
 * PublicKeyCredential, never. In a browser of its own a passkey on the payer's phone or a key can
 * still approve when this device has none; inside an app, none of those can be reached, so no
 * platform authenticator means no passkey.
 */
export function passkeysUsable(facts: TPasskeyFacts): boolean {
  if (!facts.hasPublicKeyCredential) return false;
  if (facts.platformAuthenticator === false && isInsideApp(facts.kind)) return false;
  return true;
}

const APP_NAMES: Record<TInAppBrowserApp, string> = {
  whatsapp: 'WhatsApp',
  instagram: 'Instagram',
  messenger: 'Messenger',
  facebook: 'Facebook',
  tiktok: 'TikTok',
  snapchat: 'Snapchat',
  line: 'LINE',
  twitter: 'X',
  telegram: 'Telegram',
};

/** The words a payer reads where passkeys do not work. */
export const NO_PASSKEY_TEXTS = {
  title: 'Fingerprint and face approval do not work here',
  openInBrowser: 'Open in your browser',
  copied: 'Link copied. Open Chrome or Safari, paste it in the address bar and go.',
  copyFailed: 'Copy this link and open it in Chrome or Safari:',
  payMeanwhile: 'You can still pay now by transfer or card.',
} as const;

/** Why approval does not work here, naming the app where it is known. */
export function noPasskeyExplanation(kind: TBrowserKind): string {
  const where =
    kind.kind === 'in_app'
      ? `${APP_NAMES[kind.app]}'s browser`
      : kind.kind === 'browser'
        ? 'This browser'
        : "This app's browser";
  return `${where} cannot use your passkey (your fingerprint, face or screen lock), so it cannot approve this consent. Open this page in your browser to approve it there.`;
}

/** A tip for the app's own menu, where the app has one that opens the page in the browser. */
export function openInBrowserTip(kind: TBrowserKind): string | null {
  if (kind.kind !== 'in_app') return null;
  return `Or, in ${APP_NAMES[kind.app]}, open the menu (⋯) and choose to open the page in your browser.`;
}

/**
 * The address that hands the page to the system browser, where the platform allows it: an
 * Android intent:// link from an app's in-app browser (Android asks its default browser to open
 * the https page). Elsewhere (iOS, an app's own WebView, which does not follow intent links)
 * null: the page's address is copied instead.
 */
export function systemBrowserHref(pageUrl: string, kind: TBrowserKind): string | null {
  if (kind.kind !== 'in_app' || !kind.android) return null;
  const url = new URL(pageUrl);
  if (url.protocol !== 'https:') return null;
  const fallback = encodeURIComponent(url.href);
  return `intent://${url.host}${url.pathname}${url.search}#Intent;scheme=https;S.browser_fallback_url=${fallback};end`;
}
