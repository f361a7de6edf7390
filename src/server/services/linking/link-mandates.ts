import { and, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import type { TDb } from '../../db/database';
import { accountLinks, payerAccounts, payers } from '../../db/schema';
import type { TMandateSetupPort, TProviderNotice } from '../../providers/payments';
import { ProviderNotConfigured } from '../../providers/registry';
import { answerHolderCheck } from './account-holders';
import {
  type TLinkContext,
  type TLinkRow,
  endLink,
  activateLink,
  readLink,
} from './link-lifecycle';
import { isOpen, OPEN_STATES } from '../../../domain/schemas/mandate-transitions';

/*
 * Where a link's mandate stands at the provider that keeps it (docs/accounts.md): a link is
 * settled before it is answered (its expiry, a paper form approved, a bank-page mandate
 * confirmed); the provider's notices of a bank-page mandate and of an account's holder move its
 * links; and the printable paper mandate reads it.
 */

/**
 * The mandates port of the provider that set `link`'s mandate up (its auth parameters, its paper
 * form): the one the link names (mandate_set_up_by), whatever MANDATE_PROVIDERS says now. Null
 * when the link names none (made before it was kept, its row proving no provider): no provider
 * is asked about its mandate (docs/operations.md "Links whose mandate names no provider"). A
 * provider this server no longer runs: ProviderNotConfigured.
 */
export function mandatesOfLink(
  providers: TLinkContext['providers'],
  link: Pick<TLinkRow, 'mandateSetUpBy'>,
): TMandateSetupPort | null {
  return link.mandateSetUpBy === null
    ? null
    : providers.registry.portOf(link.mandateSetUpBy, 'mandates');
}

/**
 * The bank-page mandates of the provider that opened `link`'s page (mandate_set_up_by), whatever
 * PAYMENT_PROVIDER says now; null when the link names none, or that provider's mandates are not
 * approved at a bank's page.
 */
function bankPageMandatesOf(
  providers: TLinkContext['providers'],
  link: Pick<TLinkRow, 'mandateSetUpBy'>,
) {
  if (link.mandateSetUpBy === null) return null;
  const mandates = providers.registry.portOf(link.mandateSetUpBy, 'debits').debitMandates;
  return mandates.kind === 'bank_page' ? mandates : null;
}

/**
 * The port `find` resolves from the link's row, or null where this server does not run the
 * provider it names now: a read of the link leaves it where it stands, as when it does not answer.
 */
function runningPort<TPort>(find: () => TPort | null): TPort | null {
  try {
    return find();
  } catch (error) {
    if (error instanceof ProviderNotConfigured) return null;
    throw error;
  }
}

/**
 * Brings a link up to date before it is answered: past its expiry it becomes `expired`; a paper
 * mandate the bank approved meanwhile becomes `active` (docs/accounts.md "Paper mandates").
 */
export async function settleLink(ctx: TLinkContext, link: TLinkRow): Promise<TLinkRow> {
  if (!isOpen(link.state)) return link;
  const now = ctx.clock.now();
  if (link.expiresAt.getTime() <= now.getTime()) {
    const expired = await ctx.db.transaction((tx) =>
      endLink(tx, link.id, {
        edge: 'expire',
        now,
        message: ERROR_CATALOGUE.ACCOUNT_LINK_EXPIRED.message,
        also: lte(accountLinks.expiresAt, now),
      }),
    );
    return expired ?? (await readLink(ctx.db, link.id)) ?? link;
  }
  // A link whose mandate names no provider stays where it stands until its expiry.
  const paperMandates =
    link.route === 'paper' ? runningPort(() => mandatesOfLink(ctx.providers, link)) : null;
  if (paperMandates) {
    const status = await paperMandates
      .paperMandateStatus({
        // A provider's own form's mandate was set up with its own reference (own-mandates.ts).
        reference: link.mandateProvider ? (link.requestId ?? link.id) : link.id,
        issuedAt: link.createdAt,
        providerReference: link.providerReference,
      })
      // The bank not answering leaves the mandate where it stands; the next read asks again.
      .catch(() => 'pending' as const);
    if (status === 'approved') {
      await ctx.db.transaction((tx) => activateLink(tx, link.id, now));
      return (await readLink(ctx.db, link.id)) ?? link;
    }
  }
  const mandates =
    link.route === 'bank_page' ? runningPort(() => bankPageMandatesOf(ctx.providers, link)) : null;
  if (mandates && link.providerReference) {
    const status = await mandates
      .status(link.providerReference)
      // The provider not answering leaves the mandate where it stands; the next read asks again.
      .catch(() => ({ kind: 'pending' }) as const);
    if (status.kind === 'active') {
      await applyBankMandate(ctx, {
        providerReference: link.providerReference,
        authorization: status.authorization,
      });
      return (await readLink(ctx.db, link.id)) ?? link;
    }
  }
  return link;
}

/**
 * The bank confirmed a mandate the payer approved at its page (the provider's notice, or its
 * answer when asked): the authorisation is kept on the open link, and the link becomes active in
 * the same transaction if its account is held under the payer's BVN; while the provider's holder
 * check has not answered, it stays open and that answer activates it (answerAccountHolder).
 */
export async function applyBankMandate(
  ctx: Pick<TLinkContext, 'db' | 'clock'>,
  mandate: { providerReference: string; authorization: string },
): Promise<'applied' | 'unchanged' | 'ignored'> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [link] = await tx
      .update(accountLinks)
      .set({ debitAuthorization: mandate.authorization, updatedAt: now })
      .where(
        and(
          eq(accountLinks.providerReference, mandate.providerReference),
          eq(accountLinks.route, 'bank_page'),
          inArray(accountLinks.state, [...OPEN_STATES]),
        ),
      )
      .returning({ id: accountLinks.id });
    if (!link) {
      const [known] = await tx
        .select({ id: accountLinks.id })
        .from(accountLinks)
        .where(eq(accountLinks.providerReference, mandate.providerReference));
      return known ? 'unchanged' : 'ignored';
    }
    await activateLink(tx, link.id, now);
    return 'applied';
  });
}

/** Activates inside `tx` the account's open bank-page link whose mandate its bank confirmed. */
async function activateConfirmedMandates(tx: TDb, accountId: string, now: Date): Promise<void> {
  const confirmed = await tx
    .select({ id: accountLinks.id })
    .from(accountLinks)
    .where(
      and(
        eq(accountLinks.accountId, accountId),
        eq(accountLinks.route, 'bank_page'),
        inArray(accountLinks.state, [...OPEN_STATES]),
        isNotNull(accountLinks.debitAuthorization),
      ),
    );
  for (const { id } of confirmed) await activateLink(tx, id, now);
}

/**
 * The provider's answer to its check of an account's holder (notice 'account_holder'): a match
 * activates the account's link whose mandate the bank already confirmed; a refusal ends its open
 * links with ACCOUNT_NOT_YOURS's words. Both in the transaction that records the answer.
 */
export async function answerAccountHolder(
  ctx: Pick<TLinkContext, 'db' | 'clock'>,
  notice: Extract<TProviderNotice, { kind: 'account_holder' }>,
): Promise<'applied' | 'unchanged'> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const answered = await answerHolderCheck(tx, notice);
    if (!answered) return 'unchanged';
    if (notice.matches) {
      await activateConfirmedMandates(tx, answered.accountId, now);
      return 'applied';
    }
    const open = await tx
      .select({ id: accountLinks.id })
      .from(accountLinks)
      .where(
        and(
          eq(accountLinks.accountId, answered.accountId),
          inArray(accountLinks.state, [...OPEN_STATES]),
        ),
      );
    for (const { id } of open) {
      await endLink(tx, id, {
        edge: 'cancel',
        now,
        message: ERROR_CATALOGUE.ACCOUNT_NOT_YOURS.message,
      });
    }
    return 'applied';
  });
}

/** Where the printable form of a paper mandate is (GET /mandates/{id}). */
export const paperFormUrl = (ctx: Pick<TLinkContext, 'config'>, linkId: string): string =>
  new URL(`/mandates/${linkId}`, ctx.config.publicUrl).toString();

/** What the printable paper mandate shows (GET /mandates/{id}); null unless it is one. */
export async function paperMandateOf(ctx: TLinkContext, linkId: string) {
  const [row] = await ctx.db
    .select({ link: accountLinks, account: payerAccounts, payerName: payers.fullName })
    .from(accountLinks)
    .innerJoin(payerAccounts, eq(payerAccounts.id, accountLinks.accountId))
    .innerJoin(payers, eq(payers.id, accountLinks.payerId))
    .where(and(eq(accountLinks.id, linkId), eq(accountLinks.route, 'paper')));
  if (!row) return null;
  const link = await settleLink(ctx, row.link);
  return {
    reference: link.id,
    state: link.state,
    issuedAt: link.createdAt,
    expiresAt: link.expiresAt,
    payerName: row.payerName,
    accountName: row.account.accountName,
    accountNumber: row.account.accountNumber,
    bankName: row.account.bankName,
  };
}
