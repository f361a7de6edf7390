import { ERROR_CATALOGUE, type TApiErrorBody } from './errors';
import type { TGrantResponse } from './schemas/consent-api';
import type { TConsent } from './schemas/consent';

export type TGrantOutcome =
  | { kind: 'success' }
  | {
      kind: 'failed';
      /** What the payer reads on the page. */
      message: string;
      /** The error reported to the embedding parent (oya-money-consent-failed). */
      parentError: string;
    };

/**
 * The outcome of a grant (spec §4 Grant outcome). Without immediate payments a successful grant
 * is a success. With them, success needs paymentResults.failed to be exactly 0; a missing count
 * is not proof that money moved, so it fails too. A failed debit shows 'Some payments failed.
 * Please try again.' to the payer and reports the result's error, or 'Direct debit payment
 * failed', to the parent.
 */
export function grantOutcome(
  consent: TConsent,
  result: TGrantResponse | TApiErrorBody,
): TGrantOutcome {
  if (!result.success) {
    const message = result.error.message || ERROR_CATALOGUE.CONSENT_GRANT_FAILED.message;
    return { kind: 'failed', message, parentError: message };
  }
  if (!consent.payments.some((p) => p.type === 'immediate')) return { kind: 'success' };
  if (result.paymentResults?.failed === 0) return { kind: 'success' };
  return {
    kind: 'failed',
    message: ERROR_CATALOGUE.SOME_PAYMENTS_FAILED.message,
    parentError: result.error || ERROR_CATALOGUE.DIRECT_DEBIT_FAILED.message,
  };
}
