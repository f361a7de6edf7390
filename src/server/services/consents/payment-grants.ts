import { consentMayMove } from '../../../domain/consent-lifecycle';
import { isGrantedByPayment } from '../../../domain/granted-by-payment';
import type { TConsentStatus } from '../../../domain/schemas/consent';
import type { TDb } from '../../db/database';
import type { TChangeRecords } from '../change-records';
import { loadConsent } from './consents';
import { grantRecord } from './consent-records';
import { moveConsent } from './consent-moves';

/*
 * A consent whose every request is met by its payment is granted by the payment
 * (src/domain/granted-by-payment.ts): called inside the transaction that executes the payment
 * (payments/attempts/completion.ts completeAttempt), after the payment row is executed, so the
 * payment and the grant commit together or not at all. A payer who closes the tab after paying
 * leaves the merchant a granted consent; the page's grant afterwards finds it granted and answers
 * the same (consent-grants.ts).
 *
 * What a grant by the page writes is answered here, for the completion to write with its own
 * records in one statement (change-records.ts): the consent's audit row ('consent.granted', with
 * no signature: the payment is the payer's act), the merchant's 'consent.granted' webhook, and the
 * bus's 'consent.granted', sent when the transaction commits. None when the payment grants nothing.
 */
export async function grantMetByPayment(
  tx: TDb,
  paid: { id: string; consentId: string },
  payer: {
    id: string | null;
    /** The consent's status as the completion's lock read it: not read again when no grant can follow. */
    consentStatus: TConsentStatus;
  },
  now: Date,
): Promise<TChangeRecords> {
  if (!consentMayMove(payer.consentStatus, 'grant')) return {};
  const payerId = payer.id;
  const found = await loadConsent(tx, paid.consentId);
  if (!found || !isGrantedByPayment(found.consent)) return {};
  // The requests a consent makes never change; its status may, so it moves in one statement.
  const row = await moveConsent(tx, paid.consentId, 'grant', {
    grantedAt: now,
    grantedBy: payerId,
  });
  if (!row) return {};
  const actor = payerId ? `payer:${payerId}` : 'payer:anonymous';
  return {
    consentEvents: [
      {
        consentId: paid.consentId,
        type: 'consent.granted',
        actor,
        data: {
          grantedBy: 'payment',
          dataTypes: [],
          immediatePaymentId: paid.id,
          immediateAccountId: null,
          formResponseId: null,
          futureAccountIds: [],
          originalRequestId: null,
          // What was shown, as a page grant keeps it; the payment was the payer's act, not a
          // signature.
          record: grantRecord(found.consent, {
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
        clientId: found.clientId,
        consentId: paid.consentId,
        type: 'consent.granted',
        data: {
          consentId: paid.consentId,
          grantedAt: now.toISOString(),
          immediatePaymentId: paid.id,
          dataTypes: [],
          payerAuthenticated: payerId !== null,
        },
      },
    ],
    busEvents: [
      {
        type: 'consent.granted',
        data: { consentId: paid.consentId, clientId: found.clientId, merchantId: row.merchantId },
      },
    ],
  };
}
