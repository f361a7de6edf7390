import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import { isFromAccount } from '../../../domain/account-ownership';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import type { TDb } from '../../db/database';
import { accountLinks, payerAccounts } from '../../db/schema';
import type { TTransferSender } from '../../providers/payments';
import { OPENED_ELSEWHERE, type TCreditAnswer } from '../payments/transfer-payments';
import { book, ledgerAccount } from '../payments/ledger';
import { isOpen, MANDATE_TRANSITIONS } from '../../../domain/schemas/mandate-transitions';
import { emitProgress, activateLink } from './link-lifecycle';

/*
 * A link's test transfer to its one-time account (docs/accounts.md): the provider's notice of the
 * money, which activates the link only when it came from that very account, and the account's
 * early expiry, which expires the link.
 */

/**
 * The provider's notice that a link's one-time account received its test transfer, inside the
 * transaction that applies the notice (`tx`, services/payments/provider-notices.ts). The transfer proves the payer owns the account only when it came from that
 * very account (its bank, its number, the holder the name enquiry found): then the link becomes
 * active, and the amount is booked in and refunded to the payer at once. Any other sender, or
 * none named, goes back to its sender with its reason and the link stays open for the right one;
 * so is a transfer the link cannot take (not open, expired, another amount, linked meanwhile).
 */
export async function creditLinkTestTransfer(
  tx: TDb,
  reference: string,
  amount: number,
  sender: TTransferSender | null,
  now: Date,
  /** The provider whose notice it is: only the one the link names holds its account's money. */
  from: string,
): Promise<TCreditAnswer> {
  const [row] = await tx
    .select({ link: accountLinks, account: payerAccounts })
    .from(accountLinks)
    .innerJoin(payerAccounts, eq(payerAccounts.id, accountLinks.accountId))
    .where(and(eq(accountLinks.id, reference), eq(accountLinks.route, 'test_transfer')));
  // A link made before it named its provider takes the word of any.
  const openedBy = row?.link.testTransferProvider ?? null;
  if (openedBy !== null && openedBy !== from) return OPENED_ELSEWHERE;
  if (row?.link.state === MANDATE_TRANSITIONS.expire.to) return { taken: false, reason: 'expired' };
  if (!row || !isOpen(row.link.state)) return { taken: false, reason: 'already_paid' };
  if (row.link.expiresAt.getTime() <= now.getTime()) return { taken: false, reason: 'expired' };
  if (row.link.testAmount !== amount) return { taken: false, reason: 'wrong_amount' };
  if (!isFromAccount(sender, row.account)) return { taken: false, reason: 'not_from_account' };
  const activated = await activateLink(
    tx,
    reference,
    now,
    and(eq(accountLinks.route, 'test_transfer'), eq(accountLinks.testAmount, amount)),
  );
  // Expired or ended in the meantime: the one statement that activates decides.
  if (!activated) return { taken: false, reason: 'already_paid' };
  const payer = ledgerAccount.payerSource('bank_transfer');
  const held = ledgerAccount.linkTestTransfers();
  const movement = { reference, paymentId: null, attemptId: null } as const;
  await book(tx, {
    ...movement,
    kind: 'link_test_transfer',
    narration: 'Account link test transfer',
    entries: [
      { account: payer, amount: -amount },
      { account: held, amount },
    ],
  });
  await book(tx, {
    ...movement,
    kind: 'link_test_transfer_refund',
    narration: 'Account link test transfer refunded',
    entries: [
      { account: held, amount: -amount },
      { account: payer, amount },
    ],
  });
  return { taken: true };
}

/**
 * A link's one-time account expired early ('Expire this account now'), on the word of `from`, the
 * provider that told of it: the link expires too, if that provider opened the account (or the link
 * does not name who did). Answers whether the link expired now.
 */
export async function expireLinkTestTransfer(
  db: TDb,
  reference: string,
  now: Date,
  from: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(accountLinks)
      .set({ state: MANDATE_TRANSITIONS.expire.to, expiresAt: now, updatedAt: now })
      .where(
        and(
          eq(accountLinks.id, reference),
          inArray(accountLinks.state, [...MANDATE_TRANSITIONS.expire.from]),
          or(
            isNull(accountLinks.testTransferProvider),
            eq(accountLinks.testTransferProvider, from),
          ),
        ),
      )
      .returning({ id: accountLinks.id });
    if (!row) return false;
    await emitProgress(tx, {
      accountLinkId: row.id,
      status: 'failed',
      message: ERROR_CATALOGUE.ACCOUNT_LINK_EXPIRED.message,
    });
    return true;
  });
}
