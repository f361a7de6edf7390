import { useEffect, useEffectEvent, useRef, useState } from 'react';
import {
  ACCOUNT_LINK_PROGRESS_EVENT,
  ZAccountLinkProgressEvent,
  type TAccountLinkProgressEvent,
} from '../../../domain/schemas/account-link';
import { ZCardLinkingEvent, type TCardLinkingEvent } from '../../../domain/schemas/card';
import { accountsApi, type TPayerStreamRequest } from '../../api/accounts';

const CARD_LINKING_EVENTS: readonly TCardLinkingEvent['event'][] = [
  'card_linking_success',
  'card_linking_error',
  'card_linking_progress',
  'card_linking_failed',
];

type TStream = {
  /** Which stream: a new id opens a new stream. */
  id: string;
  request: TPayerStreamRequest;
  /**
   * Where an opening starts: the stream's `start`, for a stream that is one attempt's own, made
   * by this page; or where it stood when the page `asked`, for a stream the payer's attempts
   * share, so nothing that happened before (an earlier link) is heard.
   */
  from: 'start' | 'asked';
  events: readonly string[];
};

/**
 * Follows one of the payer's own streams while `active`: each event's data goes to `onData`.
 * EventSource reconnects by itself and resumes after the last event id; `reconnect` opens it
 * anew with a fresh ticket (the 3-D Secure wait's Reconnect button, spec §2), after the last
 * event heard, so what came while it was lost is heard and nothing twice.
 */
function usePayerStream(stream: TStream | null, onData: (data: unknown) => void) {
  const handle = useEffectEvent(onData);
  const [attempt, setAttempt] = useState(0);
  // The last event heard (or the position opened from), and by which opening of which stream.
  const heard = useRef<{ key: string; attempt: number; id: number } | null>(null);
  const key = stream?.id ?? null;
  const request = stream?.request;
  const from = stream?.from;
  const events = stream?.events;

  useEffect(() => {
    if (key === null || !request || !events) return;
    const last = heard.current;
    // A Reconnect resumes where the last opening was; any other opening starts as `from` says.
    const after =
      last && last.key === key && last.attempt < attempt ? last.id : from === 'start' ? 0 : null;
    let closed = false;
    let source: EventSource | null = null;
    accountsApi.streamUrl(request, after).then(
      (opened) => {
        if (closed) return;
        heard.current = { key, attempt, id: opened.after };
        source = new EventSource(opened.url);
        for (const name of events) {
          source.addEventListener(name, (message) => {
            const id = Number(message.lastEventId);
            if (Number.isSafeInteger(id) && id > 0) heard.current = { key, attempt, id };
            handle(JSON.parse(String(message.data)));
          });
        }
      },
      () => undefined,
    );
    return () => {
      closed = true;
      source?.close();
    };
    // `key` stands for the stream's identity; `request` is rebuilt each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, attempt]);

  return { reconnect: () => setAttempt((n) => n + 1) };
}

/**
 * The card-linking stream of the signed-in payer (spec §7), while a card is being linked: from
 * where it stood when the panel asked, since every card link of the payer's is on it.
 */
export function useCardLinkingEvents(active: boolean, onEvent: (event: TCardLinkingEvent) => void) {
  return usePayerStream(
    active
      ? {
          id: 'card-linking',
          request: { stream: 'card-linking' },
          from: 'asked',
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
          // The link the panel just made: all of its stream is this attempt's.
          request: { stream: 'account-link', accountLinkId },
          from: 'start',
          events: [ACCOUNT_LINK_PROGRESS_EVENT],
        }
      : null,
    (data) => {
      const parsed = ZAccountLinkProgressEvent.safeParse(data);
      if (parsed.success) onEvent(parsed.data);
    },
  );
}
