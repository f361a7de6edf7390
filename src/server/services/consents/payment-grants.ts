import { consentMayMove } from '../../../domain/consent-lifecycle';
import { isGrantedByPayment } from '../../../domain/granted-by-payment';
import type { TConsent } from '../../../domain/schemas/consent';
import type { TChangeRecords } from '../change-records';
import { grantRecord } from './consent-records';

/*
 * A consent whose every request is met by its payment is granted by the payment
 * (src/domain/granted-by-payment.ts), in the statement that executes the payment
 * (payments/attempts/moves.ts payAttempt), so the payment and the grant commit together or not at
 * all. A payer who closes the tab after paying leaves the merchant a granted consent; the page's
 * grant afterwards finds it granted and answers the same (consent-grants.ts).
 *
 * The completion (payments/attempts/completion.ts completeAttempt) reads the consent with its
 * lock, while it may still be granted, and asks here whether its payment grants it; the statement
 * grants it only if it is still pending then. What a grant by the page writes is made here
 * from that read, for the completion to write with its own records in one statement
 * (change-records.ts): the consent's audit row ('consent.granted', with no signature: the payment
 * is the payer's act), the merchant's 'consent.granted' webhook, and the bus's 'consent.granted',
 * sent when the transaction commits.
 */

/** The consent as it reads once payment `paymentId` of it is executed. */
const withExecuted = (consent: TConsent, paymentId: string): TConsent => ({
  ...consent,
  payments: consent.payments.map((p) =>
    p.paymentId === paymentId ? { ...p, status: 'executed' } : p,
  ),
});

/**
 * Whether executing payment `paymentId` grants `consent`, read before it executes: the consent
 * may still be granted, and every request it makes is met once the payment is executed.
 */
export const paymentGrants = (consent: TConsent, paymentId: string): boolean =>
  consentMayMove(consent.status, 'grant') && isGrantedByPayment(withExecuted(consent, paymentId));

/**
 * The records of `consent`'s grant by its payment `paid`, whose execution granted it; `clientId`
 * is the client the consent belongs to.
 */
export function paymentGrantRecords(
  consent: TConsent,
  clientId: string,
  paid: { paymentId: string; payerId: string | null },
  now: Date,
): TChangeRecords {
  const { consentId } = consent;
  const { paymentId, payerId } = paid;
  const actor = payerId ? `payer:${payerId}` : 'payer:anonymous';
  return {
    consentEvents: [
      {
        consentId,
        type: 'consent.granted',
        actor,
        data: {
          grantedBy: 'payment',
          dataTypes: [],
          immediatePaymentId: paymentId,
          immediateAccountId: null,
          formResponseId: null,
          futureAccountIds: [],
          originalRequestId: null,
          // What was shown, as a page grant keeps it; the payment was the payer's act, not a
          // signature.
          record: grantRecord(withExecuted(consent, paymentId), {
            payerId,
            channel: null,
            authentication: 'none',
            grantedAt: now,
          }),
          signature: null,
        },
        createdAt: now,
      },
    ],
    merchantEvents: [
      {
        clientId,
        consentId,
        type: 'consent.granted',
        data: {
          consentId,
          grantedAt: now.toISOString(),
          immediatePaymentId: paymentId,
          dataTypes: [],
          payerAuthenticated: payerId !== null,
        },
      },
    ],
    busEvents: [
      {
        type: 'consent.granted',
        data: { consentId, clientId, merchantId: consent.counterparty.merchantId },
      },
    ],
  };
}
