import type { TConsentScreens } from '../contracts/consent-slots';
import { preloadable } from '../ui/preloadable';

/** The screens the consent page may show first (src/server/routes/pages.ts preloads them). */
export const AuthPromptScreen = preloadable(() =>
  import('../features/auth/auth-prompt-view').then((module) => module.AuthPrompt),
);
export const PayNowScreen = preloadable(() =>
  import('../features/payment/pay-now-view').then((module) => module.PayNowScreen),
);

/**
 * The consent page's screens that other features own (features do not import each other): each
 * is its own chunk, loaded when first shown, or sooner through preloadConsentScreens.
 */
export const consentScreens: TConsentScreens = {
  AuthPrompt: AuthPromptScreen,
  PayNow: PayNowScreen,
  RepaymentAccounts: preloadable(() =>
    import('../features/linking/repayment-accounts').then((module) => module.RepaymentAccounts),
  ),
  SavedAccounts: preloadable(() =>
    import('../features/linking/repayment-accounts').then((module) => module.SavedAccounts),
  ),
  SaveCardPrompt: preloadable(() =>
    import('../features/linking/save-card-prompt').then((module) => module.SaveCardPrompt),
  ),
  LinkAccountPanel: preloadable(() =>
    import('../features/linking/linking-panel-view').then((module) => module.LinkingPanel),
  ),
  BvnVerification: preloadable(() =>
    import('../features/linking/bvn-step').then((module) => module.BvnVerification),
  ),
  FormStep: preloadable(() =>
    import('../features/form/form-step').then((module) => module.FormStep),
  ),
  ChipTerminal: preloadable(() =>
    import('../features/terminal/chip-terminal-modal').then((module) => module.ChipTerminalModal),
  ),
  PushedTerminal: preloadable(() =>
    import('../features/terminal/pushed-terminal-modal').then(
      (module) => module.PushedTerminalModal,
    ),
  ),
  AddPasskey: preloadable(() =>
    import('../features/auth/add-passkey-for-grant').then((module) => module.AddPasskeyForGrant),
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
