import type { TApiErrorBody } from './errors';
import { PAGE_ERRORS } from './page-errors';
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
 * The outcome of a grant (spec §4 Grant outcome). Without immediate payments a successful grant is
 * a success. With them, success needs paymentResults.failed to be exactly 0; a missing count is not
 * proof that money moved, so it fails too. A failed payment reports the result's error, or 'Direct
 * debit payment failed', to the parent, and the payer reads the bank's reason (the result's error,
 * 'Direct debit payment failed: Insufficient funds') before 'Some payments failed. Please try
 * again.': without it the payer cannot tell a refusal worth retrying from one that is not.
 */
export function grantOutcome(
  consent: TConsent,
  result: TGrantResponse | TApiErrorBody,
): TGrantOutcome {
  if (!result.success) {
    const message = result.error.message || PAGE_ERRORS.CONSENT_GRANT_FAILED.message;
    return { kind: 'failed', message, parentError: message };
  }
  if (!consent.payments.some((p) => p.type === 'immediate')) return { kind: 'success' };
  if (result.paymentResults?.failed === 0) return { kind: 'success' };
  const someFailed = PAGE_ERRORS.SOME_PAYMENTS_FAILED.message;
  return {
    kind: 'failed',
    message: result.error ? `${result.error}. ${someFailed}` : someFailed,
    parentError: result.error || PAGE_ERRORS.DIRECT_DEBIT_FAILED.message,
  };
}
