import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { TEncryptedCard } from '../../domain/schemas/card';
import type { TGrantRequest } from '../../domain/schemas/consent-api';
import type { TGrantCall } from '../../domain/schemas/grant';
import { apiFetch } from './http';

/**
 * Who acts on a payment (spec §6): a signed-in payer by their bearer token (apiFetch sends it),
 * or, without sign-in, the holder of the consent link, who names the consent.
 */
export type TPayer = { signedIn: boolean; consentId: string; clientId: string };

const paymentPath = (paymentId: string, payer: TPayer, tail = '') =>
  `/api/payments/${encodeURIComponent(paymentId)}${tail}${
    payer.signedIn ? '' : `?consentId=${encodeURIComponent(payer.consentId)}`
  }`;

/*
 * Every attempt this page makes without sign-in gives it a token (docs/payments.md "Who reads a
 * payment"): only with it does the page read and follow the payment, and answer a card charge's
 * OTP ("Who answers a charge"). The tab keeps them in session storage, so a reload still reads
 * the payment it paid and answers its OTP; another tab or device holds none.
 */
const chargeTokenKey = (paymentId: string) => `oya-money-charge:${paymentId}`;
// A one-time account opened without sign-in has its own token (docs/accounts.md "Linking from a
// payment"), kept apart so that a card tried meanwhile does not replace it; a chip purchase too.
const transferTokenKey = (paymentId: string) => `oya-money-transfer:${paymentId}`;
const chipTokenKey = (paymentId: string) => `oya-money-chip:${paymentId}`;
const heldTokens = new Map<string, string>();
// Told when the page gets a token: its payment's stream reopens to follow the new attempt.
const tokenListeners = new Set<() => void>();

function keepToken(key: string, token: string) {
  try {
    window.sessionStorage.setItem(key, token);
  } catch {
    heldTokens.set(key, token);
  }
  for (const listener of tokenListeners) listener();
}

function heldToken(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return heldTokens.get(key) ?? null;
  }
}

export const paymentQueryKey = (paymentId: string, payer: TPayer) =>
  ['payment', paymentId, payer.signedIn, payer.consentId] as const;

/**
 * GET /api/payments/{id}: where the payment stands when the page opens (a reload resumes from it),
 * read once per payment and payer; what happens after comes from the payment's stream.
 */
export function usePaymentQuery(paymentId: string, payer: TPayer, enabled: boolean) {
  return useQuery({
    queryKey: paymentQueryKey(paymentId, payer),
    enabled,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    queryFn: ({ signal }) => paymentsApi.read(paymentId, payer, signal),
  });
}

const keepChargeToken = (paymentId: string, token: string) =>
  keepToken(chargeTokenKey(paymentId), token);
const heldChargeToken = (paymentId: string) => heldToken(chargeTokenKey(paymentId));

/**
 * The tokens this tab holds for the payment, as `chargeToken=` pairs: a payment someone has
 * started paying is read and followed only by its payer, which a page without sign-in proves
 * with them (docs/payments.md "Who reads a payment").
 */
const heldTokenPairs = (paymentId: string): Array<[string, string]> =>
  [
    heldChargeToken(paymentId),
    heldToken(transferTokenKey(paymentId)),
    heldToken(chipTokenKey(paymentId)),
  ]
    .filter((token): token is string => token !== null)
    .map((token) => ['chargeToken', token]);

const onTokenKept = (listener: () => void) => {
  tokenListeners.add(listener);
  return () => void tokenListeners.delete(listener);
};

/**
 * The tokens this tab holds for the payment, as one string that changes when it gets another:
 * what the page follows the payment with.
 */
export function useHeldTokens(paymentId: string): string {
  return useSyncExternalStore(
    onTokenKept,
    () => new URLSearchParams(heldTokenPairs(paymentId)).toString(),
    () => '',
  );
}

/** Keeps the token a chip purchase made without sign-in gave this page. */
export const keepChipToken = (paymentId: string, token: string) =>
  keepToken(chipTokenKey(paymentId), token);

/** The immediate payment's calls (spec §7, docs/payments.md), typed by the domain schemas. */
export const paymentsApi = {
  /** GET /api/payments/{id}: where the payment stands, and its open one-time account. */
  read(paymentId: string, payer: TPayer, signal?: AbortSignal) {
    const tokens = new URLSearchParams(heldTokenPairs(paymentId)).toString();
    const path = paymentPath(paymentId, payer);
    const url = tokens ? `${path}${path.includes('?') ? '&' : '?'}${tokens}` : path;
    return apiFetch(url, { answer: 'ZPaymentStateResponse', signal });
  },
  /**
   * The one-time account to transfer to: the same one again while it is open. Without sign-in,
   * the page that opened it keeps its token and sends it when asking again.
   */
  async openTransfer(paymentId: string, payer: TPayer) {
    const held = payer.signedIn ? null : heldToken(transferTokenKey(paymentId));
    const answer = await apiFetch(paymentPath(paymentId, payer, '/transfer'), {
      method: 'POST',
      ...(held ? { body: { chargeToken: held } } : {}),
      answer: 'ZTransferDetailsResponse',
    });
    if (answer.chargeToken) keepToken(transferTokenKey(paymentId), answer.chargeToken);
    return answer;
  },
  /** The token of the one-time account this page opened without sign-in, or null. */
  transferTokenOf: (paymentId: string) => heldToken(transferTokenKey(paymentId)),
  /** 'I have made the transfer'. */
  confirmTransfer: (paymentId: string, payer: TPayer) =>
    apiFetch(paymentPath(paymentId, payer, '/transfer/confirm'), {
      method: 'POST',
      answer: 'ZTransferConfirmResponse',
    }),
  /**
   * Ends the payment's open 3-D Secure attempt (the payer chose another way to pay): the challenge
   * is refused from then on.
   */
  cancelAttempt(paymentId: string, payer: TPayer) {
    const chargeToken = payer.signedIn ? null : heldChargeToken(paymentId);
    return apiFetch(`/api/payments/${encodeURIComponent(paymentId)}/attempts/current/cancel`, {
      method: 'POST',
      body: {
        ...(payer.signedIn ? {} : { consentId: payer.consentId }),
        ...(chargeToken ? { chargeToken } : {}),
      },
      answer: 'ZCancelAttemptResponse',
    });
  },
  /** The key the card's fields are encrypted under in the browser (spec §7 Card encryption). */
  encryptionKey: () =>
    apiFetch('/api/encryption/public-key', { answer: 'ZEncryptionPublicKeyResponse' }),
  /** Pays with a new card: only envelopes leave the page, never a clear field. */
  async chargeCard(
    paymentId: string,
    payer: TPayer,
    cardDetails: TEncryptedCard,
    saveCard: boolean,
  ) {
    const answer = await apiFetch(
      payer.signedIn ? '/api/payments/card' : '/api/payments/card/public',
      {
        method: 'POST',
        body: {
          paymentId,
          cardDetails,
          saveCard,
          ...(payer.signedIn ? {} : { consentId: payer.consentId }),
        },
        answer: 'ZCardChargeResponse',
      },
    );
    if (answer.chargeToken) keepChargeToken(paymentId, answer.chargeToken);
    return answer;
  },
  /**
   * The PIN a card charge asked for (requiresPIN), sealed beside the card's envelopes that went
   * with the charge: the server gives it to the charge of that card, from this page.
   */
  submitCardPin(paymentId: string, payer: TPayer, cardDetails: TEncryptedCard) {
    const chargeToken = payer.signedIn ? null : heldChargeToken(paymentId);
    return apiFetch('/api/payments/card/pin', {
      method: 'POST',
      body: {
        paymentId,
        cardDetails,
        ...(payer.signedIn ? {} : { consentId: payer.consentId }),
        ...(chargeToken ? { chargeToken } : {}),
      },
      answer: 'ZCardChargeResponse',
    });
  },
  /**
   * The token of the card charge this page made without sign-in, or null: it answers the charge
   * and, once paid, lets the payer save its card after signing in (docs/accounts.md).
   */
  chargeTokenOf: (paymentId: string) => heldChargeToken(paymentId),
  /** Whether this page may answer the payment's waiting card charge (its OTP). */
  answersCharge: (paymentId: string, payer: TPayer) =>
    payer.signedIn || heldChargeToken(paymentId) !== null,
  /** The OTP the card's bank sent. */
  completeCard(paymentId: string, payer: TPayer, otp: string) {
    const chargeToken = payer.signedIn ? null : heldChargeToken(paymentId);
    return apiFetch('/api/payments/card/complete', {
      method: 'POST',
      body: {
        paymentId,
        otp,
        ...(payer.signedIn ? {} : { consentId: payer.consentId }),
        ...(chargeToken ? { chargeToken } : {}),
      },
      answer: 'ZCardCompleteResponse',
    });
  },
  grant: (consentId: string, body: TGrantCall | TGrantRequest) =>
    apiFetch(`/api/consent/${encodeURIComponent(consentId)}/grant`, {
      method: 'POST',
      body,
      answer: 'ZGrantResponse',
    }),
  /**
   * The URL of the payment's event stream (a ticket for a signed-in payer, else the link), sending
   * the events after `lastEventId`: a read's, so only what happened after it, or 0 for all.
   */
  async streamUrl(paymentId: string, payer: TPayer, lastEventId: number): Promise<string> {
    const base = `/api/events/payments/${encodeURIComponent(paymentId)}`;
    const query = new URLSearchParams({ lastEventId: String(lastEventId) });
    if (!payer.signedIn) {
      query.set('consentId', payer.consentId);
      query.set('clientId', payer.clientId);
      for (const [name, token] of heldTokenPairs(paymentId)) query.append(name, token);
      return `${base}?${query.toString()}`;
    }
    const { ticket } = await apiFetch('/api/events/tickets', {
      method: 'POST',
      body: { stream: 'payment', paymentId },
      answer: 'ZStreamTicketResponse',
    });
    query.set('ticket', ticket);
    return `${base}?${query.toString()}`;
  },
};
