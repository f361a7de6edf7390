import { queryOptions, useQuery } from '@tanstack/react-query';
import type {
  TChipPurchaseRequest,
  TTerminalPushRequest,
} from '../../domain/schemas/card-terminal';
import type { TSandboxTerminalReadRequest } from '../../domain/schemas/sandbox';
import { ApiError } from './api-error';
import { apiFetch } from './http';
import { keepChipToken, type TPayer } from './payments';

/** The chip-card terminal's calls (spec §7, docs/terminal.md), typed by the domain schemas. */
export const cardTerminalApi = {
  /** The reader's terminal and merchant ids, by the serial it reports. */
  fetchKeys: (serial: string) =>
    apiFetch('/api/card-terminal/raven/fetch-keys', {
      method: 'POST',
      body: { serial },
      answer: 'ZTerminalFetchKeysResponse',
    }),
  /**
   * The reader's data for the consent's immediate payment; refusals throw ApiError. Without
   * sign-in, the page keeps the purchase's token, with which it reads and follows the payment.
   */
  async chipPurchase(body: TChipPurchaseRequest) {
    const answer = await apiFetch('/api/card-terminal/raven/chip-purchase', {
      method: 'POST',
      body,
      answer: 'ZChipPurchaseResponse',
    });
    if (answer.chargeToken) keepChipToken(body.paymentId, answer.chargeToken);
    return answer;
  },
  /** The merchant's terminals a payment can be paid at (a pushed terminal's: Paystack Terminal). */
  paymentTerminals: (paymentId: string, payer: TPayer, signal?: AbortSignal) =>
    apiFetch(
      `/api/card-terminal/paystack/terminals?${new URLSearchParams({
        paymentId,
        ...(payer.signedIn ? {} : { consentId: payer.consentId }),
      }).toString()}`,
      { answer: 'ZPaymentTerminalsResponse', signal },
    ),
  /**
   * Sends the payment to one of them; refusals throw ApiError. Without sign-in, the page keeps
   * the attempt's token, with which it follows the payment until the terminal's answer.
   */
  async pushToTerminal(body: TTerminalPushRequest) {
    const answer = await apiFetch('/api/card-terminal/paystack/push', {
      method: 'POST',
      body,
      answer: 'ZTerminalPushResponse',
    });
    if (answer.chargeToken) keepChipToken(body.paymentId, answer.chargeToken);
    return answer;
  },
  /** The sandbox reader: what a reader would hand over for a test card and PIN. */
  sandboxRead: (body: TSandboxTerminalReadRequest) =>
    apiFetch('/api/sandbox/terminal/read', {
      method: 'POST',
      body,
      answer: 'ZSandboxTerminalReadResponse',
    }),
};

/**
 * The sandbox network's published fixtures, or null when the sandbox is off (its routes answer
 * 404 then): whether the sandbox reader exists, and its readers and chip test cards.
 */
export const sandboxFixturesQuery = queryOptions({
  queryKey: ['sandbox-fixtures'],
  queryFn: async ({ signal }) => {
    try {
      return await apiFetch('/api/sandbox/fixtures', {
        answer: 'ZSandboxFixturesResponse',
        signal,
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  },
  staleTime: Infinity,
  retry: false,
});

export function useSandboxFixtures() {
  return useQuery(sandboxFixturesQuery);
}
