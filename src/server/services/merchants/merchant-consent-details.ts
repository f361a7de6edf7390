import { asc, eq, inArray, min } from 'drizzle-orm';
import { mandateTypeOf } from '../../../domain/schemas/account-link';
import type {
  TMerchantConsentFormResponse,
  TMerchantConsentMandate,
  TMerchantSharedData,
} from '../../../domain/schemas/merchant-api';
import type { TDb } from '../../db/database';
import {
  accountLinks,
  formResponses,
  futurePaymentAccounts,
  payerAccounts,
  payments,
} from '../../db/schema';
import { sharedBvnStates } from './shared-bvn-states';

/*
 * What the merchant's consent read adds to the consent itself: the mandates of the accounts the
 * payer chose for its future payments, where its form response is (docs/webhooks.md has the
 * events that announce both), and what of the payer's data it shares now.
 */

export type TMerchantConsentDetails = {
  mandates: TMerchantConsentMandate[];
  formResponse: TMerchantConsentFormResponse | null;
  sharedData: TMerchantSharedData;
};

/** The details of each of `consentIds`, in their order: four queries for a whole page. */
export async function merchantConsentDetails(
  db: TDb,
  consentIds: readonly string[],
): Promise<TMerchantConsentDetails[]> {
  if (consentIds.length === 0) return [];
  const ids = [...consentIds];
  // Every future payment of a consent is bound to the same accounts in the same order.
  const position = min(futurePaymentAccounts.position);
  const [mandates, responses, bvnStates] = await Promise.all([
    db
      .select({
        consentId: payments.consentId,
        mandateId: accountLinks.id,
        accountId: payerAccounts.id,
        bankName: payerAccounts.bankName,
        accountNumber: payerAccounts.accountNumber,
        route: accountLinks.route,
        status: accountLinks.state,
      })
      .from(futurePaymentAccounts)
      .innerJoin(payments, eq(payments.id, futurePaymentAccounts.paymentId))
      .innerJoin(payerAccounts, eq(payerAccounts.id, futurePaymentAccounts.accountId))
      .innerJoin(accountLinks, eq(accountLinks.id, futurePaymentAccounts.mandateId))
      .where(inArray(payments.consentId, ids))
      .groupBy(payments.consentId, accountLinks.id, payerAccounts.id)
      .orderBy(asc(position)),
    db
      .select({
        consentId: formResponses.consentId,
        formId: formResponses.formId,
        formResponseId: formResponses.id,
        submittedAt: formResponses.submittedAt,
      })
      .from(formResponses)
      .where(inArray(formResponses.consentId, ids)),
    sharedBvnStates(db, ids),
  ]);
  return ids.map((consentId, i) => {
    const response = responses.find((r) => r.consentId === consentId);
    return {
      mandates: mandates
        .filter((m) => m.consentId === consentId)
        .map((m) => ({
          mandateId: m.mandateId,
          accountId: m.accountId,
          bankName: m.bankName,
          accountNumberLast4: m.accountNumber.slice(-4),
          mandateType: mandateTypeOf(m.route),
          status: m.status,
        })),
      formResponse: response
        ? {
            formId: response.formId,
            formResponseId: response.formResponseId,
            submittedAt: response.submittedAt?.toISOString() ?? null,
          }
        : null,
      sharedData: { bvn: bvnStates[i] ?? null },
    };
  });
}
