import { describe, expect, it } from 'vitest';
import {
  browserKindOf,
  isConsentReturnPath,
  noPasskeyExplanation,
  passkeysUsable,
  systemBrowserHref,
  threeDsChallengeHref,
  threeDsOpening,
  type TBrowserKind,
} from './in-app-browser';

/** User agents as the apps and browsers send them (collected from their traffic and trackers). */
const AGENTS: ReadonlyArray<readonly [string, string, TBrowserKind]> = [
  [
    'WhatsApp in-app browser, Android',
    'Mozilla/5.0 (Linux; Android 13; SM-A536B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.144 Mobile Safari/537.36 WhatsApp/2.23.25.83',
    { kind: 'in_app', app: 'whatsapp', android: true },
  ],
  [
    'Instagram, iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 290.0.0.13.81 (iPhone13,2; iOS 16_5; en_US; en; scale=3.00; 1170x2532; 489720907)',
    { kind: 'in_app', app: 'instagram', android: false },
  ],
  [
    'Instagram, Android',
    'Mozilla/5.0 (Linux; Android 12; Infinix X6816 Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0.6045.163 Mobile Safari/537.36 Instagram 309.0.0.40.113 Android (31/12; 320dpi; 720x1512; INFINIX; Infinix X6816; Infinix-X6816; mt6768; en_GB; 541635890)',
    { kind: 'in_app', app: 'instagram', android: true },
  ],
  [
    'Facebook, iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/442.0.0.41.110;FBBV/540163626;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/17.1.2;FBSS/3;FBID/phone;FBLC/en_GB;FBOP/5;FBRV/542380436]',
    { kind: 'in_app', app: 'facebook', android: false },
  ],
  [
    'Facebook, Android',
    'Mozilla/5.0 (Linux; Android 11; TECNO KF6i Build/RP1A.200720.011; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/118.0.5993.111 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/439.0.0.29.119;]',
    { kind: 'in_app', app: 'facebook', android: true },
  ],
  [
    'Messenger, iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/MessengerForiOS;FBAV/432.0.0.34.109;FBBV/524513512;FBDV/iPhone12,1;FBMD/iPhone;FBSN/iOS;FBSV/16.6;FBSS/2;FBCR/;FBID/phone;FBLC/en_US;FBOP/5]',
    { kind: 'in_app', app: 'messenger', android: false },
  ],
  [
    'Messenger, Android',
    'Mozilla/5.0 (Linux; Android 10; itel L6502 Build/QP1A.190711.020; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/117.0.5938.140 Mobile Safari/537.36 [FB_IAB/Orca-Android;FBAV/431.0.0.18.108;]',
    { kind: 'in_app', app: 'messenger', android: true },
  ],
  [
    'TikTok, Android',
    'Mozilla/5.0 (Linux; Android 12; SM-A125F Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0.6045.163 Mobile Safari/537.36 trill_320203 JsSdk/1.0 NetType/WIFI Channel/googleplay AppName/trill app_version/32.2.3 ByteLocale/en ByteFullLocale/en Region/NG Spark/1.4.2.2-bugfix AppVersion/32.2.3 BytedanceWebview/d8a21c6',
    { kind: 'in_app', app: 'tiktok', android: true },
  ],
  [
    'TikTok, iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_32.1.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/NG isDarkMode/0 RevealType/Dialog',
    { kind: 'in_app', app: 'tiktok', android: false },
  ],
  [
    'Snapchat, iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Snapchat/12.61.0.40 (like Safari/8614.4.6.1.6, panda)',
    { kind: 'in_app', app: 'snapchat', android: false },
  ],
  [
    'LINE, Android',
    'Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230805.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.5845.163 Mobile Safari/537.36 Line/13.14.1/IAB',
    { kind: 'in_app', app: 'line', android: true },
  ],
  [
    'Twitter (X), iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 15_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Twitter for iPhone/9.61',
    { kind: 'in_app', app: 'twitter', android: false },
  ],
  [
    'Twitter (X), Android',
    'Mozilla/5.0 (Linux; Android 12; M2101K6G Build/SKQ1.210908.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/103.0.5060.129 Mobile Safari/537.36 TwitterAndroid',
    { kind: 'in_app', app: 'twitter', android: true },
  ],
  [
    'Telegram, Android',
    'Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.193 Mobile Safari/537.36 Telegram-Android/10.5.0 (Samsung SM-S911B; Android 13; SDK 33; HIGH)',
    { kind: 'in_app', app: 'telegram', android: true },
  ],
  [
    "a merchant's Android app (WebView)",
    'Mozilla/5.0 (Linux; Android 11; TECNO BD4 Build/RP1A.200720.011; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/114.0.5735.196 Mobile Safari/537.36',
    { kind: 'android_webview' },
  ],
  [
    "a merchant's iOS app (WKWebView)",
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
    { kind: 'ios_webview' },
  ],
  [
    'Chrome, Android',
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
    { kind: 'browser' },
  ],
  [
    'Opera, Android',
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36 OPR/79.0.4195.76449',
    { kind: 'browser' },
  ],
  [
    'Safari, iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
    { kind: 'browser' },
  ],
  [
    'Chrome, iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.101 Mobile/15E148 Safari/604.1',
    { kind: 'browser' },
  ],
  [
    'Chrome, Windows',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    { kind: 'browser' },
  ],
  [
    'Safari, Mac',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
    { kind: 'browser' },
  ],
];

describe('browserKindOf', () => {
  it.each(AGENTS)('tells %s', (_name, agent, kind) => {
    expect(browserKindOf(agent)).toEqual(kind);
  });

  it('opens 3-D Secure in the same window inside an app, in a new tab in a browser', () => {
    expect(threeDsOpening({ kind: 'in_app', app: 'instagram', android: false })).toBe(
      'same_window',
    );
    expect(threeDsOpening({ kind: 'android_webview' })).toBe('same_window');
    expect(threeDsOpening({ kind: 'ios_webview' })).toBe('same_window');
    expect(threeDsOpening({ kind: 'browser' })).toBe('new_tab');
  });

  it('opens it in the same window in a browser that has already opened no tab for it', () => {
    expect(threeDsOpening({ kind: 'browser' }, true)).toBe('same_window');
    expect(threeDsOpening({ kind: 'ios_webview' }, true)).toBe('same_window');
    expect(threeDsOpening({ kind: 'browser' }, false)).toBe('new_tab');
  });
});

describe('threeDsChallengeHref', () => {
  const page = 'https://pay.example.ng/r/cons_1?clientId=cli_1&embed=false#step';

  it("names the way back to this server's challenge page, without the fragment", () => {
    const href = new URL(threeDsChallengeHref('/sandbox/3ds/ref_1', page));
    expect(href.origin).toBe('https://pay.example.ng');
    expect(href.searchParams.get('return')).toBe('/r/cons_1?clientId=cli_1&embed=false');
  });

  it("opens a bank's own address as the bank gave it", () => {
    const bank = 'https://acs.bank.example/challenge?id=9&sig=abc';
    expect(threeDsChallengeHref(bank, page)).toBe(bank);
  });

  it('follows back only to a consent page of the same server', () => {
    expect(isConsentReturnPath('/r/cons_1?clientId=cli_1&embed=false')).toBe(true);
    expect(isConsentReturnPath('/r/cons_1')).toBe(true);
    expect(isConsentReturnPath('//evil.example/r/x')).toBe(false);
    expect(isConsentReturnPath('https://evil.example/r/cons_1')).toBe(false);
    expect(isConsentReturnPath('/api/admin')).toBe(false);
    expect(isConsentReturnPath('/r/../api')).toBe(false);
  });
});

describe('passkeysUsable', () => {
  const inApp: TBrowserKind = { kind: 'in_app', app: 'whatsapp', android: true };

  it('is false without PublicKeyCredential, anywhere', () => {
    for (const kind of [inApp, { kind: 'browser' } as const]) {
      expect(
        passkeysUsable({ kind, hasPublicKeyCredential: false, platformAuthenticator: null }),
      ).toBe(false);
    }
  });

  it('is false inside an app whose device has no platform authenticator', () => {
    expect(
      passkeysUsable({ kind: inApp, hasPublicKeyCredential: true, platformAuthenticator: false }),
    ).toBe(false);
  });

  it("is true in a browser of its own without one: the payer's phone or key can approve", () => {
    expect(
      passkeysUsable({
        kind: { kind: 'browser' },
        hasPublicKeyCredential: true,
        platformAuthenticator: false,
      }),
    ).toBe(true);
  });

  it('is true inside an app until the platform answers, and where it has one', () => {
    for (const platformAuthenticator of [null, true]) {
      expect(
        passkeysUsable({ kind: inApp, hasPublicKeyCredential: true, platformAuthenticator }),
      ).toBe(true);
    }
  });
});

describe('open in your browser', () => {
  it("names the app whose browser cannot approve, or says this app's, or this browser", () => {
    expect(noPasskeyExplanation({ kind: 'in_app', app: 'whatsapp', android: true })).toMatch(
      /^WhatsApp's browser cannot use your passkey/,
    );
    expect(noPasskeyExplanation({ kind: 'ios_webview' })).toMatch(
      /^This app's browser cannot use your passkey/,
    );
    expect(noPasskeyExplanation({ kind: 'browser' })).toMatch(
      /^This browser cannot use your passkey/,
    );
  });

  it("hands the page to Android's browser from an in-app browser, by an intent link", () => {
    expect(
      systemBrowserHref('https://pay.example.ng/r/cons_1?clientId=cli_1', {
        kind: 'in_app',
        app: 'instagram',
        android: true,
      }),
    ).toBe(
      'intent://pay.example.ng/r/cons_1?clientId=cli_1#Intent;scheme=https;S.browser_fallback_url=https%3A%2F%2Fpay.example.ng%2Fr%2Fcons_1%3FclientId%3Dcli_1;end',
    );
  });

  it("offers no intent link on iOS, in an app's WebView, or over plain http", () => {
    const page = 'https://pay.example.ng/r/cons_1';
    expect(systemBrowserHref(page, { kind: 'in_app', app: 'instagram', android: false })).toBe(
      null,
    );
    expect(systemBrowserHref(page, { kind: 'android_webview' })).toBe(null);
    expect(
      systemBrowserHref('http://localhost:3000/r/cons_1', {
        kind: 'in_app',
        app: 'facebook',
        android: true,
      }),
    ).toBe(null);
  });
});
