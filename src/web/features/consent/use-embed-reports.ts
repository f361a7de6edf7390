import { useMemo, useRef } from 'react';
import type { TConsentStep } from '../../../domain/consent-steps';
import { EMBED_MESSAGE } from '../../../domain/embed-message-names';
import type { TEmbedMessage } from '../../../domain/embed-messages';
import type { TEmbedReports, TPostToParent } from '../../contracts/consent-slots';

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
