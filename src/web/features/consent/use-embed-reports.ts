import { useMemo, useRef } from 'react';
import type { TConsentStep } from '../../../domain/consent-steps';
import { EMBED_MESSAGE, type TEmbedMessage } from '../../../domain/embed-messages';
import type { TPaymentReport } from '../../../domain/embed-payment-report';
import type { TPostToParent } from './consent-page';

/** What the screens tell the embedding parent as the payer goes (our messages, not the spec's). */
export type TEmbedReports = {
  /** The flow's open step: told when it changes, the first one shown included. */
  step(step: TConsentStep): void;
  /** Where the immediate payment stands: each attempt's status told once. */
  payment(report: TPaymentReport): void;
  /** The payer declined the consent: told once. */
  declined(): void;
};

/**
 * The step, payment and decline messages of an embedded page (embed-message-names.ts): each once
 * per change however often a screen renders or says it again, and, as they carry the consent,
 * only to a parent on an origin the merchant registered (the embed bridge sees to it).
 */
export function useEmbedReports(
  embed: boolean,
  consentId: string,
  embedOrigins: readonly string[] | undefined,
  postToParent: TPostToParent,
): TEmbedReports {
  const told = useRef(new Set<string>());
  const lastStep = useRef<TConsentStep | null>(null);
  return useMemo(() => {
    const tell = (key: string | null, message: TEmbedMessage) => {
      if (!embed || (key && told.current.has(key))) return;
      if (key) told.current.add(key);
      postToParent(message, embedOrigins ?? []);
    };
    return {
      step(step) {
        if (lastStep.current === step) return;
        lastStep.current = step;
        tell(null, { type: EMBED_MESSAGE.stepChange, consentId, step });
      },
      payment({ paymentId, status, method, attempt }) {
        tell(`${consentId} payment ${paymentId} ${attempt} ${status}`, {
          type: EMBED_MESSAGE.paymentStatus,
          consentId,
          paymentId,
          status,
          ...(method ? { method } : {}),
        });
      },
      declined() {
        tell(`${consentId} declined`, { type: EMBED_MESSAGE.consentDeclined, consentId });
      },
    };
  }, [embed, consentId, embedOrigins, postToParent]);
}
