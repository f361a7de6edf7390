import { lazy } from 'react';
import type { TConsentScreens } from '../contracts/consent-slots';
import { preloadable } from '../ui/preloadable';

/** The screens the consent page may show first (src/server/routes/pages.ts preloads them). */
export const AuthPromptScreen = preloadable(() =>
  import('../features/auth/auth-prompt').then((module) => module.AuthPrompt),
);
export const PayNowScreen = preloadable(() =>
  import('../features/payment/pay-now-screen').then((module) => module.PayNowScreen),
);

/**
 * The consent page's screens that other features own (features do not import each other): each
 * is its own chunk, loaded when first shown, or sooner through preloadConsentScreens.
 */
export const consentScreens: TConsentScreens = {
  AuthPrompt: AuthPromptScreen,
  PayNow: PayNowScreen,
  RepaymentAccounts: lazy(() =>
    import('../features/linking/repayment-accounts').then((module) => ({
      default: module.RepaymentAccounts,
    })),
  ),
  SavedAccounts: lazy(() =>
    import('../features/linking/repayment-accounts').then((module) => ({
      default: module.SavedAccounts,
    })),
  ),
  SaveCardPrompt: lazy(() =>
    import('../features/linking/save-card-prompt').then((module) => ({
      default: module.SaveCardPrompt,
    })),
  ),
  LinkAccountPanel: lazy(() =>
    import('../features/linking/linking-panel').then((module) => ({
      default: module.LinkingPanel,
    })),
  ),
  FormStep: lazy(() =>
    import('../features/form/form-step').then((module) => ({ default: module.FormStep })),
  ),
  ChipTerminal: lazy(() =>
    import('../features/terminal/chip-terminal-modal').then((module) => ({
      default: module.ChipTerminalModal,
    })),
  ),
  AddPasskey: lazy(() =>
    import('../features/auth/add-passkey-for-grant').then((module) => ({
      default: module.AddPasskeyForGrant,
    })),
  ),
  signGrant: (consentId, payload) =>
    import('../features/auth/sign-grant').then((module) => module.signGrant(consentId, payload)),
};

/**
 * Starts loading, beside the consent page itself, the screens a payer's first visit most often
 * needs: the auth prompt (spec §6). Otherwise it would be asked for only once the consent had
 * come and chosen it, one more round trip before the payer sees anything but Loading.
 */
export function preloadConsentScreens(): void {
  void AuthPromptScreen.preload();
}
