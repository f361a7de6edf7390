import { and, eq, or, sql } from 'drizzle-orm';
import { ACCOUNT_LINKED_MESSAGE } from '../../../domain/constants';
import { isFromAccount } from '../../../domain/account-ownership';
import type {
  TLinkFromPaymentRequest,
  TLinkFromPaymentResponse,
} from '../../../domain/schemas/account-link';
import type { TAppContext } from '../../context';
import { capabilitiesOn } from '../../providers/capability-lines';
import type { TDb } from '../../db/database';
import { accountLinks, paymentAttempts, payments } from '../../db/schema';
import { AppError } from '../../app-error';
import { ownedByPage } from '../payments/charge-owners';
import { debitProviderOfNewLinks } from '../payments/mandate-debits';
import { isUniqueViolation } from '../../db/database-errors';
import { holderOfAccount, type TOwnerLookups } from './account-owners';
import { assertAccountUnderPayersBvn } from './bvn-ownership';
import { usable } from '../../providers/off';
import {
  type TLinkContext,
  moveLink,
  emitProgress,
  liveLinkConflict,
  newLinkId,
} from './link-lifecycle';
import { findAccountAtBank, addPayerAccount } from './account-at-bank';
import { routeFor } from './link-routes';

/*
 * Linking an account a paid payment proves (docs/accounts.md "Linking from a payment"): the
 * account a transfer came from, or the card that paid, linked at once with no second proof.
 */

/**
 * POST /api/account-links/from-payment (docs/accounts.md "Linking from a payment"): links the
 * account a transfer just paid from, with no second transfer: the payment is the test transfer's
 * proof, a transfer from that very account as its bank named the sender. Only for the payer who
 * paid: the signed-in payer who opened the one-time account, or, for one opened without sign-in,
 * the signed-in payer whose page holds its token; and only if that account was handed to no one
 * else. Anyone else, or an unknown payment, is 404. The account linked is the sender's (an
 * account named in the request must be it), its bank must still name the sender's holder (else 403 PAYMENT_NOT_PROOF_OF_ACCOUNT), and its bank must
 * link by transfer (else ACCOUNT_LINKS_BY_MANDATE, ACCOUNT_LINKS_BY_CARD or ACCOUNT_NOT_SUPPORTED,
 * for the panel's own route). The link is made `active` in one transaction with its event, and
 * the payment's origin stops offering the account; the one-live index refuses an account linked
 * or being linked (409).
 */
export async function linkOriginOfPayment(
  ctx: TLinkContext & Pick<TAppContext, 'capabilities'> & TOwnerLookups,
  payerId: string,
  request: TLinkFromPaymentRequest,
): Promise<TLinkFromPaymentResponse> {
  const { db, clock } = ctx;
  const [paid] = await db
    .select({ attempt: paymentAttempts, origin: payments.origin })
    .from(paymentAttempts)
    .innerJoin(payments, eq(payments.id, paymentAttempts.paymentId))
    .where(
      and(
        eq(paymentAttempts.paymentId, request.paymentId),
        eq(paymentAttempts.status, 'completed'),
        eq(paymentAttempts.method, 'bank_transfer'),
        or(eq(paymentAttempts.payerId, payerId), ownedByPage(request.chargeToken)),
      ),
    );
  // Another payer's payment, one paid otherwise, or unknown: nothing to tell.
  if (!paid) throw new AppError('NOT_FOUND', 'No transfer of yours paid this payment');
  const { origin } = paid;
  const sender =
    origin?.accountNumber && origin.institutionCode && origin.accountName
      ? {
          accountNumber: origin.accountNumber,
          institutionCode: origin.institutionCode,
          accountName: origin.accountName,
        }
      : null;
  const named = (key: 'accountNumber' | 'institutionCode') =>
    request[key] === undefined || request[key] === sender?.[key];
  if (!sender || !named('accountNumber') || !named('institutionCode')) {
    throw new AppError('PAYMENT_NOT_PROOF_OF_ACCOUNT');
  }
  if (paid.attempt.transferSharedAt !== null) throw new AppError('PAYMENT_NOT_PROOF_OF_ACCOUNT');
  const account = { accountNumber: sender.accountNumber, institutionCode: sender.institutionCode };
  const { bank, found } = await findAccountAtBank(ctx, account);
  // The holder the bank names now is the one who sent the money.
  if (!isFromAccount(sender, { ...account, accountName: found.accountName })) {
    throw new AppError('PAYMENT_NOT_PROOF_OF_ACCOUNT');
  }
  // Money from an account proves its holder sent it, not that the holder is this payer.
  const holder = await holderOfAccount(ctx, payerId, account, found.bvn);
  await assertAccountUnderPayersBvn(db, payerId, holder.bvnHash);
  if (
    routeFor(found.integrations, 'any', {
      mandates: usable(ctx.providers.payments.debits).debitMandates,
      on: capabilitiesOn(ctx.capabilities),
    }) !== 'test_transfer'
  ) {
    throw new AppError('ACCOUNT_LINKS_BY_MANDATE');
  }
  const now = clock.now();
  const accountId = await addPayerAccount(db, payerId, { ...account, bank, found, holder }, now);
  const linkId = await linkFromPayment(db, {
    payerId,
    accountId,
    route: 'test_transfer',
    paymentId: request.paymentId,
    prompt: 'shouldPromptBankAccountLinking',
    debitProvider: debitProviderOfNewLinks(ctx.providers.payments),
    now,
  });
  return { success: true, accountLinkId: linkId, message: ACCOUNT_LINKED_MESSAGE };
}

/**
 * Links an account at once because a paid payment proves it (its sender's account, or the card
 * that paid): the link active in one transaction with its 'completed' event, the payment no
 * longer offering it (spec §3 origin). `inside` runs first in that transaction (a claim that
 * must hold with the link). The one-live index decides: an account linked or being linked
 * meanwhile refuses this with the live link's conflict.
 */
export async function linkFromPayment(
  db: TDb,
  link: {
    payerId: string;
    accountId: string;
    route: 'test_transfer' | 'card';
    paymentId: string;
    prompt: 'shouldPromptBankAccountLinking' | 'shouldPromptCardLinking';
    /** Who debits the link (account_links.debit_provider). */
    debitProvider: string | null;
    now: Date;
  },
  inside?: (tx: TDb) => Promise<void>,
): Promise<string> {
  const { payerId, accountId, route, paymentId, prompt, debitProvider, now } = link;
  const linkId = newLinkId();
  try {
    await db.transaction(async (tx) => {
      await inside?.(tx);
      await tx.insert(accountLinks).values({
        id: linkId,
        payerId,
        accountId,
        route,
        state: 'created',
        debitProvider,
        // The payment proves the mandate of the provider that debits the account.
        mandateSetUpBy: debitProvider,
        expiresAt: now,
        createdAt: now,
        updatedAt: now,
      });
      // Active only when held under the payer's BVN, decided by the statement that activates it;
      // refused, the transaction (and whatever `inside` claimed) is undone.
      if (!(await moveLink(tx, linkId, 'activate', now))) throw new AppError('ACCOUNT_NOT_YOURS');
      await emitProgress(tx, { accountLinkId: linkId, status: 'completed' });
      await tx
        .update(payments)
        .set({ origin: sql`${payments.origin} || ${JSON.stringify({ [prompt]: false })}::jsonb` })
        .where(eq(payments.id, paymentId));
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw await liveLinkConflict(db, accountId);
    throw error;
  }
  return linkId;
}
