import type {
  TCardSummary,
  TPushTerminalPort,
  TTerminalPushAnswer,
  TRequeryOutcome,
  TTerminalPresence,
} from '../payments';
import { PaystackNoAnswer, segment } from './paystack-client';
import { fromPaystackReference, toPaystackReference } from './paystack-references';
import {
  NEVER_ARRIVED,
  PAYSTACK_PAYER_EMAIL,
  takenInNaira,
  type TPaystack,
} from './paystack-shared';

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
 *  4. paymentrequest.success (notice) or GET /paymentrequest/verify/{request_code}: paid
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
  if (!answer.ok) throw new PaystackNoAnswer('Create Customer', answer.message);
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

/** What a payment request Paystack holds says of the money, as a requery does. */
export function paymentRequestOutcome(
  request: TPaystackPaymentRequest,
): TRequeryOutcome<{ card: TCardSummary | null }> {
  if (request.status === 'success' || request.paid === true) {
    if (!takenInNaira(request)) {
      return {
        kind: 'not_taken',
        providerReference: request.request_code,
        reason: `taken in ${request.currency ?? 'no currency named'}, not naira`,
      };
    }
    // The payment request names no card: the terminal's receipt does.
    return {
      kind: 'taken',
      providerReference: request.request_code,
      amount: request.amount,
      givenBack: false,
      card: null,
    };
  }
  if (request.status === 'failed') {
    return { kind: 'not_taken', providerReference: request.request_code, reason: 'declined' };
  }
  return { kind: 'pending', awaiting: null, providerReference: request.request_code };
}

/** Paystack's record of a payment request by its code (Verify Payment Request). */
export async function verifiedPaymentRequest(
  ps: TPaystack,
  requestCode: string,
): Promise<TPaystackPaymentRequest | null> {
  const answer = await ps.client.read<TPaystackPaymentRequest>(
    `/paymentrequest/verify/${segment(requestCode)}`,
  );
  if (answer.ok) return answer.data;
  if (answer.httpStatus === 404) return null;
  throw new PaystackNoAnswer(`verify the payment request ${requestCode}`, answer.message);
}

export function paystackTerminal(ps: TPaystack): TPushTerminalPort {
  return {
    kind: 'push',
    provider: 'paystack-terminal',

    async terminalPresence(terminalId): Promise<TTerminalPresence> {
      const answer = await ps.client.read<{ online: boolean; available: boolean }>(
        `/terminal/${segment(terminalId)}/presence`,
      );
      if (!answer.ok) {
        if (answer.httpStatus === 404) return 'unknown';
        throw new PaystackNoAnswer(`the presence of terminal ${terminalId}`, answer.message);
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
      const sent = await ps.client.write<{ id: string }>(`/terminal/${segment(terminalId)}/event`, {
        type: 'invoice',
        action: 'process',
        data: { id: request.id, reference: request.offline_reference },
      });
      // Made, and never shown: it waits at Paystack where no card can reach it.
      if (!sent.ok) return { kind: 'refused', at: 'terminal', reason: sent.message };
      return { kind: 'pushed', providerReference: request.request_code };
    },

    async requeryPaymentRequest({ reference, providerReference, createdAt }) {
      const code =
        providerReference ?? (await requestOfReference(ps, reference, createdAt))?.request_code;
      // Never created: the push's answer was lost before Paystack made it.
      if (!code) return NEVER_ARRIVED;
      const request = await verifiedPaymentRequest(ps, code);
      return request ? paymentRequestOutcome(request) : NEVER_ARRIVED;
    },
  };
}
