import { eq } from 'drizzle-orm';
import type { TDb } from '../../db/database';
import { consents, merchants, payers, payments } from '../../db/schema';

/**
 * Who an SMS about a payment goes to and what it names: the payer's number, the payment's
 * narration and its merchant's name (a debit's notice, a debit given back). Undefined when the
 * payment or the payer is gone.
 */
export async function paymentSmsParties(
  tx: TDb,
  paymentId: string,
  payerId: string,
): Promise<{ phoneNumber: string; narration: string; merchantName: string } | undefined> {
  const [found] = await tx
    .select({
      phoneNumber: payers.phoneNumber,
      narration: payments.narration,
      merchantName: merchants.name,
    })
    .from(payments)
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .innerJoin(merchants, eq(merchants.id, consents.merchantId))
    .innerJoin(payers, eq(payers.id, payerId))
    .where(eq(payments.id, paymentId));
  return found;
}
