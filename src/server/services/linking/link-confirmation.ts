import { and, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import {
  ACCOUNT_LINKED_MESSAGE,
  AUTH_PARAMS_MAX_TRIES,
  AUTH_PARAMS_PENDING_MESSAGE,
  BANK_PAGE_MANDATE_PENDING_MESSAGE,
  PAPER_MANDATE_PENDING_MESSAGE,
} from '../../../domain/constants';
import { ERROR_CATALOGUE, formatErrorMessage } from '../../../domain/errors';
import { countNoun } from '../../../domain/plural';
import type {
  TAltServiceConfirmRequest,
  TAltServiceConfirmResponse,
  TConfirmAccountLinkPaymentResponse,
} from '../../../domain/schemas/account-link';
import type { TDb } from '../../db/database';
import type { TMandateSetupPort } from '../../providers/payments';
import { accountLinks, payerAccounts } from '../../db/schema';
import { AppError } from '../../app-error';
import {
  type TLinkContext,
  type TLinkRow,
  type TLinkRoute,
  moveLink,
  endLink,
  activateLink,
  readLink,
} from './link-lifecycle';
import { isOpen, OPEN_STATES } from '../../../domain/schemas/mandate-transitions';
import { settleLink, mandatesOfLink } from './link-mandates';

/*
 * The payer's own link, answered: where it stands (POST /api/account-links/confirm-payment/{id})
 * and their answers to the alternate service's auth parameters (POST
 * /api/transactionservicealt/confirm), each try counted before it is sent.
 */

/** The payer's own link, for its progress stream: another payer's is NOT_FOUND. */
export async function assertOwnLink(db: TDb, payerId: string, linkId: string): Promise<void> {
  await ownLink(db, payerId, eq(accountLinks.id, linkId));
}

async function ownLink(db: TDb, payerId: string, where: SQL): Promise<TLinkRow> {
  const [row] = await db
    .select()
    .from(accountLinks)
    .where(and(where, eq(accountLinks.payerId, payerId)));
  // Another payer's link reads as no link at all, so ids cannot be probed.
  if (!row) throw new AppError('NOT_FOUND', 'No account link of yours has this id');
  return row;
}

const PENDING_MESSAGES: Record<TLinkRoute, string> = {
  test_transfer: ERROR_CATALOGUE.PAYMENT_NOT_YET_CONFIRMED.message,
  auth_params: AUTH_PARAMS_PENDING_MESSAGE,
  paper: PAPER_MANDATE_PENDING_MESSAGE,
  bank_page: BANK_PAGE_MANDATE_PENDING_MESSAGE,
  card: ERROR_CATALOGUE.PAYMENT_NOT_YET_CONFIRMED.message,
};

/**
 * POST /api/account-links/confirm-payment/{id}: where the payer's link stands. Pending is an
 * ordinary answer (spec §4: the panel stays on the payment step with the message).
 */
export async function confirmAccountLinkPayment(
  ctx: TLinkContext,
  payerId: string,
  linkId: string,
): Promise<TConfirmAccountLinkPaymentResponse> {
  const link = await settleLink(ctx, await ownLink(ctx.db, payerId, eq(accountLinks.id, linkId)));
  switch (link.state) {
    case 'active':
      return { success: true, status: 'completed', message: ACCOUNT_LINKED_MESSAGE };
    case 'expired':
      return {
        success: false,
        status: 'failed',
        message: ERROR_CATALOGUE.ACCOUNT_LINK_EXPIRED.message,
      };
    case 'cancelled':
      return {
        success: false,
        status: 'failed',
        message: ERROR_CATALOGUE.ACCOUNT_LINK_CANCELLED.message,
      };
    case 'created':
      if (link.route === 'test_transfer') {
        await moveLink(ctx.db, link.id, 'transferClaimed', ctx.clock.now());
      }
      return { success: false, status: 'pending', message: PENDING_MESSAGES[link.route] };
    case 'awaiting_authorisation':
      return { success: false, status: 'pending', message: PENDING_MESSAGES[link.route] };
    default:
      return link.state satisfies never;
  }
}

/** A link that is no longer open, as the alternate service's confirm answers it. */
function closedAnswer(link: TLinkRow): TAltServiceConfirmResponse {
  if (link.state === 'active') return { success: true, message: ACCOUNT_LINKED_MESSAGE };
  if (link.state === 'expired') throw new AppError('ACCOUNT_LINK_EXPIRED');
  if (link.authTries >= AUTH_PARAMS_MAX_TRIES) throw new AppError('AUTH_PARAMS_LOCKED');
  throw new AppError('ACCOUNT_LINK_CANCELLED');
}

/**
 * POST /api/transactionservicealt/confirm: the payer's answers to the auth parameters. Each try is
 * counted before it is sent, in the one statement that checks the count, so tries sent at once
 * cannot pass five at the bank; right, the link is active; the fifth wrong cancels it. After a
 * try whose answer was lost, the mandate's status is asked before anything is sent again: the
 * lost call may have used the bank's one-time code up.
 */
export async function confirmAltMandate(
  ctx: TLinkContext,
  payerId: string,
  body: TAltServiceConfirmRequest,
): Promise<TAltServiceConfirmResponse> {
  const { db, clock, providers } = ctx;
  const link = await settleLink(
    ctx,
    await ownLink(db, payerId, eq(accountLinks.remitaTransRef, body.remitaTransRef)),
  );
  if (!isOpen(link.state)) return closedAnswer(link);
  const mandates = mandatesOfLink(providers, link);
  // A link whose mandate names no provider (made before it was kept, docs/operations.md "Links
  // whose mandate names no provider"): none may be asked about the answers, so the link ends and
  // the payer starts again, at the provider new work goes to.
  if (!mandates) return cancelOpenLink(ctx, link, 'ACCOUNT_LINK_CANCELLED');
  const [account] = await db
    .select()
    .from(payerAccounts)
    .where(eq(payerAccounts.id, link.accountId));
  if (!account) throw new AppError('NOT_FOUND', 'No account link of yours has this id');
  if (link.authAnswerLostAt !== null && (await lostTryActivated(ctx, mandates, link))) {
    return activateVerified(ctx, link);
  }
  const counted = await countAuthTry(db, link.id, clock.now());
  if (!counted) {
    const now = (await readLink(db, link.id)) ?? link;
    // The last try's answer was lost and it did not activate the mandate: the link ends here.
    if (link.authAnswerLostAt !== null && isOpen(now.state)) return refuseWrongTry(ctx, now);
    return closedAnswer(now);
  }
  let verified: boolean;
  try {
    ({ verified } = await mandates.verifyAltMandate({
      authReference: body.remitaTransRef,
      reference: link.requestId ?? link.id,
      providerReference: link.providerReference,
      institutionCode: account.institutionCode,
      accountNumber: account.accountNumber,
      answers: body.authParams.map((a) => ({ param: a.param1, value: a.value })),
    }));
  } catch {
    await db
      .update(accountLinks)
      .set({ authAnswerLostAt: clock.now() })
      .where(eq(accountLinks.id, link.id));
    throw new AppError('ACCOUNT_VERIFY_FAILED');
  }
  if (verified) return activateVerified(ctx, link);
  return refuseWrongTry(ctx, counted);
}

/**
 * Whether the try whose answer was lost activated the mandate (the provider's mandate status).
 * Not active: the lost try counts as refused and the next is sent. No answer:
 * ACCOUNT_VERIFY_FAILED, and nothing is sent.
 */
async function lostTryActivated(
  ctx: TLinkContext,
  mandates: TMandateSetupPort,
  link: TLinkRow,
): Promise<boolean> {
  let active: boolean;
  try {
    active = await mandates.altMandateActive({
      reference: link.requestId ?? link.id,
      providerReference: link.providerReference,
    });
  } catch {
    throw new AppError('ACCOUNT_VERIFY_FAILED');
  }
  if (!active && link.authAnswerLostAt !== null) {
    await ctx.db
      .update(accountLinks)
      .set({ authAnswerLostAt: null })
      .where(
        and(eq(accountLinks.id, link.id), eq(accountLinks.authAnswerLostAt, link.authAnswerLostAt)),
      );
  }
  return active;
}

/**
 * Ends an open link, its page told why (`code`'s words), and refuses the answers with `code`; a
 * link that closed meanwhile is answered as it stands.
 */
async function cancelOpenLink(
  ctx: TLinkContext,
  link: TLinkRow,
  code: 'AUTH_PARAMS_LOCKED' | 'ACCOUNT_LINK_CANCELLED',
): Promise<TAltServiceConfirmResponse> {
  const cancelled = await ctx.db.transaction((tx) =>
    endLink(tx, link.id, {
      edge: 'cancel',
      now: ctx.clock.now(),
      message: ERROR_CATALOGUE[code].message,
    }),
  );
  if (cancelled) throw new AppError(code);
  return closedAnswer((await readLink(ctx.db, link.id)) ?? link);
}

/** Counts one try of an open link whose tries are not used up; null when none is left. */
async function countAuthTry(db: TDb, linkId: string, now: Date): Promise<TLinkRow | null> {
  const [row] = await db
    .update(accountLinks)
    .set({ authTries: sql`${accountLinks.authTries} + 1`, updatedAt: now })
    .where(
      and(
        eq(accountLinks.id, linkId),
        inArray(accountLinks.state, [...OPEN_STATES]),
        lt(accountLinks.authTries, AUTH_PARAMS_MAX_TRIES),
      ),
    )
    .returning();
  return row ?? null;
}

/** The bank took the payer's answers: the link is active, unless it closed meanwhile. */
async function activateVerified(
  ctx: TLinkContext,
  link: TLinkRow,
): Promise<TAltServiceConfirmResponse> {
  const now = ctx.clock.now();
  const activated = await ctx.db.transaction((tx) => activateLink(tx, link.id, now));
  if (activated) return { success: true, message: ACCOUNT_LINKED_MESSAGE };
  return closedAnswer((await readLink(ctx.db, link.id)) ?? link);
}

/** A wrong try, already counted: the tries left, or the fifth cancels the link. */
async function refuseWrongTry(
  ctx: TLinkContext,
  counted: TLinkRow,
): Promise<TAltServiceConfirmResponse> {
  const left = AUTH_PARAMS_MAX_TRIES - counted.authTries;
  if (left > 0) {
    throw new AppError(
      'AUTH_PARAMS_INCORRECT',
      formatErrorMessage('AUTH_PARAMS_INCORRECT', { tries: countNoun(left, 'try', 'tries') }),
    );
  }
  return cancelOpenLink(ctx, counted, 'AUTH_PARAMS_LOCKED');
}
