import type { TSandboxTransferRequest } from '../../domain/schemas/sandbox';
import type { TAppContext } from '../context';
import type { TDb } from '../db/database';
import { expireVirtualAccount, receiveTransfer, sandboxSender } from './sandbox-bank';
import {
  creditLinkTestTransfer,
  expireLinkTestTransfer,
  isAccountLinkReference,
} from '../services/linking/account-links';
import { AppError } from '../services/app-error';
import {
  creditTransfer,
  expireTransferAttempt,
  noteReturnedTransfer,
} from '../services/payments/transfer-payments';

/*
 * The sandbox bank's notices to our payments (docs/sandbox.md): what a real provider sends as a
 * webhook, the sandbox delivers in the bank's own transaction, so a transfer is either credited
 * to a payment or returned to its sender, never both and never neither.
 */

type TSandboxContext = Pick<TAppContext, 'db' | 'clock' | 'sandbox'>;

/**
 * POST /api/sandbox/transfers: a payer's bank sends money to a one-time account, issued either
 * for a payment or for an account link's test transfer (its reference says which).
 */
export async function sendSandboxTransfer(ctx: TSandboxContext, transfer: TSandboxTransferRequest) {
  if (!ctx.sandbox) throw new AppError('NOT_FOUND');
  const now = ctx.clock.now();
  // A transfer without `from` comes from a sender the notice does not name.
  const sender = transfer.from ? await sandboxSender(ctx.db, transfer.from) : null;
  if (transfer.from && !sender) {
    throw new AppError(
      'VALIDATION_FAILED',
      'from: the sandbox bank holds no test account with this number at this bank',
    );
  }
  const received = { accountNumber: transfer.accountNumber, amount: transfer.amount, sender };
  return receiveTransfer(
    ctx.db,
    ctx.clock,
    received,
    (tx: TDb, reference, amount, from) =>
      isAccountLinkReference(reference)
        ? creditLinkTestTransfer(tx, reference, amount, from, now)
        : creditTransfer(tx, reference, amount, from, now),
    async (tx: TDb, reference, amount, reason) => {
      if (!isAccountLinkReference(reference)) {
        await noteReturnedTransfer(tx, reference, amount, reason, now);
      }
    },
  );
}

/** 'Expire this account now': the account takes no more money, and its attempt or link ends. */
export async function expireSandboxAccount(ctx: TSandboxContext, accountNumber: string) {
  if (!ctx.sandbox) throw new AppError('NOT_FOUND');
  const expired = await expireVirtualAccount(ctx.db, ctx.clock, accountNumber);
  if (!expired) throw new AppError('NOT_FOUND', 'No open one-time account has this number');
  if (isAccountLinkReference(expired.reference)) {
    await expireLinkTestTransfer(ctx.db, expired.reference, ctx.clock.now());
  } else {
    await expireTransferAttempt(ctx.db, expired.reference, ctx.clock.now());
  }
  return { success: true as const, expiresAt: expired.expiresAt.toISOString() };
}
