import {
  browserKindOf,
  isInsideApp,
  passkeysUsable,
  type TBrowserKind,
} from '../../domain/in-app-browser';

export type TPasskeySupport = {
  /** The payer can give the 'biometric approval' here (src/domain/in-app-browser.ts). */
  usable: boolean;
  kind: TBrowserKind;
};

/**
 * Whether passkeys work where the page runs: never without PublicKeyCredential; inside
 * an app, only where the platform has an authenticator of its own.
 */
export async function passkeySupport(): Promise<TPasskeySupport> {
  const kind = browserKindOf(navigator.userAgent);
  const hasPublicKeyCredential = typeof window.PublicKeyCredential === 'function';
  const platformAuthenticator =
    hasPublicKeyCredential && isInsideApp(kind)
      ? await window.PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable().catch(
          () => false,
        )
      : null;
  return {
    usable: passkeysUsable({ kind, hasPublicKeyCredential, platformAuthenticator }),
    kind,
  };
}
