import { and, desc, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { TDb } from '../../db/database';
import { accountLinks, payerAccounts } from '../../db/schema';
import type {
  TDebitsPort,
  TPaymentProviders,
  TRequeryOutcome,
  TSettlementLine,
  TSettlementPort,
} from '../../providers/payments';
import type { TAdapter } from '../../providers/descriptor';
import { providerNamed } from '../../providers/adapters';
import { isOff } from '../../providers/off';
import { ProviderNotNamed } from './unrouted-rows';
import { ProviderNotConfigured, type TProviderRegistry } from '../../providers/registry';

/** What a link's row says of who debits it (account_links.debit_provider, mandate_provider). */
export type TDebitedLink = { debitProvider: string | null; mandateProvider: string | null };

/**
 * Who debits a link's mandate, from its row only: the provider that keeps the mandate itself
 * (TOwnMandates: Remita), whose own debits it then is; else the provider named on the link when
 * it was made. A debit made earlier is asked about, cancelled and reversed at the provider that
 * made it (`madeBy`: the attempt's, or the pending debit's). Never the capability's provider
 * today: a link that names none (made before it was kept) is ProviderNotNamed, and one naming a
 * provider this server no longer runs ProviderNotConfigured; both are skipped and counted
 * (unrouted-rows.ts).
 */
export function debitsFor(
  providers: { registry: TProviderRegistry },
  link: TDebitedLink,
  madeBy: string | null = null,
): TDebitsPort {
  if (link.mandateProvider !== null) return ownDebitsOf(providers.registry, link.mandateProvider);
  const provider = madeBy ?? link.debitProvider;
  if (provider === null) throw new ProviderNotNamed('debits');
  return providers.registry.portOf(provider, 'debits');
}

/**
 * The provider a link made now names as its debits' (account_links.debit_provider): new work's
 * debits capability; null while debits are off. A provider keeping its own mandate names itself
 * when it takes the link (own-mandates.ts).
 */
export const debitProviderOfNewLinks = (payments: TPaymentProviders): string | null =>
  isOff(payments.debits) ? null : payments.debits.provider;

/** What naming a link's debit provider did (nameDebitProvider). */
export type TDebitProviderNaming =
  | { kind: 'named' }
  | { kind: 'named_already'; provider: string }
  | { kind: 'no_such_link' }
  | { kind: 'not_a_debits_provider' };

/**
 * An operator names the provider that debits a link that names none (made before it was kept,
 * docs/operations.md "Links with no debit provider"), in one statement: only while it names none,
 * so a provider once named is never changed. The name must be an adapter serving debits.
 */
export async function nameDebitProvider(
  db: TDb,
  linkId: string,
  provider: string,
): Promise<TDebitProviderNaming> {
  if (!providerNamed(provider)?.serves.includes('debits')) return { kind: 'not_a_debits_provider' };
  const [named] = await db
    .update(accountLinks)
    .set({ debitProvider: provider })
    .where(
      and(
        eq(accountLinks.id, linkId),
        isNull(accountLinks.debitProvider),
        isNull(accountLinks.mandateProvider),
      ),
    )
    .returning({ id: accountLinks.id });
  if (named) return { kind: 'named' };
  const [link] = await db
    .select({
      debitProvider: accountLinks.debitProvider,
      mandateProvider: accountLinks.mandateProvider,
    })
    .from(accountLinks)
    .where(eq(accountLinks.id, linkId));
  if (!link) return { kind: 'no_such_link' };
  return { kind: 'named_already', provider: link.debitProvider ?? link.mandateProvider ?? '' };
}

/** The active links that name no debit provider: debited by none until one is named. */
export const linksNamingNoDebitProvider = (db: TDb) =>
  db
    .select({ id: accountLinks.id, payerId: accountLinks.payerId, route: accountLinks.route })
    .from(accountLinks)
    .where(
      and(
        eq(accountLinks.state, 'active'),
        isNull(accountLinks.debitProvider),
        isNull(accountLinks.mandateProvider),
      ),
    )
    .orderBy(accountLinks.activatedAt);

/** The debits on the mandates `provider` keeps itself; ProviderNotConfigured when none. */
function ownDebitsOf(registry: TProviderRegistry, provider: string): TDebitsPort {
  const own = registry.byName(provider, 'debits').mandates?.own;
  if (!own) throw new ProviderNotConfigured(provider, 'debits');
  return own.debits;
}

/**
 * The port that made a saved-account payment's debit, by the adapter its attempt names: the
 * debits on its own mandates for a provider that keeps them (Remita), else its debits port.
 */
function attemptDebits(registry: TProviderRegistry, provider: string) {
  const own = registry.byName(provider, 'debits').mandates?.own;
  return own
    ? { debits: own.debits, ownMandates: true }
    : { debits: registry.portOf(provider, 'debits'), ownMandates: false };
}

/**
 * The settlement report with the debits on the mandates providers keep themselves added (Remita
 * keeps no report by our reference): each debit we made on one, as its provider answers when
 * asked about it (a collection's try that succeeded, a saved-account payment's attempt). Every
 * built adapter keeping its own mandates is asked, whether or not MANDATE_PROVIDERS lists it
 * now: the debits it took stay its own. What `npm run ledger:check` compares with the books; a
 * debit the provider took that we never recorded is not in it.
 */
export function withOwnMandateSettlement(
  db: TDb,
  settlement: TSettlementPort,
  adapters: readonly TAdapter[],
): TSettlementPort {
  const keepers = adapters.flatMap((adapter) => {
    const own = adapter.mandates?.own;
    return own ? [{ provider: adapter.name, debits: own.debits }] : [];
  });
  return {
    provider: settlement.provider,
    async settlementReport(period) {
      const lines = [...(await settlement.settlementReport(period))];
      for (const keeper of keepers) lines.push(...(await ownMandateDebitLines(db, keeper)));
      return lines;
    },
  };
}

/** The settlement lines of the debits `keeper` took on the mandates it keeps. */
async function ownMandateDebitLines(
  db: TDb,
  keeper: { provider: string; debits: TDebitsPort },
): Promise<TSettlementLine[]> {
  const { provider, debits } = keeper;
  const result: unknown = await db.execute(sql`
    SELECT t->>'reference' AS reference, l.debit_authorization AS mandate
    FROM future_payment_collections c
    CROSS JOIN LATERAL jsonb_array_elements(c.tries) t
    JOIN account_links l ON l.account_id = t->>'accountId'
      AND l.mandate_provider = ${provider} AND l.debit_authorization IS NOT NULL
    WHERE t->>'outcome' = 'succeeded'
    UNION
    SELECT a.id, l.debit_authorization
    FROM payment_attempts a
    JOIN account_links l ON l.account_id = a.debit_account_id
      AND l.mandate_provider = ${provider} AND l.debit_authorization IS NOT NULL
    WHERE a.provider = ${provider} AND a.method = 'account'`);
  const lines: TSettlementLine[] = [];
  const seen = new Set<string>();
  for (const row of (result as { rows: Array<{ reference: string; mandate: string }> }).rows) {
    if (seen.has(row.reference)) continue;
    const answer = await debits.requeryDebit(row.reference, row.mandate);
    if (answer.kind !== 'taken') continue;
    seen.add(row.reference);
    lines.push({
      channel: 'debit',
      reference: row.reference,
      amount: answer.amount,
      givenBack: answer.givenBack,
      provider,
    });
  }
  return lines;
}

/** A saved-account payment's attempt: its reference, who debited it, and the account. */
type TDebitAttempt = {
  id: string;
  provider: string;
  debitAccountId: string | null;
  createdAt: Date;
};

/**
 * The debit's account and, for a provider that keeps its mandates, the mandate it ran on: the
 * account's link of that provider active last when the attempt began (a link made after it is
 * another mandate, where the provider knows nothing of this debit and would answer 'not taken').
 */
async function debitedAccountOf(db: TDb, attempt: TDebitAttempt) {
  if (!attempt.debitAccountId) return null;
  const [row] = await db
    .select({ account: payerAccounts, mandate: accountLinks.debitAuthorization })
    .from(payerAccounts)
    .leftJoin(
      accountLinks,
      and(
        eq(accountLinks.accountId, payerAccounts.id),
        eq(accountLinks.mandateProvider, attempt.provider),
        isNotNull(accountLinks.activatedAt),
        lte(accountLinks.activatedAt, attempt.createdAt),
      ),
    )
    .where(eq(payerAccounts.id, attempt.debitAccountId))
    .orderBy(desc(accountLinks.activatedAt))
    .limit(1);
  return row ?? null;
}

/**
 * Asks the provider that made a saved-account payment's debit what became of it (the attempt's
 * provider, never another: one that never had the reference would close it as not taken).
 */
export async function requeryAttemptDebit(
  db: TDb,
  registry: TProviderRegistry,
  attempt: TDebitAttempt,
): Promise<TRequeryOutcome> {
  const { debits, ownMandates } = attemptDebits(registry, attempt.provider);
  if (!ownMandates) return debits.requeryDebit(attempt.id);
  const debited = await debitedAccountOf(db, attempt);
  return debits.requeryDebit(attempt.id, debited?.mandate ?? undefined);
}

/** Gives a saved-account payment's debit back through the provider that made it. */
export async function reverseAttemptDebit(
  db: TDb,
  registry: TProviderRegistry,
  attempt: TDebitAttempt,
  providerReference: string,
): Promise<void> {
  const { debits, ownMandates } = attemptDebits(registry, attempt.provider);
  const debited = ownMandates ? await debitedAccountOf(db, attempt) : null;
  await debits.reverseDebit({
    providerReference,
    reference: attempt.id,
    ...(debited ? { account: debited.account } : {}),
  });
}
