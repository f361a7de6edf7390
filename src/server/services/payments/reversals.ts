import { and, eq, isNotNull } from 'drizzle-orm';
import type { TPaymentMethod } from '../../../domain/constants';
import { reversalExpectedBy, type TRefundChannel } from '../../../domain/refund-clocks';
import type { TPayerRefund } from '../../../domain/schemas/refunds';
import type { TDb } from '../../db/database';
import { futurePaymentCollections, paymentAttempts, payments } from '../../db/schema';

/*
 * Money we give back ourselves, as the payer reads it beside the merchant's refunds on /consents
 * and the SMS receipt's page, each with the date it should reach them (domain/refund-clocks.ts
 * reversalExpectedBy): a debit a bank made after its payment was cancelled, given back when its
 * collection ended (future-collections.ts giveBack), and a charge that reached a payment paid
 * another way, owed and then given back (attempts/settlements.ts giveBack).
 */

/** How an attempt's money goes back: a card's or chip's through the card scheme, a debit's to the account. */
const CHANNEL_OF_METHOD: Readonly<Record<TPaymentMethod, TRefundChannel>> = {
  card: 'card',
  chip_card: 'card',
  account: 'debit',
  bank_transfer: 'transfer',
};

/** A consent's reversals (the caller orders them with the refunds). */
export async function reversalsOfConsent(db: TDb, consentId: string): Promise<TPayerRefund[]> {
  const c = futurePaymentCollections;
  const debits = await db
    .select({ id: c.id, paymentId: c.paymentId, amount: c.amount, givenBackAt: c.completedAt })
    .from(c)
    .where(
      and(
        eq(c.consentId, consentId),
        eq(c.status, 'cancelled'),
        isNotNull(c.providerReference),
        isNotNull(c.completedAt),
      ),
    );
  const a = paymentAttempts;
  const charges = await db
    .select({
      id: a.id,
      paymentId: payments.id,
      amount: a.amount,
      method: a.method,
      refund: a.refund,
      since: a.updatedAt,
    })
    .from(a)
    .innerJoin(payments, eq(payments.id, a.paymentId))
    .where(and(eq(payments.consentId, consentId), isNotNull(a.refund)));
  return [
    ...debits.map((debit) =>
      reversal(debit, 'debit', 'processed', debit.givenBackAt ?? new Date(0)),
    ),
    ...charges.map((charge) =>
      reversal(
        charge,
        CHANNEL_OF_METHOD[charge.method],
        charge.refund === 'settled' ? 'processed' : 'pending',
        charge.since,
      ),
    ),
  ];
}

function reversal(
  row: { id: string; paymentId: string; amount: number },
  channel: TRefundChannel,
  status: TPayerRefund['status'],
  since: Date,
): TPayerRefund {
  return {
    refundId: row.id,
    paymentId: row.paymentId,
    amount: row.amount,
    status,
    createdAt: since.toISOString(),
    kind: 'reversal',
    channel,
    expectedBy: reversalExpectedBy({ channel, since }),
  };
}
