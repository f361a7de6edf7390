import { asc, eq, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { maskAccountNumber } from '../../../domain/account-row';
import { bvnLookupPurposeText } from '../../../domain/bvn-lookups';
import type { TPayerExport, TPayerRightsRequest } from '../../../domain/schemas/payer-rights';
import type { TDb } from '../../db/database';
import {
  authSessions,
  bvnLookups,
  consentEvents,
  consents,
  dataSharingItems,
  formFiles,
  formResponseSections,
  formResponses,
  merchants,
  passkeys,
  payerAccounts,
  payers,
  paymentAttempts,
  paymentComplaints,
  paymentRefunds,
  payments,
  payouts,
} from '../../db/schema';

/*
 * The copy of everything held about a payer (docs/payer-rights.md "The copy"), read in one place
 * so that what the file holds is listed once. Nothing in it is a secret in clear: the BVN is its
 * last 4 digits, an account or card its last 4, a passkey its name and dates (never its key), a
 * sign-in its method and dates (never its token), an uploaded file its name, type and size, a
 * lookup of the BVN what it was for and who received what (the BVN is in none of them).
 * export-coverage.ts names the section of every table that holds the payer's data.
 */

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/** The payer's consents, each with every version of its record and its whole history. */
async function consentsOf(db: TDb, payerId: string) {
  const rows = await db
    .select({
      consentId: consents.id,
      status: consents.status,
      grantedAt: consents.grantedAt,
      revokedAt: consents.revokedAt,
      pausedAt: consents.pausedAt,
      merchant: merchants.name,
    })
    .from(consents)
    .innerJoin(merchants, eq(merchants.id, consents.merchantId))
    .where(eq(consents.grantedBy, payerId))
    .orderBy(asc(consents.createdAt));
  const ids = rows.map((row) => row.consentId);
  const history = ids.length
    ? await db
        .select()
        .from(consentEvents)
        .where(inArray(consentEvents.consentId, ids))
        .orderBy(asc(consentEvents.id))
    : [];
  return rows.map((row) => {
    const own = history.filter((event) => event.consentId === row.consentId);
    return {
      ...row,
      grantedAt: iso(row.grantedAt),
      revokedAt: iso(row.revokedAt),
      pausedAt: iso(row.pausedAt),
      // Each grant (and grant again) keeps the text the payer was shown and signed.
      recordVersions: own
        .filter((event) => event.type === 'consent.granted')
        .map((event) => ({ at: event.createdAt.toISOString(), record: event.data.record ?? null })),
      history: own.map((event) => ({
        type: event.type,
        actor: event.actor,
        at: event.createdAt.toISOString(),
        data: event.data,
      })),
    };
  });
}

/** Payments of the payer's consents and those they paid, with the refunds of them. */
async function moneyOf(db: TDb, payerId: string, consentIds: string[]) {
  const attempts = await db
    .select({
      paymentId: paymentAttempts.paymentId,
      method: paymentAttempts.method,
      status: paymentAttempts.status,
      amount: paymentAttempts.amount,
      cardBrand: paymentAttempts.cardBrand,
      cardLast4: paymentAttempts.cardLast4,
      createdAt: paymentAttempts.createdAt,
      completedAt: paymentAttempts.completedAt,
    })
    .from(paymentAttempts)
    .where(eq(paymentAttempts.payerId, payerId))
    .orderBy(asc(paymentAttempts.createdAt));
  // A card link's test charge pays no payment: it is among the attempts, with no payment.
  const paymentIds = [
    ...new Set(attempts.flatMap((a) => (a.paymentId === null ? [] : [a.paymentId]))),
  ];
  const ofPayer = consentIds.length || paymentIds.length;
  const paymentRows = ofPayer
    ? await db
        .select({
          paymentId: payments.id,
          consentId: payments.consentId,
          type: payments.type,
          status: payments.status,
          amount: payments.amount,
          narration: payments.narration,
          dueDate: payments.dueDate,
          executedAt: payments.executedAt,
        })
        .from(payments)
        .where(
          or(
            consentIds.length ? inArray(payments.consentId, consentIds) : undefined,
            paymentIds.length ? inArray(payments.id, paymentIds) : undefined,
          ),
        )
    : [];
  const allIds = paymentRows.map((p) => p.paymentId);
  const refunds = allIds.length
    ? await db
        .select({
          refundId: paymentRefunds.id,
          paymentId: paymentRefunds.paymentId,
          amount: paymentRefunds.amount,
          status: paymentRefunds.status,
          reason: paymentRefunds.reason,
          createdAt: paymentRefunds.createdAt,
          endedAt: paymentRefunds.endedAt,
        })
        .from(paymentRefunds)
        .where(inArray(paymentRefunds.paymentId, allIds))
    : [];
  return {
    payments: paymentRows.map((p) => ({
      ...p,
      executedAt: iso(p.executedAt),
      attempts: attempts
        .filter((a) => a.paymentId === p.paymentId)
        .map((a) => ({ ...a, createdAt: iso(a.createdAt), completedAt: iso(a.completedAt) })),
    })),
    refunds: refunds.map((r) => ({ ...r, createdAt: iso(r.createdAt), endedAt: iso(r.endedAt) })),
    receipts: paymentRows
      .filter((p) => p.executedAt !== null)
      .map((p) => ({ paymentId: p.paymentId, amount: p.amount, paidAt: iso(p.executedAt) })),
  };
}

/** Form answers and uploaded files (their names, types and sizes) of the payer's consents. */
async function formsOf(db: TDb, consentIds: string[]) {
  if (consentIds.length === 0) return [];
  const responses = await db
    .select()
    .from(formResponses)
    .where(inArray(formResponses.consentId, consentIds));
  const ids = responses.map((r) => r.id);
  if (ids.length === 0) return [];
  const sections = await db
    .select()
    .from(formResponseSections)
    .where(inArray(formResponseSections.responseId, ids));
  const files = await db.select().from(formFiles).where(inArray(formFiles.responseId, ids));
  return responses.map((r) => ({
    formResponseId: r.id,
    consentId: r.consentId,
    submittedAt: iso(r.submittedAt),
    answers: sections
      .filter((s) => s.responseId === r.id)
      .map((s) => ({ sectionId: s.sectionId, answers: s.answers })),
    files: files
      .filter((f) => f.responseId === r.id)
      .map((f) => ({
        fileId: f.id,
        fieldId: f.fieldId,
        fileName: f.fileName,
        mediaType: f.mediaType,
        size: f.size,
        uploadedAt: f.createdAt.toISOString(),
      })),
  }));
}

/** What each merchant was given: the categories of data its consent shared, and when. */
async function sharedOf(db: TDb, payerId: string) {
  const rows = await db
    .select({
      consentId: consents.id,
      merchant: merchants.name,
      grantedAt: consents.grantedAt,
      endedAt: consents.dataSharingEndedAt,
      category: dataSharingItems.category,
      item: dataSharingItems.item,
    })
    .from(dataSharingItems)
    .innerJoin(consents, eq(consents.id, dataSharingItems.consentId))
    .innerJoin(merchants, eq(merchants.id, consents.merchantId))
    .where(eq(consents.grantedBy, payerId));
  return rows
    .filter((row) => row.grantedAt !== null)
    .map((row) => ({ ...row, grantedAt: iso(row.grantedAt), endedAt: iso(row.endedAt) }));
}

/** The complaints the payer raised, with their words, targets and states. */
async function complaintsOf(db: TDb, payerId: string) {
  const rows = await db
    .select({ complaint: paymentComplaints, merchant: merchants.name })
    .from(paymentComplaints)
    .innerJoin(merchants, eq(merchants.id, paymentComplaints.merchantId))
    .where(eq(paymentComplaints.payerId, payerId))
    .orderBy(asc(paymentComplaints.createdAt));
  return rows.map(({ complaint: c, merchant }) => ({
    reference: c.reference,
    paymentId: c.paymentId,
    consentId: c.consentId,
    merchant,
    category: c.category,
    description: c.description,
    state: c.state,
    raisedAt: c.createdAt.toISOString(),
    acknowledgeBy: c.acknowledgeBy.toISOString(),
    resolveBy: c.resolveBy.toISOString(),
    acknowledgedAt: iso(c.acknowledgedAt),
    resolvedAt: iso(c.resolvedAt),
    resolution: c.resolution,
  }));
}

/** The merchant of the consent a lookup was made for (beside the one that received data). */
const consentMerchants = alias(merchants, 'consent_merchants');

/**
 * Every lookup made with the payer's BVN or accounts: when, what for, through which provider, and
 * which merchant received what. An account is its bank and last 4 digits, as the lookup kept it.
 */
async function bvnLookupsOf(db: TDb, payerId: string) {
  const rows = await db
    .select({
      lookup: bvnLookups,
      receivedBy: merchants.name,
      consentMerchantName: consentMerchants.name,
      // The payer's account at that bank ending in those digits names the bank.
      bankName: sql<string | null>`(
        select ${payerAccounts.bankName} from ${payerAccounts}
        where ${payerAccounts.payerId} = ${bvnLookups.payerId}
          and ${payerAccounts.institutionCode} = ${bvnLookups.institutionCode}
          and right(${payerAccounts.accountNumber}, 4) = ${bvnLookups.accountLast4}
        order by ${payerAccounts.createdAt}, ${payerAccounts.id}
        limit 1
      )`,
    })
    .from(bvnLookups)
    .leftJoin(merchants, eq(merchants.id, bvnLookups.merchantId))
    .leftJoin(consents, eq(consents.id, bvnLookups.consentId))
    .leftJoin(consentMerchants, eq(consentMerchants.id, consents.merchantId))
    .where(eq(bvnLookups.payerId, payerId))
    .orderBy(asc(bvnLookups.createdAt), asc(bvnLookups.id));
  return rows.map(({ lookup, receivedBy, consentMerchantName, bankName }) => {
    const account =
      lookup.institutionCode && lookup.accountLast4
        ? {
            bankName: bankName ?? `Bank ${lookup.institutionCode}`,
            accountNumber: maskAccountNumber(lookup.accountLast4),
          }
        : null;
    return {
      kind: lookup.kind,
      at: lookup.createdAt.toISOString(),
      madeFor: bvnLookupPurposeText({ kind: lookup.kind, consentMerchantName, account }),
      consentId: lookup.consentId,
      provider: lookup.provider,
      account,
      receivedBy,
      received: lookup.items,
    };
  });
}

/** What the payer released from their payment requests' wallet to their accounts (masked). */
async function payoutsOf(db: TDb, payerId: string) {
  const rows = await db
    .select()
    .from(payouts)
    .where(eq(payouts.payerId, payerId))
    .orderBy(asc(payouts.createdAt));
  return rows.map((p) => ({
    payoutId: p.id,
    amount: p.amount,
    bankName: p.bankName,
    accountNumber: maskAccountNumber(p.accountNumber),
    accountName: p.accountName,
    status: p.status,
    failureReason: p.failureReason,
    createdAt: p.createdAt.toISOString(),
    endedAt: iso(p.endedAt),
  }));
}

/** The payer's linked accounts and cards, masked. */
async function accountsOf(db: TDb, payerId: string) {
  const rows = await db.select().from(payerAccounts).where(eq(payerAccounts.payerId, payerId));
  return rows.map((a) => ({
    accountId: a.id,
    bankName: a.bankName,
    accountNumber: maskAccountNumber(a.accountNumber),
    accountName: a.accountName,
    card: a.cardLast4 ? { brand: a.cardBrand, last4: a.cardLast4 } : null,
    linkedAt: a.createdAt.toISOString(),
  }));
}

/** Everything held about the payer, as the file gives it. */
export async function payerExport(
  db: TDb,
  payerId: string,
  requests: TPayerRightsRequest[],
  now: Date,
): Promise<TPayerExport> {
  const [payer] = await db.select().from(payers).where(eq(payers.id, payerId));
  if (!payer) throw new Error(`No payer ${payerId}`);
  const consentList = await consentsOf(db, payerId);
  const consentIds = consentList.map((c) => c.consentId);
  const keys = await db.select().from(passkeys).where(eq(passkeys.payerId, payerId));
  const sessions = await db
    .select()
    .from(authSessions)
    .where(eq(authSessions.payerId, payerId))
    .orderBy(asc(authSessions.createdAt));
  return {
    preparedAt: now.toISOString(),
    profile: {
      payerId,
      fullName: payer.fullName,
      phoneNumber: payer.phoneNumber,
      createdAt: payer.createdAt.toISOString(),
      bvn: payer.bvnLast4 ? { last4: payer.bvnLast4, verifiedAt: iso(payer.bvnVerifiedAt) } : null,
    },
    // A changed number is not kept once changed: the one held is the current one.
    phoneHistory: [{ phoneNumber: payer.phoneNumber, current: true }],
    passkeys: keys.map((k) => ({
      deviceType: k.deviceType,
      synced: k.backedUp,
      addedAt: k.createdAt.toISOString(),
      lastUsedAt: iso(k.lastUsedAt),
      removalDueAt: iso(k.removalDueAt),
    })),
    accounts: await accountsOf(db, payerId),
    consents: consentList,
    ...(await moneyOf(db, payerId, consentIds)),
    payouts: await payoutsOf(db, payerId),
    complaints: await complaintsOf(db, payerId),
    forms: await formsOf(db, consentIds),
    sharedWithMerchants: await sharedOf(db, payerId),
    bvnLookups: await bvnLookupsOf(db, payerId),
    signIns: sessions.map((s) => ({
      method: s.method,
      at: s.createdAt.toISOString(),
      expiresAt: s.expiresAt.toISOString(),
      endedAt: iso(s.revokedAt),
      passkeyProvenAt: iso(s.passkeyProvenAt),
    })),
    requests,
  };
}
