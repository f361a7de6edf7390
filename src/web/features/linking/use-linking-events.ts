import { useEffect, useEffectEvent, useState } from 'react';
import {
  ACCOUNT_LINK_PROGRESS_EVENT,
  ZAccountLinkProgressEvent,
  type TAccountLinkProgressEvent,
} from '../../../domain/schemas/account-link';
import { ZCardLinkingEvent, type TCardLinkingEvent } from '../../../domain/schemas/card';
import { accountsApi } from '../../api/accounts';

const CARD_LINKING_EVENTS: readonly TCardLinkingEvent['event'][] = [
  'card_linking_success',
  'card_linking_error',
  'card_linking_progress',
  'card_linking_failed',
];

type TStream = {
  /** Which stream: a new id opens a new stream. */
  id: string;
  /** The stream's URL, with a ticket just issued to this payer. */
  open(): Promise<string>;
  events: readonly string[];
};

/**
 * Follows one of the payer's own streams while `active`: each event's data goes to `onData`.
 * EventSource reconnects by itself and resumes after the last event id; `reconnect` opens it
 * anew with a fresh ticket (the 3-D Secure wait's Reconnect button, spec §2).
 */
function usePayerStream(stream: TStream | null, onData: (data: unknown) => void) {
  const handle = useEffectEvent(onData);
  const [attempt, setAttempt] = useState(0);
  const key = stream?.id ?? null;
  const open = stream?.open;
  const events = stream?.events;

  useEffect(() => {
    if (!open || !events) return;
    let closed = false;
    let source: EventSource | null = null;
    open().then(
      (url) => {
        if (closed) return;
        source = new EventSource(url);
        for (const name of events) {
          source.addEventListener(name, (message) => handle(JSON.parse(String(message.data))));
        }
      },
      () => undefined,
    );
    return () => {
      closed = true;
      source?.close();
    };
    // `key` stands for the stream's identity; `open` is rebuilt each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, attempt]);

  return { reconnect: () => setAttempt((n) => n + 1) };
}

/** The card-linking stream of the signed-in payer (spec §7), while a card is being linked. */
export function useCardLinkingEvents(active: boolean, onEvent: (event: TCardLinkingEvent) => void) {
  return usePayerStream(
    active
      ? {
          id: 'card-linking',
          open: async () =>
            `/api/events/card-linking?ticket=${encodeURIComponent(
              await accountsApi.streamTicket({ stream: 'card-linking' }),
            )}`,
          events: CARD_LINKING_EVENTS,
        }
      : null,
    (data) => {
      const parsed = ZCardLinkingEvent.safeParse(data);
      if (parsed.success) onEvent(parsed.data);
    },
  );
}

/** An account link's progress (spec §7): completed or failed, while the payer waits on it. */
export function useAccountLinkProgress(
  accountLinkId: string | null,
  onEvent: (event: TAccountLinkProgressEvent) => void,
) {
  return usePayerStream(
    accountLinkId
      ? {
          id: accountLinkId,
          open: async () =>
            `/api/events/account-links/${encodeURIComponent(accountLinkId)}?ticket=${encodeURIComponent(
              await accountsApi.streamTicket({ stream: 'account-link', accountLinkId }),
            )}`,
          events: [ACCOUNT_LINK_PROGRESS_EVENT],
        }
      : null,
    (data) => {
      const parsed = ZAccountLinkProgressEvent.safeParse(data);
      if (parsed.success) onEvent(parsed.data);
    },
  );
}
