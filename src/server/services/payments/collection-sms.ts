import { asc, eq } from 'drizzle-orm';
import { debitReceiptMessage, type TDebitOutcome } from '../../../domain/debit-notices';
import { formatNaira } from '../../../domain/money';
import { erasedPhoneNumber } from '../../../domain/payer-rights';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/database';
import { futurePaymentAccounts, futurePaymentCollections, payerAccounts } from '../../db/schema';
import type { TSmsOutbox } from '../../jobs/sms-job';
import { paymentSmsParties } from './payment-sms-parties';

/*
 * The payer's SMS after a collection of a future payment ends (docs/payer-consents.md "Told
 * before every debit"), each queued in the transaction that records the ending, through the
 * outbox, keyed on the collection: a collection ends once, so an ending recorded again (a runner
 * that took it over, a retried job) queues nothing more. A round short of funds is no ending: its
 * receipt comes with the round that ends it.
 */

type TCollectionRow = typeof futurePaymentCollections.$inferSelect;
type TAccount = typeof payerAccounts.$inferSelect;

/**
 * The account a receipt names: the one debited, else the first the collection is bound to (the
 * one its notice named).
 */
async function receiptAccount(tx: TDb, ended: TCollectionRow): Promise<TAccount | undefined> {
  const [account] = ended.accountId
    ? await tx.select().from(payerAccounts).where(eq(payerAccounts.id, ended.accountId))
    : await tx
        .select({ account: payerAccounts })
        .from(futurePaymentAccounts)
        .innerJoin(payerAccounts, eq(payerAccounts.id, futurePaymentAccounts.accountId))
        .where(eq(futurePaymentAccounts.paymentId, ended.paymentId))
        .orderBy(asc(futurePaymentAccounts.position))
        .limit(1)
        .then((rows) => rows.map((row) => row.account));
  return account;
}

/**
 * Queues on `tx` the payer's receipt of a collection that ended `outcome`: its SMS's id, for
 * sendQueuedSms after the commit. Nothing (null) when nobody is to tell (no account, no payer, a
 * number erased).
 */
export async function queueDebitReceipt(
  outbox: TSmsOutbox,
  tx: TDb,
  config: Pick<TConfig, 'productName'>,
  ended: TCollectionRow,
  outcome: TDebitOutcome,
): Promise<string | null> {
  const account = await receiptAccount(tx, ended);
  if (!account) return null;
  const found = await paymentSmsParties(tx, ended.paymentId, account.payerId);
  if (!found || found.phoneNumber === erasedPhoneNumber(account.payerId)) return null;
  return outbox.queue(tx, `debit-receipt:${ended.id}`, {
    phoneNumber: found.phoneNumber,
    body: debitReceiptMessage({
      productName: config.productName,
      merchantName: found.merchantName,
      amount: ended.amount,
      narration: found.narration,
      accountNumber: account.accountNumber,
      outcome,
      at: ended.completedAt ?? ended.updatedAt,
    }),
  });
}

/** The payer's SMS of a debit given back: who took how much, for what, and that it went back. */
export async function givenBackSms(
  tx: TDb,
  config: Pick<TConfig, 'productName'>,
  row: TCollectionRow,
  account: TAccount,
): Promise<{ phoneNumber: string; body: string }> {
  const found = await paymentSmsParties(tx, row.paymentId, account.payerId);
  if (!found) throw new Error(`Payment ${row.paymentId} has no payer to tell`);
  return {
    phoneNumber: found.phoneNumber,
    body:
      `${config.productName}: ${found.merchantName} debited ${formatNaira(row.amount)} for ` +
      `${found.narration} after it was cancelled. It has been sent back to your account.`,
  };
}
