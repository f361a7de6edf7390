import type { TSandboxTransferRequest } from '../../domain/schemas/sandbox';
import type { TAppContext } from '../context';
import {
  expireVirtualAccount,
  receiveTransfer,
  sandboxSender,
  transferOutcomeMessage,
} from './sandbox-bank';
import type { TSandboxNotices } from './sandbox-notices';
import { AppError } from '../app-error';

/*
 * The sandbox bank's transfers, as a payer's bank sends them (docs/sandbox.md "Transfers"). The
 * bank records the transfer, then tells us by a signed notice through our notices route, as a
 * real provider's webhook does (sandbox-notices.ts): our answer credits it or returns it to its
 * sender, never both and never neither.
 */

type TSandboxContext = Pick<TAppContext, 'db' | 'clock' | 'sandbox'>;

/**
 * POST /api/sandbox/transfers: a payer's bank sends money to a one-time account, issued either
 * for a payment or for an account link's test transfer (its reference says which). Answers what
 * became of it once its notice was answered; 'received' while the notice is still owed.
 */
export async function sendSandboxTransfer(
  ctx: TSandboxContext,
  notices: TSandboxNotices,
  transfer: TSandboxTransferRequest,
) {
  if (!ctx.sandbox) throw new AppError('NOT_FOUND');
  // A transfer without `from` comes from a sender the notice does not name.
  const sender = transfer.from ? await sandboxSender(ctx.db, transfer.from) : null;
  if (transfer.from && !sender) {
    throw new AppError(
      'VALIDATION_FAILED',
      'from: the sandbox bank holds no test account with this number at this bank',
    );
  }
  const received = await receiveTransfer(ctx.db, ctx.clock, {
    accountNumber: transfer.accountNumber,
    amount: transfer.amount,
    sender,
  });
  const outcome = (await notices.sendTransferNotice(received.id)) ?? received.outcome;
  return { outcome, message: transferOutcomeMessage(outcome) };
}

/**
 * 'Expire this account now': the account takes no more money, and the bank tells us by its
 * notice, which ends the account's attempt or link in our completion path.
 */
export async function expireSandboxAccount(
  ctx: TSandboxContext,
  notices: TSandboxNotices,
  accountNumber: string,
) {
  if (!ctx.sandbox) throw new AppError('NOT_FOUND');
  const expired = await expireVirtualAccount(ctx.db, ctx.clock, accountNumber);
  if (!expired) throw new AppError('NOT_FOUND', 'No open one-time account has this number');
  await notices.sendAccountExpiredNotice(expired.reference);
  return { success: true as const, expiresAt: expired.expiresAt.toISOString() };
}
