import type { TConsent } from '../../../domain/schemas/consent';
import type { TConsentScreens, TEmbedReports, TPayNowPrompts } from '../../contracts/consent-slots';

/** What the consent flow (consent-flow-view.tsx) and its steps (consent-flow-steps.tsx) are given. */
export type TConsentFlowProps = {
  consent: TConsent;
  clientId: string;
  embed: boolean;
  screens: TConsentScreens;
  /** The prompts after the immediate payment (spec §2, §4). */
  prompts: TPayNowPrompts;
  /** Granted: the page reads the consent again and shows Consent Granted. */
  onGranted(): void;
  /** The grant failed or was declined: the embedding parent is told. */
  onFailed(error: string): void;
  /** 'Report & Close' on the Consent Error modal (embed only). */
  onReport(error: string): void;
  /** The step shown, the payment's status and a decline, told to the embedding parent. */
  reports: TEmbedReports;
  /** The account-linking panel opened or closed (the header reads 'Link Account'). */
  onLinkingChange(open: boolean): void;
};
