import { randomInt } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { nubanCheckDigit } from '../../domain/nuban';
import { oneTimeAccountExpiry } from '../../domain/transfer-details';
import type { TSandboxTransferOutcome } from '../../domain/schemas/sandbox';
import type { TClock } from '../clock';
import type { TDb } from '../db/database';
import { sandboxTransfers, sandboxVirtualAccounts } from '../db/schema';
import type {
  TTransferAccount,
  TTransferNoticeAnswer,
  TTransferReturnReason,
  TTransferSender,
} from '../providers/payments';
import { bankName } from './bank-directory';
import { SANDBOX_BANKS, SANDBOX_TRANSFER_BANK_CODE } from './fixtures';
import { findSandboxAccount } from './sandbox-people';

/*
 * The sandbox bank's transfer side (docs/sandbox.md "Transfers"): one-time accounts that take one
 * transfer of an exact amount before they expire, and the transfers "sent" to them. Every
 * transfer is recorded with what became of it; one that cannot be credited goes back to its
 * sender, so nothing is lost and nothing is counted twice.
 */

const transferBank = SANDBOX_BANKS.find((b) => b.institutionCode === SANDBOX_TRANSFER_BANK_CODE);
if (!transferBank) throw new Error('The sandbox has no transfer bank');
export const SANDBOX_TRANSFER_BANK_NAME = transferBank.name;

/** A fresh NUBAN of the transfer bank. */
function newAccountNumber(): string {
  const serial = String(randomInt(0, 1_000_000_000)).padStart(9, '0');
  return serial + (nubanCheckDigit(SANDBOX_TRANSFER_BANK_CODE, serial) ?? '0');
}

export async function openVirtualAccount(
  db: TDb,
  clock: TClock,
  {
    notAfter,
    ...request
  }: { reference: string; amount: number; accountName: string; notAfter?: Date },
): Promise<TTransferAccount> {
  const expiresAt = oneTimeAccountExpiry(clock.now(), notAfter);
  // The same reference asks for the same account (a retried call); a number already taken is
  // drawn again.
  for (let tries = 0; tries < 5; tries += 1) {
    const [opened] = await db
      .insert(sandboxVirtualAccounts)
      .values({ accountNumber: newAccountNumber(), ...request, expiresAt })
      .onConflictDoNothing()
      .returning();
    const row =
      opened ??
      (
        await db
          .select()
          .from(sandboxVirtualAccounts)
          .where(eq(sandboxVirtualAccounts.reference, request.reference))
      )[0];
    if (row) {
      return {
        bankName: SANDBOX_TRANSFER_BANK_NAME,
        accountNumber: row.accountNumber,
        accountName: row.accountName,
        expiresAt: row.expiresAt,
      };
    }
  }
  throw new Error('No free one-time account number could be drawn');
}

/**
 * What the bank tells us when money reaches an open one-time account, with its sender when the
 * notice names one: we take it, or say why the bank must return it.
 */
export type TCreditHandler = (
  tx: TDb,
  reference: string,
  amount: number,
  sender: TTransferSender | null,
) => Promise<TTransferNoticeAnswer>;

/** The bank's record of a transfer we did not take, by our reason. */
/** What the bank decided alone, by the account's own state, and tells the account's owner. */
const BANK_RETURNS: Partial<
  Record<TSandboxTransferOutcome, 'expired' | 'already_paid' | 'wrong_amount'>
> = {
  returned_expired: 'expired',
  returned_already_paid: 'already_paid',
  returned_wrong_amount: 'wrong_amount',
};

/**
 * The bank's notice that it sent a transfer into one of our accounts back without asking us (the
 * account was closed: paid, expired; or the amount was wrong), as a real provider's webhook of a
 * returned transfer: the payment learns its payer's money went back.
 */
export type TReturnHandler = (
  tx: TDb,
  reference: string,
  amount: number,
  reason: 'expired' | 'already_paid' | 'wrong_amount',
) => Promise<void>;

const RETURNED: Record<TTransferReturnReason, TSandboxTransferOutcome> = {
  expired: 'returned_expired',
  already_paid: 'returned_already_paid',
  wrong_amount: 'returned_wrong_amount',
  not_from_account: 'returned_not_from_account',
};

/**
 * The test account a transfer is sent from (fixture or minted), as the notice names it; null if
 * the bank holds none.
 */
export async function sandboxSender(
  db: TDb,
  from: { institutionCode: string; accountNumber: string },
): Promise<TTransferSender | null> {
  const account = await findSandboxAccount(db, from);
  const name = account ? bankName(account.institutionCode) : null;
  if (!account || !name) return null;
  return {
    institutionCode: account.institutionCode,
    bankName: name,
    accountNumber: account.accountNumber,
    accountName: account.accountName,
  };
}

const OUTCOME_MESSAGES: Record<TSandboxTransferOutcome, string> = {
  credited: 'Transfer received: the payment is complete.',
  returned_wrong_amount:
    'Returned to the sender: the amount is not the one this account was issued for.',
  returned_expired: 'Returned to the sender: this one-time account has expired.',
  returned_already_paid: 'Returned to the sender: this payment has already been made.',
  returned_unknown_account: 'Returned to the sender: there is no such one-time account.',
  returned_not_from_account:
    'Returned to the sender: a test transfer must come from the account being linked.',
};

/**
 * A transfer reaching the sandbox bank. The account's row is locked while it is judged, so two
 * transfers to one account are judged one after the other: the first one we take is credited,
 * every other one returned to its sender with the reason, and recorded either way. Our side
 * takes the money (`credit`) in the same transaction. A transfer we refuse leaves the account
 * open for the right one.
 */
export async function receiveTransfer(
  db: TDb,
  clock: TClock,
  transfer: { accountNumber: string; amount: number; sender: TTransferSender | null },
  credit: TCreditHandler,
  returned?: TReturnHandler,
): Promise<{ outcome: TSandboxTransferOutcome; message: string }> {
  const now = clock.now();
  const outcome = await db.transaction(async (tx) => {
    const [account] = await tx
      .select()
      .from(sandboxVirtualAccounts)
      .where(eq(sandboxVirtualAccounts.accountNumber, transfer.accountNumber))
      .for('update');
    let result: TSandboxTransferOutcome;
    let askedUs = false;
    if (!account) result = 'returned_unknown_account';
    else if (account.status === 'paid') result = 'returned_already_paid';
    else if (account.expiresAt.getTime() <= now.getTime()) result = 'returned_expired';
    else if (account.amount !== transfer.amount) result = 'returned_wrong_amount';
    else {
      askedUs = true;
      const answer = await credit(tx, account.reference, transfer.amount, transfer.sender);
      if (answer.taken) {
        await tx
          .update(sandboxVirtualAccounts)
          .set({ status: 'paid', paidAt: now })
          .where(eq(sandboxVirtualAccounts.accountNumber, account.accountNumber));
        result = 'credited';
      } else result = RETURNED[answer.reason];
    }
    // Sent back by the bank alone: told to us after (what we refused we know already).
    const told = BANK_RETURNS[result];
    if (account && !askedUs && told && returned) {
      await returned(tx, account.reference, transfer.amount, told);
    }
    await tx.insert(sandboxTransfers).values({
      accountNumber: transfer.accountNumber,
      amount: transfer.amount,
      outcome: result,
      senderInstitutionCode: transfer.sender?.institutionCode ?? null,
      senderAccountNumber: transfer.sender?.accountNumber ?? null,
      createdAt: now,
    });
    return result;
  });
  return { outcome, message: OUTCOME_MESSAGES[outcome] };
}

/** Expires an open one-time account now ('Expire this account now' on /sandbox). */
export async function expireVirtualAccount(
  db: TDb,
  clock: TClock,
  accountNumber: string,
): Promise<{ reference: string; expiresAt: Date } | null> {
  const now = clock.now();
  const [row] = await db
    .update(sandboxVirtualAccounts)
    .set({ expiresAt: now })
    .where(
      and(
        eq(sandboxVirtualAccounts.accountNumber, accountNumber),
        eq(sandboxVirtualAccounts.status, 'open'),
        sql`${sandboxVirtualAccounts.expiresAt} > ${now.toISOString()}`,
      ),
    )
    .returning({
      reference: sandboxVirtualAccounts.reference,
      expiresAt: sandboxVirtualAccounts.expiresAt,
    });
  return row ?? null;
}
