import { useQuery } from '@tanstack/react-query';
import type {
  TAltServiceConfirmRequest,
  TCreateAccountLinkRequest,
  TLinkFromPaymentRequest,
} from '../../domain/schemas/account-link';
import type { TEncryptedCard, TSaveCardRequest } from '../../domain/schemas/card';
import { apiFetch, type TAnswerName } from './http';

/** The query key of the signed-in payer's accounts: a link or a delete refreshes it. */
export const USER_ACCOUNTS_KEY = ['accounts', 'user'] as const;

const post = <K extends TAnswerName>(path: string, answer: K, body?: unknown) =>
  apiFetch(path, { method: 'POST', body, answer });

/** One of the signed-in payer's own streams (spec §7 Event streams). */
export type TPayerStreamRequest =
  { stream: 'card-linking' } | { stream: 'account-link'; accountLinkId: string };

const payerStreamPath = (request: TPayerStreamRequest): string =>
  request.stream === 'card-linking'
    ? '/api/events/card-linking'
    : `/api/events/account-links/${encodeURIComponent(request.accountLinkId)}`;

/** The account-linking calls (spec §7, docs/accounts.md), typed by the domain schemas. */
export const accountsApi = {
  /** GET /api/accounts/user: the signed-in payer's accounts and how each is linked. */
  list: (signal?: AbortSignal) =>
    apiFetch('/api/accounts/user', { answer: 'ZUserAccountsResponse', signal }),
  /** Starts a search by number across banks; the results come on the validation's stream. */
  search: (accountNumber: string, signal?: AbortSignal) =>
    apiFetch(
      `/api/accounts/search?${new URLSearchParams({ by: 'bank', q: accountNumber, v: 'new' })}`,
      { answer: 'ZAccountSearchResponse', signal },
    ),
  createLink: (body: TCreateAccountLinkRequest) =>
    post('/api/account-links/create', 'ZCreateAccountLinkResponse', body),
  /** 'I've made the transfer': pending is an ordinary answer (spec §4). */
  confirmPayment: (accountLinkId: string) =>
    post(
      `/api/account-links/confirm-payment/${encodeURIComponent(accountLinkId)}`,
      'ZConfirmAccountLinkPaymentResponse',
    ),
  confirmAlt: (body: TAltServiceConfirmRequest) =>
    post('/api/transactionservicealt/confirm', 'ZAltServiceConfirmResponse', body),
  /** Links a card to the account: a test charge the server refunds at once (spec §2). */
  linkCard: (
    saveToAccount: { accountNumber: string; institutionCode: string },
    cardDetails: TEncryptedCard,
  ) =>
    post('/api/payments/card', 'ZCardChargeResponse', {
      saveCard: true,
      saveToAccount,
      cardDetails,
    }),
  completeCard: (paymentId: string, otp: string) =>
    post('/api/payments/card/complete', 'ZCardCompleteResponse', { paymentId, otp }),
  /** Links the account a transfer just paid from, by that payment: no second transfer. */
  linkFromPayment: (body: TLinkFromPaymentRequest) =>
    post('/api/account-links/from-payment', 'ZLinkFromPaymentResponse', body),
  /** Puts the card a payment was just paid with on one of the payer's accounts (spec §2). */
  saveCard: (body: TSaveCardRequest) => post('/api/payments/save-card', 'ZSaveCardResponse', body),
  /** Testers only: the server answers 404 unless its debug flag is on. */
  remove: (accountId: string) =>
    apiFetch(`/api/accounts/${encodeURIComponent(accountId)}`, {
      method: 'DELETE',
      answer: 'ZDeleteAccountResponse',
    }),
  /**
   * The URL of one of the payer's own streams, with a ticket just issued to them, sending the
   * events after `after`, or when it is null after where the stream stood at the ticket's issue
   * (only what happens after the page asked). Answers the position it asks from.
   */
  streamUrl: async (
    request: TPayerStreamRequest,
    after: number | null,
  ): Promise<{ url: string; after: number }> => {
    const issued = await post('/api/events/tickets', 'ZStreamTicketResponse', request);
    const from = after ?? issued.lastEventId;
    const query = new URLSearchParams({ ticket: issued.ticket, lastEventId: String(from) });
    return { url: `${payerStreamPath(request)}?${query.toString()}`, after: from };
  },
};

/** The signed-in payer's accounts (spec §2 'Loading Accounts...'). */
export function useUserAccounts(enabled: boolean) {
  return useQuery({
    queryKey: USER_ACCOUNTS_KEY,
    queryFn: ({ signal }) => accountsApi.list(signal),
    enabled,
    select: (answer) => answer.accounts,
  });
}
