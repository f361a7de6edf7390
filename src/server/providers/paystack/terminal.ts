import { paystackNoAnswer, paystackPath, type TPaystackAnswer } from './paystack-calls';
import { ProviderNoAnswer } from '../provider-call';
import {
  WITHDRAWN_REASON,
  type TPaymentRequestAsked,
  type TPaymentRequestOutcome,
  type TPushTerminalPort,
  type TTerminalPushAnswer,
  type TTerminalPresence,
} from '../payments';
import { PaymentRequestNotWithdrawn } from '../../../domain/pushed-terminal';
import { fromPaystackReference, toPaystackReference } from './paystack-references';
import {
  NEVER_ARRIVED,
  PAYSTACK_PAYER_EMAIL,
  takenInNaira,
  type TPaystack,
} from './paystack-shared';
import { giveBack } from './refunds';

/*
 * Paystack Terminal's push payment requests (docs/providers/paystack-terminal.md; Paystack's
 * "Push Payment Requests" guide and PaystackOSS/openapi paths paymentrequest*.yaml and
 * terminal*.yaml):
 *
 *  1. GET  /terminal/{id}/presence      { online, available }: asked before a push, so a payer
 *                                        is never left waiting at a terminal that is off
 *  2. POST /paymentrequest              { customer, amount, currency, description,
 *                                        send_notification: false }: the request, `pending`,
 *                                        with its `request_code` (our provider reference) and
 *                                        the `offline_reference` the terminal is sent
 *  3. POST /terminal/{id}/event         { type: invoice, action: process, data: { id,
 *                                        reference: offline_reference } }: shown on the terminal
 *  4. paymentrequest.success (notice), read from GET /paymentrequest/{request_code} (Fetch
 *     Payment Request): paid, with the `transactions` paying it; a refund names that
 *     transaction, never the request (Create Refund's `transaction`)
 *  5. POST /paymentrequest/archive/{id}   called off unpaid: withdrawn, so that no card pays it
 *                                        any more. An archived request is not listed and cannot
 *                                        be verified (Paystack's words), but Fetch still shows
 *                                        it (`archived`), so it is read by Fetch throughout
 *
 * Paystack takes no reference of ours on a payment request and does not refuse a second one
 * alike: ours is written at the end of its description, and before a request is created the
 * requests of our customer made since the attempt began are looked through for it, so a push
 * repeated after a lost answer shows the same request again. Paystack's docs name no notice of a
 * card declined at the terminal: a request Paystack marks `failed` is read as declined by a
 * requery; one left `pending` is waited on.
 */

/** The customer every payment request is made for (Paystack requires one; payers@example.com). */
const customerCodes = new WeakMap<TPaystack, string>();

async function customerCode(ps: TPaystack): Promise<string> {
  const known = customerCodes.get(ps);
  if (known) return known;
  // Create Customer answers the customer of this email when it exists already.
  const answer = await ps.client.write<{ customer_code: string }>('/customer', {
    email: PAYSTACK_PAYER_EMAIL,
  });
  if (!answer.ok) throw paystackNoAnswer('Create Customer', answer.message);
  customerCodes.set(ps, answer.data.customer_code);
  return answer.data.customer_code;
}

/** The payment request as Paystack's create, list and verify calls show it (the fields we read). */
export type TPaystackPaymentRequest = {
  id: number;
  request_code: string;
  offline_reference: string;
  amount: number;
  currency?: string;
  status: string;
  paid?: boolean;
  description?: string | null;
  /**
   * Fetch only (PaystackOSS/openapi PaymentRequestViewResponse `transactions`, items not
   * described): the transactions that paid it, read by their `reference` and `status`.
   */
  transactions?: Array<{ id?: number; reference?: string; status?: string }> | null;
  /** Fetch only: archived (Archive Payment Request). */
  archived?: boolean;
};

/** How our reference closes a payment request's description: what finds it again. */
const referenceMark = (reference: string) => `(ref ${toPaystackReference(reference)})`;

/** Our reference, from a payment request's description that ends with its mark; else null. */
export function referenceOfDescription(description: string | null | undefined): string | null {
  const [, written] = /\(ref ([A-Za-z0-9.=-]+)\)$/.exec(description ?? '') ?? [];
  return written ? fromPaystackReference(written) : null;
}

/** How far before the attempt began a request of it is looked for (clocks differ). */
const LOOK_BACK_MS = 5 * 60 * 1_000;

/** The payment request made for our reference since `createdAt`, if any. */
async function requestOfReference(
  ps: TPaystack,
  reference: string,
  createdAt: Date,
): Promise<TPaystackPaymentRequest | null> {
  const mark = referenceMark(reference);
  const requests = ps.client.list<TPaystackPaymentRequest>('/paymentrequest', {
    customer: await customerCode(ps),
    from: new Date(createdAt.getTime() - LOOK_BACK_MS).toISOString(),
    to: new Date(ps.clock.now().getTime() + LOOK_BACK_MS).toISOString(),
  });
  for await (const request of requests) {
    if (request.description?.endsWith(mark)) return request;
  }
  return null;
}

/**
 * The reference of the transaction a paid payment request produced, as a give-back verifies and
 * refunds it; null where Paystack lists none that succeeded, or lists it without its reference
 * (its id alone is not found by Verify, so a give-back asked again after a lost answer could not
 * find the first and would refund twice): the request is then asked about again.
 */
function paidTransaction(request: TPaystackPaymentRequest): string | null {
  const paid = (request.transactions ?? []).find((t) => (t.status ?? 'success') === 'success');
  return paid?.reference || null;
}

/**
 * What a payment request Paystack holds says of the money, as a requery does. Paid, its
 * transaction must be known (a refund names it): a paid request that lists none yet is not read
 * now, but asked about again (thrown as no answer).
 */
export function paymentRequestOutcome(request: TPaystackPaymentRequest): TPaymentRequestOutcome {
  if (request.status === 'success' || request.paid === true) {
    if (!takenInNaira(request)) {
      return {
        kind: 'not_taken',
        providerReference: request.request_code,
        reason: `taken in ${request.currency ?? 'no currency named'}, not naira`,
      };
    }
    const transaction = paidTransaction(request);
    if (!transaction) {
      throw paystackNoAnswer(
        `the transaction of payment request ${request.request_code}`,
        'paid, and no transaction listed yet',
      );
    }
    // The payment request names no card: the terminal's receipt does.
    return {
      kind: 'taken',
      providerReference: request.request_code,
      amount: request.amount,
      givenBack: false,
      card: null,
      transaction,
    };
  }
  if (request.status === 'failed') {
    return { kind: 'not_taken', providerReference: request.request_code, reason: 'declined' };
  }
  return { kind: 'pending', awaiting: null, providerReference: request.request_code };
}

/**
 * Paystack's record of a payment request by its code (Fetch Payment Request: its transactions,
 * and archived ones too, which Verify no longer answers).
 */
export async function fetchedPaymentRequest(
  ps: TPaystack,
  requestCode: string,
): Promise<TPaystackPaymentRequest | null> {
  const answer = await ps.client.read<TPaystackPaymentRequest>(
    paystackPath`/paymentrequest/${requestCode}`,
  );
  if (answer.ok) return answer.data;
  if (answer.httpStatus === 404) return null;
  throw paystackNoAnswer(`fetch the payment request ${requestCode}`, answer.message);
}

/** The payment request of our reference: by its code where known, else found in the window. */
async function requestAsked(
  ps: TPaystack,
  { reference, providerReference, createdAt }: TPaymentRequestAsked,
): Promise<TPaystackPaymentRequest | null> {
  const code =
    providerReference ?? (await requestOfReference(ps, reference, createdAt))?.request_code;
  // Never created: the push's answer was lost before Paystack made it.
  return code ? fetchedPaymentRequest(ps, code) : null;
}

/**
 * Withdraws a payment request still unpaid (Archive Payment Request), then reads it again: a card
 * taken meanwhile is what it says. Withdrawn, it reads as not taken.
 */
async function withdrawn(ps: TPaystack, asked: TPaymentRequestAsked) {
  const request = await requestAsked(ps, asked);
  if (!request) return NEVER_ARRIVED;
  const before = paymentRequestOutcome(request);
  if (before.kind !== 'pending') return before;
  if (!request.archived) {
    // Only the archive call failing is thrown as not withdrawn (the payment may then be called
    // off all the same); a read failing before or after it is thrown as it is, so the payment
    // stays charging and a card taken meanwhile is not recorded as called off.
    const call = `archive the payment request ${request.request_code}`;
    let archived: TPaystackAnswer<unknown>;
    try {
      archived = await ps.client.write<unknown>(
        paystackPath`/paymentrequest/archive/${String(request.id)}`,
        {},
      );
    } catch (error) {
      if (!(error instanceof ProviderNoAnswer)) throw error;
      throw new PaymentRequestNotWithdrawn(error.message, { cause: error });
    }
    if (!archived.ok) {
      throw new PaymentRequestNotWithdrawn(`Paystack refused to ${call}: ${archived.message}`);
    }
  }
  const after = await fetchedPaymentRequest(ps, request.request_code);
  const outcome = after ? paymentRequestOutcome(after) : before;
  return outcome.kind === 'pending'
    ? {
        kind: 'not_taken' as const,
        providerReference: request.request_code,
        reason: WITHDRAWN_REASON,
      }
    : outcome;
}

export function paystackTerminal(ps: TPaystack): TPushTerminalPort {
  return {
    kind: 'push',
    provider: 'paystack-terminal',

    async terminalPresence(terminalId): Promise<TTerminalPresence> {
      const answer = await ps.client.read<{ online: boolean; available: boolean }>(
        paystackPath`/terminal/${terminalId}/presence`,
      );
      if (!answer.ok) {
        if (answer.httpStatus === 404) return 'unknown';
        throw paystackNoAnswer(`the presence of terminal ${terminalId}`, answer.message);
      }
      if (!answer.data.online) return 'offline';
      return answer.data.available ? 'ready' : 'busy';
    },

    async pushPaymentRequest({
      reference,
      terminalId,
      amount,
      description,
      createdAt,
    }): Promise<TTerminalPushAnswer> {
      let request = await requestOfReference(ps, reference, createdAt);
      if (!request) {
        const created = await ps.client.write<TPaystackPaymentRequest>('/paymentrequest', {
          customer: await customerCode(ps),
          amount,
          currency: 'NGN',
          description: `${description} ${referenceMark(reference)}`,
          // The payer is at the terminal: no invoice by email.
          send_notification: false,
        });
        // A 4xx (5xx and no answer are thrown by the client): nothing was made.
        if (!created.ok) return { kind: 'refused', at: 'request', reason: created.message };
        request = created.data;
      }
      const sent = await ps.client.write<{ id: string }>(
        paystackPath`/terminal/${terminalId}/event`,
        {
          type: 'invoice',
          action: 'process',
          data: { id: request.id, reference: request.offline_reference },
        },
      );
      // Made, and never shown: it waits at Paystack where no card can reach it.
      if (!sent.ok) return { kind: 'refused', at: 'terminal', reason: sent.message };
      return { kind: 'pushed', providerReference: request.request_code };
    },

    async requeryPaymentRequest(asked) {
      const request = await requestAsked(ps, asked);
      return request ? paymentRequestOutcome(request) : NEVER_ARRIVED;
    },

    withdrawPaymentRequest: (asked) => withdrawn(ps, asked),

    // A refund of the transaction the request produced; our reference in its merchant note makes
    // asking again answer the same refund (refunds.ts).
    givePaymentBack: ({ transaction, amount, reference }) =>
      giveBack(ps, { transaction, amount, reference, reason: null }),
  };
}
