import { useEffect, useEffectEvent, useRef } from 'react';
import type { TPaymentStatusEvent } from '../../../domain/schemas/payment';
import { eventOfRead } from '../../../domain/pay-now-server-news';
import { paymentsApi, useHeldTokens, type TPayer } from '../../api/payments';

/** How often the payment is asked for while its stream is lost. */
const POLL_MS = 3_000;

/**
 * Follows a payment while `active` (spec §7 payment status stream), from the events after
 * `lastEventId` (the payment's read: the page shows that read, and hears what came after it); it
 * waits while that is null. Each `payment_status` event goes to `onEvent`. EventSource reconnects
 * by itself, resuming after the last event id; when it gives up (the server refused it), the page
 * asks the payment's status every few seconds instead, so a payer is never left watching a ring
 * that cannot move.
 *
 * Without sign-in, the stream carries only the attempts whose tokens the page sent when opening
 * it (docs/payments.md "Who reads a payment"): when the page gets a token (a card charged, an
 * account opened, a chip purchase), the stream is opened again with it, after the last event
 * heard, so the new attempt's events come, those heard already do not.
 */
export function usePaymentEvents(
  paymentId: string,
  payer: TPayer,
  active: boolean,
  lastEventId: number | null,
  onEvent: (event: TPaymentStatusEvent) => void,
) {
  const handle = useEffectEvent(onEvent);
  const { signedIn, consentId, clientId } = payer;
  const held = useHeldTokens(paymentId);
  // A signed-in payer's stream opens with a ticket, which names them, not the page's tokens.
  const tokens = signedIn ? '' : held;
  // The id of the last event heard on this payment's stream, where a reopened stream resumes.
  const heard = useRef<{ paymentId: string; id: number } | null>(null);

  useEffect(() => {
    if (!active || lastEventId === null) return;
    const resumeAfter = heard.current?.paymentId === paymentId ? heard.current.id : 0;
    let closed = false;
    let source: EventSource | null = null;
    let poll: ReturnType<typeof setInterval> | null = null;
    const who = { signedIn, consentId, clientId };

    const startPolling = () => {
      if (poll || closed) return;
      poll = setInterval(() => {
        paymentsApi.read(paymentId, who).then(
          (state) => {
            const event = eventOfRead(state);
            if (!closed && event) handle(event);
          },
          () => undefined,
        );
      }, POLL_MS);
    };

    // The events' schema loads with the stream's ticket, not with the screen (its first paint
    // parses nothing).
    Promise.all([
      paymentsApi.streamUrl(paymentId, who, Math.max(lastEventId, resumeAfter)),
      import('../../../domain/schemas/payment'),
    ]).then(
      ([url, { ZPaymentStatusEvent }]) => {
        if (closed) return;
        source = new EventSource(url);
        source.addEventListener('payment_status', (message) => {
          const id = Number(message.lastEventId);
          if (Number.isSafeInteger(id) && id > 0) heard.current = { paymentId, id };
          const parsed = ZPaymentStatusEvent.safeParse(JSON.parse(String(message.data)));
          if (parsed.success) handle(parsed.data);
        });
        source.addEventListener('error', () => {
          if (source?.readyState === EventSource.CLOSED) startPolling();
        });
      },
      () => startPolling(),
    );
    return () => {
      closed = true;
      source?.close();
      if (poll) clearInterval(poll);
    };
  }, [active, lastEventId, paymentId, signedIn, consentId, clientId, tokens]);
}
