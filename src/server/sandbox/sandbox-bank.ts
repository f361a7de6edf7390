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
  TTransferReturnReason,
  TTransferSender,
} from '../providers/payments';
import { bankName } from './bank-directory';
import { SANDBOX_BANKS, SANDBOX_TRANSFER_BANK_CODE } from './fixtures';
import { findSandboxAccount } from './sandbox-people';

/*
 * The sandbox bank's transfer side (docs/sandbox.md "Transfers"): one-time accounts that take one
 * transfer of an exact amount before they expire, and the transfers "sent" to them. Every
 * transfer is recorded with what became of it: received, its notice owed to us until we answer
 * it (sandbox-notices.ts), then credited, or returned to its sender when we give it back, so
 * nothing is lost and nothing is counted twice.
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

const RETURNED: Record<TTransferReturnReason, TSandboxTransferOutcome> = {
  expired: 'returned_expired',
  already_paid: 'returned_already_paid',
  wrong_amount: 'returned_wrong_amount',
  not_from_account: 'returned_not_from_account',
};

/** The provider's reference of a transfer, as its notice names it; and back. */
export const transferProviderReference = (id: number) => `sbx_trf_${id}`;
const transferIdOf = (providerReference: string): number | null => {
  const match = /^sbx_trf_(\d{1,15})$/.exec(providerReference);
  return match?.[1] ? Number(match[1]) : null;
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
  received:
    'Received by the bank: its notice to the payment is not answered yet, and is sent again until it is.',
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
 * A transfer reaching the sandbox bank, recorded in the bank's own statement. Money for an
 * account the bank never issued goes back at once; anything else is 'received': its notice to
 * us is owed (sandbox-notices.ts), and our answer decides whether it is credited or returned.
 * The bank judges nothing else (amount, expiry, an account paid): like a provider's webhook, the
 * notice tells us, and our one completion path decides. Answers the transfer's id.
 */
export async function receiveTransfer(
  db: TDb,
  clock: TClock,
  transfer: { accountNumber: string; amount: number; sender: TTransferSender | null },
): Promise<{ id: number; outcome: TSandboxTransferOutcome }> {
  const now = clock.now();
  const [account] = await db
    .select({ reference: sandboxVirtualAccounts.reference })
    .from(sandboxVirtualAccounts)
    .where(eq(sandboxVirtualAccounts.accountNumber, transfer.accountNumber));
  const [row] = await db
    .insert(sandboxTransfers)
    .values({
      accountNumber: transfer.accountNumber,
      amount: transfer.amount,
      outcome: account ? 'received' : 'returned_unknown_account',
      reference: account?.reference ?? null,
      senderInstitutionCode: transfer.sender?.institutionCode ?? null,
      senderAccountNumber: transfer.sender?.accountNumber ?? null,
      // Sent right after this by whoever received it: claimed for that send.
      noticeSentAt: account ? now : null,
      createdAt: now,
    })
    .returning({ id: sandboxTransfers.id, outcome: sandboxTransfers.outcome });
  if (!row) throw new Error('The sandbox bank could not record a transfer');
  return row;
}

/**
 * Our answer 2xx to a transfer's notice, without a return: the money stays, credited, and the
 * one-time account it reached takes no more. One transaction; a transfer returned meanwhile, or
 * answered before, keeps what it has. Answers the transfer's outcome.
 */
export async function creditAnsweredTransfer(
  db: TDb,
  clock: TClock,
  id: number,
): Promise<TSandboxTransferOutcome | null> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [credited] = await tx
      .update(sandboxTransfers)
      .set({ outcome: 'credited' })
      .where(and(eq(sandboxTransfers.id, id), eq(sandboxTransfers.outcome, 'received')))
      .returning({ accountNumber: sandboxTransfers.accountNumber });
    if (credited) {
      await tx
        .update(sandboxVirtualAccounts)
        .set({ status: 'paid', paidAt: now })
        .where(
          and(
            eq(sandboxVirtualAccounts.accountNumber, credited.accountNumber),
            eq(sandboxVirtualAccounts.status, 'open'),
          ),
        );
      return 'credited';
    }
    const [current] = await tx
      .select({ outcome: sandboxTransfers.outcome })
      .from(sandboxTransfers)
      .where(eq(sandboxTransfers.id, id));
    return current?.outcome ?? null;
  });
}

/**
 * TTransfersInPort.returnTransfer: sends a received transfer back to its sender, for `reason`.
 * Repeating it answers the same; a transfer already credited (our notice answered without a
 * return) is not the bank's to send back any more, and refuses.
 */
export async function returnSandboxTransfer(
  db: TDb,
  request: { reference: string; providerReference: string; reason: TTransferReturnReason },
): Promise<{ returned: true }> {
  const id = transferIdOf(request.providerReference);
  if (id === null) throw new Error(`No sandbox transfer ${request.providerReference}`);
  const [returned] = await db
    .update(sandboxTransfers)
    .set({ outcome: RETURNED[request.reason] })
    .where(
      and(
        eq(sandboxTransfers.id, id),
        eq(sandboxTransfers.reference, request.reference),
        eq(sandboxTransfers.outcome, 'received'),
      ),
    )
    .returning({ id: sandboxTransfers.id });
  if (returned) return { returned: true };
  const [current] = await db
    .select({ outcome: sandboxTransfers.outcome })
    .from(sandboxTransfers)
    .where(and(eq(sandboxTransfers.id, id), eq(sandboxTransfers.reference, request.reference)));
  if (current?.outcome.startsWith('returned_')) return { returned: true };
  throw new Error(`Sandbox transfer ${request.providerReference} cannot be returned`);
}

/** What a person reads of a transfer's outcome (POST /api/sandbox/transfers). */
export const transferOutcomeMessage = (outcome: TSandboxTransferOutcome) =>
  OUTCOME_MESSAGES[outcome];

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
