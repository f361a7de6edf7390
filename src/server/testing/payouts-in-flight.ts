import type { TDb } from '../db/database';
import { payouts } from '../db/schema';
import { book, ledgerAccount } from '../services/payments/ledger';

/** The account a test's payouts go to. */
export const TEST_PAYEE = {
  institutionCode: '058',
  accountNumber: '0123456789',
  accountName: 'TOLA STORES',
  bankName: 'Guaranty Trust Bank',
};

/**
 * A payout from `merchantId`'s wallet as releasing it makes one: its row naming `provider`, the
 * amount booked from the wallet into payouts in flight; left paying, not yet sent.
 */
export async function payoutInFlight(
  db: TDb,
  payout: { id: string; merchantId: string; provider: string; amount: number; now: Date },
): Promise<void> {
  const { id, merchantId, provider, amount, now } = payout;
  await db.transaction(async (tx) => {
    await tx.insert(payouts).values({
      id,
      payerId: merchantId,
      merchantId,
      ...TEST_PAYEE,
      amount,
      provider,
      createdAt: now,
      askedAt: now,
    });
    await book(tx, {
      kind: 'payout',
      reference: id,
      paymentId: null,
      attemptId: null,
      narration: 'Payment request collections released',
      entries: [
        { account: ledgerAccount.collectionWallet(merchantId), amount: -amount },
        { account: ledgerAccount.payoutsInFlight(), amount },
      ],
    });
  });
}
