import { and, desc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { TDb } from '../../db/database';
import { accountLinks, payerAccounts } from '../../db/schema';
import type {
  TDebitsPort,
  TPaymentProviders,
  TRequeryOutcome,
  TSettlementPort,
} from '../../providers/payments';
import { isOff, usable } from '../../providers/off';
import { ProviderNotConfigured, type TProviderRegistry } from '../../providers/registry';

/** The providers a debit is resolved from: new work's, and every adapter by name. */
export type TDebitProviders = { payments: TPaymentProviders; registry: TProviderRegistry };

/**
 * Who debits a link's mandate: the debits capability, unless the link's mandate is kept by the
 * mandates capability's own provider (TOwnMandates: Remita), whose debits it then is (the
 * provider the link names, whatever the lists say now). A debit made earlier on the debits
 * capability's mandate is asked about, cancelled and reversed at the provider that made it
 * (`madeBy`: the attempt's, or the try's provider); a new one goes to new work's. A provider
 * this server no longer runs debits nothing: ProviderNotConfigured.
 */
export function debitsFor(
  providers: TDebitProviders,
  mandateProvider: string | null,
  madeBy: string | null = null,
): TDebitsPort {
  if (mandateProvider !== null) return ownDebitsOf(providers.registry, mandateProvider);
  if (madeBy !== null) return providers.registry.portOf(madeBy, 'debits');
  return usable(providers.payments.debits);
}

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
 * The settlement report with the debits on the mandates capability's own mandates added (Remita
 * keeps no report by our reference): each debit we made on one, as its provider answers when
 * asked about it (a collection's try that succeeded, a saved-account payment's attempt). What
 * `npm run ledger:check` compares with the books; a debit the provider took that we never
 * recorded is not in it.
 */
export function withOwnMandateSettlement(db: TDb, payments: TPaymentProviders): TSettlementPort {
  const { settlement, mandates } = payments;
  return {
    provider: settlement.provider,
    async settlementReport(period) {
      const lines = [...(await settlement.settlementReport(period))];
      const own = isOff(mandates) ? undefined : mandates.own;
      if (!own) return lines;
      const result: unknown = await db.execute(sql`
        SELECT t->>'reference' AS reference, l.debit_authorization AS mandate
        FROM future_payment_collections c
        CROSS JOIN LATERAL jsonb_array_elements(c.tries) t
        JOIN account_links l ON l.account_id = t->>'accountId'
          AND l.mandate_provider = ${mandates.provider} AND l.debit_authorization IS NOT NULL
        WHERE t->>'outcome' = 'succeeded'
        UNION
        SELECT a.id, l.debit_authorization
        FROM payment_attempts a
        JOIN account_links l ON l.account_id = a.debit_account_id
          AND l.mandate_provider = ${mandates.provider} AND l.debit_authorization IS NOT NULL
        WHERE a.provider = ${mandates.provider} AND a.method = 'account'`);
      const seen = new Set<string>();
      for (const row of (result as { rows: Array<{ reference: string; mandate: string }> }).rows) {
        if (seen.has(row.reference)) continue;
        const answer = await own.debits.requeryDebit(row.reference, row.mandate);
        if (answer.kind !== 'taken') continue;
        seen.add(row.reference);
        lines.push({
          channel: 'debit',
          reference: row.reference,
          amount: answer.amount,
          givenBack: answer.givenBack,
          provider: mandates.provider,
        });
      }
      return lines;
    },
  };
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
