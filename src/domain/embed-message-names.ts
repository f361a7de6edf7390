/**
 * The names of the messages the page posts to an embedding parent (spec §7 "Messages"), and
 * five of ours. Apart from their schemas (embed-messages.ts) so the embed script (src/sdk) takes
 * the names without zod.
 */
export const EMBED_MESSAGE = {
  heightUpdate: 'oya-money-height-update',
  consentSuccess: 'oya-money-consent-success',
  consentData: 'oya-money-consent-data',
  consentCompleted: 'oya-money-consent-completed',
  consentFailed: 'oya-money-consent-failed',
  // Ours, not the spec's: what the merchant's embed script reports besides the outcome.
  /** The consent flow opened a step (the first one shown included). */
  stepChange: 'oya-money-step-change',
  /** The immediate payment started, completed or failed. */
  paymentStatus: 'oya-money-payment-status',
  /** The payer declined the consent. */
  consentDeclined: 'oya-money-consent-declined',
  /** The payer pressed Escape in the page, with no dialog of its own open: close the embed. */
  closeRequest: 'oya-money-close-request',
  /** A dialog of the page's own opened or closed; while one is open, its close is the page's. */
  pageDialog: 'oya-money-page-dialog',
} as const;

/**
 * The Flutter JavaScript channel a merchant's app adds to the webview that shows the consent page
 * (webview_flutter's `addJavaScriptChannel`): the page posts each message to it, as JSON, as it
 * posts to React Native's `window.ReactNativeWebView` (docs/sdk.md "In a mobile app").
 */
export const FLUTTER_CHANNEL = 'OyaConsentBridge';
