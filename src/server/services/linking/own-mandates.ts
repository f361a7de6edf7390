import { and, eq, inArray, sql } from 'drizzle-orm';
import { PAPER_MANDATE_TTL_MS } from '../../../domain/constants';
import {
  mandateCovers,
  mandateTermsOf,
  type TMandateTerms,
  type TTermsPayment,
} from '../../../domain/mandate-terms';
import type { TDb } from '../../db/database';
import type { TJobKind, TJobQueue } from '../../jobs/engine';
import { accountLinks, consents, futurePaymentAccounts, payers, payments } from '../../db/schema';
import { AppError } from '../../app-error';
import type { TMandatePayer, TMandateSetupPort, TOwnMandates } from '../../providers/payments';
import { isOff, type TOffPort } from '../../providers/off';
import type { TProviderRegistry } from '../../providers/registry';
import type { TAppContext } from '../../context';
import { moveLinks } from './link-lifecycle';

/*
 * Mandates the mandates capability's provider keeps and debits itself (TOwnMandates: Remita,
 * docs/providers/remita.md). An account of a bank it mandates links by it: the bank's OTP and card
 * digits where the bank activates so, else the provider's printable form, activated at the branch.
 * The link keeps the provider's reference of the mandate, which its debits go by, and who keeps it.
 */

/**
 * Where a new link's mandate is set up (docs/routing.md "Mandates"), in the order the health
 * routing gives MANDATE_PROVIDERS, as new payouts go: at the first, where it keeps its own
 * mandates of the account's bank (Remita's: `keeps`); else, being a mandate no provider keeps
 * (auth parameters, a paper form), at the first that keeps none of its own (a keeper sets up no
 * other), or the first when all do. The link names the one chosen from its first row, and every
 * later call about its mandate goes there (mandatesOfLink). No provider: the capability is off,
 * and says so.
 */
export async function newMandatesPort(
  providers: TAppContext['providers'],
  institutionCode: string,
): Promise<{ port: TMandateSetupPort | TOffPort; keeps: boolean }> {
  const { registry, health } = providers;
  const candidates = registry.lists.mandates.filter((name) =>
    registry.adapters.some((adapter) => adapter.name === name && adapter.mandates),
  );
  const { order } = await health.route({ capability: 'mandates' }, candidates);
  // The list's first is new work's port (the one the context measures and records).
  const newWork = providers.payments.mandates;
  const ports = order.map((name) =>
    !isOff(newWork) && name === newWork.provider ? newWork : registry.portOf(name, 'mandates'),
  );
  const [first] = ports;
  if (first === undefined) return { port: newWork, keeps: false };
  if (linksByOwnMandate(first, institutionCode)) return { port: first, keeps: true };
  return { port: ports.find((port) => !port.own) ?? first, keeps: false };
}

/** The mandates capability's own mandates, where its provider keeps them; null otherwise. */
export function ownMandatesOf(mandates: TMandateSetupPort | TOffPort): TOwnMandates | null {
  // An off capability keeps nothing.
  if (isOff(mandates)) return null;
  return mandates.own ?? null;
}

/** Whether an account of this bank links by the provider's own mandate. */
export const linksByOwnMandate = (
  mandates: TMandateSetupPort | TOffPort,
  institutionCode: string,
) => ownMandatesOf(mandates)?.mandatesBank(institutionCode) === true;

/** The payer as a provider's mandate names them. */
export async function mandatePayerOf(db: TDb, payerId: string): Promise<TMandatePayer> {
  const [payer] = await db
    .select({ fullName: payers.fullName, phoneNumber: payers.phoneNumber })
    .from(payers)
    .where(eq(payers.id, payerId));
  if (!payer) throw new Error(`Payer ${payerId} vanished`);
  return { id: payerId, ...payer };
}

/** A payment as a mandate's terms read it, from its row (an immediate one is due `now`). */
const termsPayment = (
  p: {
    type: string;
    amount: number;
    amountType: string | null;
    dueDate: Date | null;
    startDate: Date | null;
    endDate: Date | null;
  },
  now: Date,
): TTermsPayment =>
  p.type === 'immediate'
    ? { ...p, onDemand: false, dueDate: now }
    : { ...p, onDemand: p.amountType === 'variable' || p.dueDate === null };

const termsColumns = {
  type: payments.type,
  amount: payments.amount,
  amountType: payments.amountType,
  dueDate: payments.dueDate,
  startDate: payments.startDate,
  endDate: payments.endDate,
};

/**
 * What a provider's own mandate for the consent `consentId` may allow: the terms of its payments
 * still to be granted (docs/providers/remita.md "Terms"), its future payments and the immediate
 * one, which the payer may pay from the account once it is linked (due now). Null when there is
 * no future payment to serve (no such consent, one no longer pending, or one without any).
 */
export async function consentMandateTerms(
  db: TDb,
  consentId: string,
  now: Date,
): Promise<TMandateTerms | null> {
  const rows = await db
    .select(termsColumns)
    .from(payments)
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .where(
      and(
        eq(payments.consentId, consentId),
        eq(payments.status, 'pending'),
        eq(consents.status, 'pending'),
      ),
    );
  if (!rows.some((p) => p.type === 'future')) return null;
  return mandateTermsOf(
    rows.map((p) => termsPayment(p, now)),
    now,
  );
}

/**
 * Refuses a grant that would have a provider's own mandate (Remita's) serve more than it was set
 * up to allow (409 MANDATE_TERMS_EXCEEDED): the bank would refuse those debits when they fall due.
 * Each chosen account's mandate is to serve what it serves already (the pending future payments
 * of granted consents bound to it) and the consent's payments it is chosen for: its future
 * payments, and its immediate payment where the account pays it.
 */
export async function assertOwnMandatesCover(
  db: TDb,
  grant: {
    consentId: string;
    futureMandateIds: string[];
    debitMandateId: string | null;
    now: Date;
  },
): Promise<void> {
  const mandateIds = [...new Set([...grant.futureMandateIds, grant.debitMandateId ?? []].flat())];
  if (mandateIds.length === 0) return;
  const kept = await db
    .select({ id: accountLinks.id, terms: accountLinks.mandateTerms })
    .from(accountLinks)
    .where(
      and(inArray(accountLinks.id, mandateIds), sql`${accountLinks.mandateTerms} IS NOT NULL`),
    );
  if (kept.length === 0) return;
  const own = await db
    .select(termsColumns)
    .from(payments)
    .where(and(eq(payments.consentId, grant.consentId), eq(payments.status, 'pending')));
  for (const { id, terms } of kept) {
    if (!terms) continue;
    const served = await db
      .selectDistinct({ id: payments.id, ...termsColumns })
      .from(futurePaymentAccounts)
      .innerJoin(payments, eq(payments.id, futurePaymentAccounts.paymentId))
      .innerJoin(consents, eq(consents.id, payments.consentId))
      .where(
        and(
          eq(futurePaymentAccounts.mandateId, id),
          eq(payments.status, 'pending'),
          eq(consents.status, 'granted'),
        ),
      );
    const adding = own.filter((p) =>
      p.type === 'future' ? grant.futureMandateIds.includes(id) : grant.debitMandateId === id,
    );
    const all = [...served, ...adding].map((p) => termsPayment(p, grant.now));
    if (!mandateCovers(terms, all)) throw new AppError('MANDATE_TERMS_EXCEEDED');
  }
}

/** Records on the link the provider's mandate: what its debits go by, and who keeps it. */
export async function keepOwnMandate(
  db: TDb,
  linkId: string,
  mandate: { provider: string; providerReference: string; requestId?: string },
): Promise<void> {
  await db
    .update(accountLinks)
    .set({
      providerReference: mandate.providerReference,
      debitAuthorization: mandate.providerReference,
      mandateProvider: mandate.provider,
      debitProvider: mandate.provider,
      ...(mandate.requestId ? { requestId: mandate.requestId } : {}),
    })
    .where(eq(accountLinks.id, linkId));
}

/**
 * The payer's bank does not activate the provider's mandates by OTP: the open link becomes a paper
 * mandate on the provider's printable form, awaiting the bank, with a paper mandate's lifetime.
 * The form's mandate is set up with its own reference (the link's id, `.paper`), which its status
 * and its stop are asked with. Null when the link was no longer open.
 */
export async function openOwnPaperMandate(
  db: TDb,
  mandates: TMandateSetupPort,
  request: {
    linkId: string;
    institutionCode: string;
    accountNumber: string;
    payer: TMandatePayer;
    terms: TMandateTerms | undefined;
    now: Date;
  },
): Promise<{ formUrl: string } | null> {
  const own = ownMandatesOf(mandates);
  if (!own || !request.terms) return null;
  const reference = `${request.linkId}.paper`;
  const opened = await own.openPaperMandate({
    reference,
    institutionCode: request.institutionCode,
    accountNumber: request.accountNumber,
    payer: request.payer,
    terms: request.terms,
  });
  const [moved] = await db
    .update(accountLinks)
    .set({
      route: 'paper',
      state: 'awaiting_authorisation',
      expiresAt: new Date(request.now.getTime() + PAPER_MANDATE_TTL_MS),
      providerReference: opened.providerReference,
      debitAuthorization: opened.providerReference,
      mandateProvider: mandates.provider,
      debitProvider: mandates.provider,
      requestId: reference,
      updatedAt: request.now,
    })
    .where(
      and(
        eq(accountLinks.id, request.linkId),
        inArray(accountLinks.state, ['created', 'awaiting_authorisation']),
      ),
    )
    .returning({ id: accountLinks.id });
  return moved ? { formUrl: opened.formUrl } : null;
}

/** The job that stops a provider's own mandate (`{ linkId }`): a call outside, after the commit. */
export const STOP_MANDATE_JOB = 'collections.stop-mandate';

/**
 * Inside the transaction that cancels future payments (the payer's revocation, the merchant's
 * cancel): each link of a provider's own mandate that bound one of them, and that no future
 * payment still pending is bound to, ends (active to cancelled, so it debits nothing and the
 * account may link afresh) and its mandate's stop at the provider is enqueued in `tx`. Answers
 * the links ended.
 */
export async function stopOwnMandatesOf(
  jobs: TJobQueue,
  tx: TDb,
  paymentIds: readonly string[],
  now: Date,
): Promise<string[]> {
  if (paymentIds.length === 0) return [];
  const ended = await moveLinks(
    tx,
    and(
      sql`${accountLinks.mandateProvider} IS NOT NULL`,
      sql`${accountLinks.id} IN (
          SELECT f.mandate_id FROM future_payment_accounts f
          WHERE f.payment_id IN (${sql.join(
            paymentIds.map((id) => sql`${id}`),
            sql`, `,
          )}))`,
      sql`NOT EXISTS (
          SELECT 1 FROM future_payment_accounts g JOIN payments p ON p.id = g.payment_id
          WHERE g.mandate_id = ${accountLinks.id} AND p.type = 'future' AND p.status = 'pending')`,
    ),
    'stop',
    now,
  );
  for (const { id } of ended) {
    await jobs.enqueue(tx, STOP_MANDATE_JOB, { linkId: id }, { singletonKey: id });
  }
  return ended.map(({ id }) => id);
}

/**
 * Stops an ended link's mandate at the provider that keeps it, with the reference it was set up
 * with, and records on the link how the provider says it ended. A provider that does not answer,
 * or holds the mandate still active, throws: the engine tries again later.
 */
export function stopMandateJob(ctx: {
  db: TDb;
  providers: { registry: Pick<TProviderRegistry, 'portOf'> };
}): TJobKind {
  return {
    name: STOP_MANDATE_JOB,
    retry: { limit: 10, delaySeconds: 60, maxDelaySeconds: 6 * 3_600 },
    expireSeconds: 120,
    async run(data) {
      const { linkId } = data as { linkId: string };
      const [link] = await ctx.db.select().from(accountLinks).where(eq(accountLinks.id, linkId));
      if (!link?.mandateProvider || !link.providerReference) return { stopped: false };
      // The provider the link names, whatever MANDATE_PROVIDER says now; ProviderNotConfigured
      // (tried again later) when this server does not run it.
      const own = ownMandatesOf(ctx.providers.registry.portOf(link.mandateProvider, 'mandates'));
      if (!own) {
        throw new Error(`No adapter of ${link.mandateProvider} stops mandate of link ${linkId}`);
      }
      const end = await own.stopMandate({
        providerReference: link.providerReference,
        reference: link.requestId ?? link.id,
      });
      // What the provider holds, recorded: stopped, ended on its date, or never running.
      await ctx.db.update(accountLinks).set({ mandateEnd: end }).where(eq(accountLinks.id, linkId));
      return { end };
    },
  };
}
