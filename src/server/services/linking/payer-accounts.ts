import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import { isValidNuban } from '../../../domain/nuban';
import {
  BANK_VALIDATION_EVENT,
  type TAccountIntegrations,
  type TAccountOwnership,
  type TBankLookupResponse,
  type TBankValidationEvent,
  type TBankValidationResult,
  type TUserAccount,
} from '../../../domain/schemas/user-account';
import type { TAppContext } from '../../context';
import { capabilitiesOn } from '../../providers/capability-lines';
import { linkWaysOn, type TCapabilitiesOn } from '../../../domain/capabilities';
import type { TDb } from '../../db/database';
import { accountLinks, payerAccounts, payers } from '../../db/schema';
import { appendEvent, eventStreams } from '../../events/event-log';
import type { TBankIntegration } from '../../providers/payments';
import type { TLinkRoute } from '../../../domain/schemas/account-link';
import { AppError } from '../../app-error';
import { obfuscateCard } from '../../../domain/card-number';
import { issueStreamTicket } from '../event-stream-tickets';
import { openBvnAccounts } from '../identity/bvn';
import { isOpen, OPEN_STATES } from '../../../domain/schemas/mandate-transitions';
import { paperFormUrl, settleLink } from './link-mandates';
import { keptHolder } from './account-holders';
import { keptOwner } from './account-owners';
import { holderBvnHash } from './bvn-ownership';
import { usable } from '../../providers/off';

/*
 * A payer's bank accounts (spec §2 "Account-linking panel", §3 User account, §7): finding an
 * account by its number across banks, the accounts a payer added with how each is linked, a
 * bank's ways of linking, and the testers' delete.
 */

type TAccountsContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config' | 'capabilities'>;

/** The SSE event type of every bank-validation event (its data is a TBankValidationEvent). */

/** Which integrations of an account this payer has linked, by its mandate's route. */
type TLinkedRoutes = ReadonlySet<TLinkRoute>;

/**
 * spec §3 User account.integrations for the ways a bank offers, as far as this payer has used
 * them: a transaction-service mandate is linked by a test transfer or a paper mandate, the
 * alternate service's by its auth parameters, a card by a card.
 */
export function integrationsOf(
  offered: readonly TBankIntegration[],
  linked: TLinkedRoutes,
  on: TCapabilitiesOn,
): TAccountIntegrations {
  const integrations: TAccountIntegrations = {};
  const debit = linked.has('test_transfer') || linked.has('paper') || linked.has('bank_page');
  // A way whose capability is off is not offered (docs/going-live.md).
  for (const kind of linkWaysOn(offered, on)) {
    if (kind === 'transactionService') {
      integrations.transactionService = {
        possible: true,
        authorized: debit,
        approved: debit,
        linked: debit,
      };
    } else if (kind === 'altTransactionService') {
      const alt = linked.has('auth_params');
      integrations.altTransactionService = {
        possible: true,
        authorized: alt,
        status: alt ? 'active' : null,
        linked: alt,
        remitaLogoUrl: null,
      };
    } else if (kind === 'card') {
      const card = linked.has('card');
      integrations.card = {
        possible: true,
        active: card,
        linked: card,
        obfuscatedCard: null,
        token: null,
      };
    } else {
      integrations.nibssAlt = { possible: true };
    }
  }
  return integrations;
}

/** What an account whose bank is not known now offers at least: what its links were made by. */
function integrationsOfRoutes(routes: TLinkedRoutes): TBankIntegration[] {
  const offered: TBankIntegration[] = [];
  if (routes.has('test_transfer') || routes.has('bank_page')) offered.push('transactionService');
  if (routes.has('paper')) offered.push('nibssAlt');
  if (routes.has('auth_params')) offered.push('altTransactionService');
  if (routes.has('card')) offered.push('card');
  return offered;
}

/** The logo URL of a bank, served by routes/bank-logos.ts. */
export const logoOf = (institutionCode: string) =>
  `/api/bank-logos/${encodeURIComponent(institutionCode)}`;

/**
 * GET /api/accounts/search: starts asking every bank whose check digit fits the number who holds
 * it, and answers at once with the validation's id and a ticket for its event stream, where each
 * account found arrives as the bank answers, then `completed`. A number no bank's check digit
 * fits ends the stream with 'Failed to validate account' (spec §8).
 */
export async function startAccountSearch(
  ctx: TAccountsContext,
  payerId: string,
  accountNumber: string,
): Promise<{ validationId: string; ticket: string; expiresAt: string }> {
  const validationId = `bvl_${randomBytes(16).toString('base64url')}`;
  const stream = eventStreams.bankValidation(validationId);
  let banks;
  try {
    banks = await usable(ctx.providers.payments.banks).listBanks();
  } catch {
    throw new AppError('ACCOUNT_VALIDATION_START_FAILED');
  }
  const { ticket, expiresAt } = await issueStreamTicket(ctx.db, stream, payerId, ctx.clock.now());
  const candidates = banks.filter((bank) => isValidNuban(bank.institutionCode, accountNumber));
  const append = (event: TBankValidationEvent) =>
    appendEvent(ctx.db, { stream, type: BANK_VALIDATION_EVENT, data: event });
  const describing = describingFor(ctx);

  const search = async () => {
    if (candidates.length === 0) {
      await append({
        type: 'failed',
        validationId,
        message: ERROR_CATALOGUE.ACCOUNT_VALIDATION_FAILED.message,
      });
      return;
    }
    let answered = 0;
    await Promise.all(
      candidates.map(async (bank) => {
        const found = await usable(ctx.providers.payments.banks)
          .nameEnquiry({ institutionCode: bank.institutionCode, accountNumber })
          .then(
            (answer) => ({ answer }),
            () => null,
          );
        if (!found) return;
        answered += 1;
        if (!found.answer) return;
        const account = await describeFound(describing, payerId, {
          accountNumber,
          institutionCode: bank.institutionCode,
          bankName: bank.name,
          ...found.answer,
        });
        await append({ type: 'result', validationId, account });
      }),
    );
    // Every bank failing to answer is not "no account": the page says validation failed.
    await append(
      answered === 0
        ? {
            type: 'failed',
            validationId,
            message: ERROR_CATALOGUE.ACCOUNT_VALIDATION_FAILED.message,
          }
        : { type: 'completed', validationId },
    );
  };
  // The answer does not wait for the banks; the stream carries what they say. A database that
  // went away meanwhile (the server stopping) leaves the stream without its end, which the page
  // meets with its Cancel.
  void search().catch(() => undefined);
  return { validationId, ticket, expiresAt };
}

/** What describing a found account needs: whose answer on owners counts, and when it is. */
type TDescribing = { db: TDb; on: TCapabilitiesOn; decidesOwners: boolean; now: Date };

const describingFor = (ctx: TAccountsContext): TDescribing => ({
  db: ctx.db,
  on: capabilitiesOn(ctx.capabilities),
  decidesOwners: usable(ctx.providers.payments.bvn).decidesOwners,
  now: ctx.clock.now(),
});

/** A found account as the bank-validation stream carries it (spec §7). */
async function describeFound(
  describing: TDescribing,
  payerId: string,
  found: {
    accountNumber: string;
    institutionCode: string;
    bankName: string;
    accountName: string;
    nameEnquiryId: string;
    integrations: readonly TBankIntegration[];
    bvn: string | null;
  },
): Promise<TBankValidationResult> {
  const { db, on } = describing;
  const links = await db
    .select({
      payerId: payerAccounts.payerId,
      route: accountLinks.route,
      fullName: payers.fullName,
    })
    .from(payerAccounts)
    .innerJoin(accountLinks, eq(accountLinks.accountId, payerAccounts.id))
    .innerJoin(payers, eq(payers.id, payerAccounts.payerId))
    .where(
      and(
        eq(payerAccounts.institutionCode, found.institutionCode),
        eq(payerAccounts.accountNumber, found.accountNumber),
        eq(accountLinks.state, 'active'),
      ),
    );
  const own = new Set(links.filter((l) => l.payerId === payerId).map((l) => l.route));
  const user = links[0];
  return {
    accountNumber: found.accountNumber,
    accountName: found.accountName,
    institutionCode: found.institutionCode,
    bankName: found.bankName,
    logo: logoOf(found.institutionCode),
    nameEnquiryId: found.nameEnquiryId,
    isOyaUser: Boolean(user),
    oyaUser: user ? { userId: user.payerId, fullName: user.fullName } : null,
    integrations: integrationsOf(found.integrations, own, on),
    ownership: await ownershipOf(describing, payerId, found, found.bvn),
  };
}

/**
 * Whether a found account is the payer's, by its holder's BVN (docs/identity.md "The BVN"). Where
 * the BVN registry decides owners, only its kept answer counts: a search looks nothing up at the
 * registry (each lookup is billed), so an account not asked about yet is checked when linked.
 */
async function ownershipOf(
  { db, decidesOwners, now }: TDescribing,
  payerId: string,
  account: { institutionCode: string; accountNumber: string },
  bvn: string | null,
): Promise<TAccountOwnership> {
  const payerBvn = await payersBvnHashOf(db, payerId);
  if (!payerBvn) return 'bvn_unverified';
  if (decidesOwners) {
    const kept = await keptOwner(db, account, now);
    if (!kept) return 'to_check';
    return kept.bvnHash === payerBvn ? 'yours' : 'not_yours';
  }
  if (bvn !== null) return (await holderBvnHash(db, bvn)) === payerBvn ? 'yours' : 'not_yours';
  // The bank named no holder BVN (Paystack's name enquiry): what the provider's check of it found
  // before, else it is checked when the account is linked (account-holders.ts).
  const kept = await keptHolder(db, payerId, account);
  if (kept?.bvnHash === payerBvn) return 'yours';
  return kept?.holderCheck === 'differs' ? 'not_yours' : 'to_check';
}

/** The keyed hash of the payer's verified BVN, or null before they verify one. */
async function payersBvnHashOf(db: TDb, payerId: string): Promise<string | null> {
  const [payer] = await db
    .select({ bvnHash: payers.bvnHash })
    .from(payers)
    .where(eq(payers.id, payerId));
  return payer?.bvnHash ?? null;
}

/**
 * GET /api/accounts/bvn (spec §2 select step "Lists linkable accounts", §7 cache accounts/bvn):
 * the accounts the BVN registry held under the payer's verified BVN when it proved it, each as
 * the bank's name enquiry describes it; none before a BVN is verified, nor where the registry's
 * consent gave none. A bank that does not answer leaves its
 * account out, not the list.
 */
export async function accountsUnderPayersBvn(
  ctx: TAccountsContext,
  payerId: string,
): Promise<TBankValidationResult[]> {
  // What the registry held under the BVN when the payer proved it: asked with their code only.
  const held = await openBvnAccounts(ctx.db, payerId);
  if (held.length === 0) return [];
  let banks;
  try {
    banks = await usable(ctx.providers.payments.banks).listBanks();
  } catch {
    // The bank list did not answer: no list rather than a wrong one.
    throw new AppError('ACCOUNT_VALIDATION_FAILED');
  }
  const found = await Promise.all(
    held.map(async (account) => {
      const bank = banks.find((b) => b.institutionCode === account.institutionCode);
      const answer = bank
        ? await usable(ctx.providers.payments.banks)
            .nameEnquiry(account)
            .catch(() => null)
        : null;
      if (!bank || !answer) return null;
      return describeFound(describingFor(ctx), payerId, {
        ...account,
        bankName: bank.name,
        ...answer,
      });
    }),
  );
  return found.filter((account) => account !== null);
}

/**
 * The accounts a payer has an active link on (a mandate that can be debited), by number and
 * bank: what a payment's origin is checked against (spec §3 shouldPromptBankAccountLinking).
 */
export async function activelyLinkedAccounts(
  db: TDb,
  payerId: string,
): Promise<Array<{ accountNumber: string; institutionCode: string }>> {
  return db
    .selectDistinct({
      accountNumber: payerAccounts.accountNumber,
      institutionCode: payerAccounts.institutionCode,
    })
    .from(payerAccounts)
    .innerJoin(accountLinks, eq(accountLinks.accountId, payerAccounts.id))
    .where(and(eq(payerAccounts.payerId, payerId), eq(accountLinks.state, 'active')));
}

/**
 * GET /api/accounts/user: the accounts the payer added, oldest first, each with the ways its bank
 * offers and what this payer linked (spec §3); 'Approved' once a mandate is active. A paper
 * mandate waiting for its bank is asked about first (settleLink), so the bank's approval shows
 * here with no other call; one still waiting lists its form to print.
 */
export async function listPayerAccounts(
  ctx: TAccountsContext,
  payerId: string,
): Promise<TUserAccount[]> {
  const accounts = await ctx.db
    .select()
    .from(payerAccounts)
    .where(eq(payerAccounts.payerId, payerId))
    .orderBy(asc(payerAccounts.createdAt), asc(payerAccounts.id));
  if (accounts.length === 0) return [];
  const read = await ctx.db
    .select()
    .from(accountLinks)
    .where(
      and(
        inArray(
          accountLinks.accountId,
          accounts.map((a) => a.id),
        ),
        inArray(accountLinks.state, [...OPEN_STATES, 'active']),
      ),
    );
  // A mandate waiting for its bank (a paper form, a bank's page) is asked about as it is read:
  // the payer back from the bank's page sees it linked though its notice has not come.
  const links = await Promise.all(
    read.map(async (link) =>
      link.route === 'paper' || link.route === 'bank_page' ? settleLink(ctx, link) : link,
    ),
  );
  const active = links.filter((link) => link.state === 'active');
  const paperOf = (accountId: string) => {
    const open = links.find(
      (l) => l.accountId === accountId && l.route === 'paper' && isOpen(l.state),
    );
    return open
      ? { formUrl: paperFormUrl(ctx, open.id), expiresAt: open.expiresAt.toISOString() }
      : null;
  };
  // Without the bank list (its provider did not answer), an account offers what its links show.
  const banks = new Map(
    (
      (await usable(ctx.providers.payments.banks)
        .listBanks()
        .catch(() => null)) ?? []
    ).map((bank) => [bank.institutionCode, bank]),
  );
  const payerBvn = await payersBvnHashOf(ctx.db, payerId);
  return accounts.map((account) => {
    const own = active.filter((l) => l.accountId === account.id);
    const routes = new Set(own.map((l) => l.route));
    const approved = routes.size > 0;
    // What the debit's statement checks (bvn-ownership.ts debitableUnderBvn), said on the row.
    const debitable = own.some((l) => l.bvnHash !== null && l.bvnHash === payerBvn);
    const bvnHold = approved && !debitable ? (payerBvn ? 'not_under_bvn' : 'bvn_unverified') : null;
    return {
      // spec §5: a deletion names bankId, accountId or _id; all three are this record's id.
      bankId: account.id,
      accountId: account.id,
      _id: account.id,
      accountNumber: account.accountNumber,
      accountName: account.accountName,
      bankName: account.bankName,
      institutionCode: account.institutionCode,
      logo: logoOf(account.institutionCode),
      linkStatus: approved ? 'approved' : null,
      status: approved ? 'approved' : 'pending',
      statusDetail: approved ? 'Approved' : null,
      isAlreadyLinked: approved,
      nameEnquiryId: account.nameEnquiryId,
      paperMandate: approved ? null : paperOf(account.id),
      bvnHold,
      integrations: withSavedCard(
        integrationsOf(
          banks.get(account.institutionCode)?.integrations ?? integrationsOfRoutes(routes),
          routes,
          capabilitiesOn(ctx.capabilities),
        ),
        account,
      ),
    };
  });
}

/**
 * The card saved on an account, as its row shows it (spec §2 'Card & Bank • ****1234'): masked.
 * Its token charges the card and never leaves the server.
 */
function withSavedCard(
  integrations: TAccountIntegrations,
  account: typeof payerAccounts.$inferSelect,
): TAccountIntegrations {
  const { cardFirst6: first6, cardLast4: last4 } = account;
  if (!integrations.card || !first6 || !last4) return integrations;
  return {
    ...integrations,
    card: { ...integrations.card, obfuscatedCard: obfuscateCard({ first6, last4 }) },
  };
}

/** GET /api/bank-lookups/{institutionCode}: the ways a bank lets an account be linked. */
export async function lookupBank(
  ctx: TAccountsContext,
  institutionCode: string,
): Promise<TBankLookupResponse> {
  const bank = await usable(ctx.providers.payments.banks).lookupBank(institutionCode);
  if (!bank) throw new AppError('NOT_FOUND', 'No bank has this institution code');
  const integrations: TBankLookupResponse['bank']['integrations'] = {};
  for (const kind of linkWaysOn(bank.integrations, capabilitiesOn(ctx.capabilities))) {
    integrations[kind] = { possible: true };
  }
  return { success: true, bank: { integrations } };
}

/** DELETE /api/accounts/{id} (debug): removes the payer's own account and its links. */
export async function deletePayerAccount(
  ctx: TAccountsContext,
  payerId: string,
  accountId: string,
): Promise<void> {
  const [deleted] = await ctx.db
    .delete(payerAccounts)
    .where(and(eq(payerAccounts.id, accountId), eq(payerAccounts.payerId, payerId)))
    .returning({ id: payerAccounts.id });
  if (!deleted) throw new AppError('NOT_FOUND', 'No account of yours has this id');
}
