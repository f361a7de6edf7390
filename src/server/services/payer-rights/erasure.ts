import { and, asc, eq, inArray, isNotNull, isNull, like, or, sql } from 'drizzle-orm';
import { CONSENT_TRANSITIONS } from '../../../domain/consent-lifecycle';
import { ERASED_NAME, erasedPhoneNumber, type TLegalHold } from '../../../domain/payer-rights';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import type { TJobQueue } from '../../jobs/engine';
import {
  accountLinks,
  accountOwnerLookups,
  authDiscoveries,
  authSessions,
  bvnCodes,
  bvnLookups,
  consents,
  dashboardInvitations,
  dataSharingItems,
  events,
  eventStreamTickets,
  formFiles,
  formResponseSections,
  formResponses,
  idempotencyKeys,
  passkeys,
  payerAccounts,
  payerRightsRequests,
  payers,
  paymentAttempts,
  paymentComplaints,
  phoneCodes,
  smsOutbox,
  smsQueue,
  webauthnChallenges,
} from '../../db/schema';
import { signatureRecord, type TVerifiedGrant } from '../identity/signed-grants';
import { stopOwnMandatesOf } from '../linking/own-mandates';
import { recordMerchantEvent } from '../change-records';
import { removeStoredFile } from '../forms/form-files';
import { insertConsentEvent, recordConsentChange } from '../consents/consent-changes';
import { cancelFuturePayments } from '../consents/payer-consents';
import { moveConsent } from '../consents/consent-moves';

/*
 * A payer's erasure (docs/payer-rights.md "Erase my data"), in two steps:
 * 1. The request's transaction (requests.ts askErasure), once the payer's passkey signed the
 *    erasure (erasure-signature.ts): the nonce used up; the request received; every consent of
 *    the payer still granted revoked as a revocation does (its future payments and their pending
 *    collections cancelled, its mandates stopped at the bank by their job, `consent.revoked` to
 *    the merchant); every merchant a consent shared data with told `payer.erasure_requested`,
 *    since it holds its own copy; and the erasure's job queued.
 * 2. The job (eraseFor), one transaction: every column personal-data.ts rules `erase` emptied or
 *    its rows deleted, every `anonymise` one replaced, the request done with the holds that kept
 *    the rest. The payer's sessions end with it. Uploaded files are removed after the commit:
 *    a crash between leaves a file no row names, never a row naming no file.
 */

export const ERASURE_JOB = 'payer-rights.erase';

/** The holds an erasure answers with, in the order the answer lists them. */
export const ERASURE_HOLDS: TLegalHold[] = ['money', 'consentRecord'];

/**
 * Step 1: the payer's granted consents revoked, their merchants told; answers how many. Each
 * revocation's audit row keeps the passkey's signature of the erasure that asked it.
 */
export async function stopConsentsForErasure(
  jobs: TJobQueue,
  tx: TDb,
  payerId: string,
  now: Date,
  signature: TVerifiedGrant,
): Promise<number> {
  const granted = await tx
    .select({ consentId: consents.id })
    .from(consents)
    .where(
      and(
        eq(consents.grantedBy, payerId),
        inArray(consents.status, [...CONSENT_TRANSITIONS.revoke.from]),
      ),
    )
    .orderBy(asc(consents.id));
  let revoked = 0;
  for (const { consentId } of granted) {
    // Each moves on its own; one the payer revoked meanwhile is passed by.
    const moved = await moveConsent(tx, consentId, 'revoke', { revokedAt: now });
    if (!moved) continue;
    revoked += 1;
    const { clientId } = moved;
    const cancelled = await cancelFuturePayments(tx, consentId, 'consent_revoked', now);
    await stopOwnMandatesOf(jobs, tx, cancelled.paymentIds, now);
    await insertConsentEvent(tx, {
      consentId,
      type: 'consent.revoked',
      actor: `payer:${payerId}`,
      data: {
        reason: 'erasure_requested',
        signature: signatureRecord(signature),
        cancelledPaymentIds: cancelled.paymentIds,
        cancelledCollectionIds: cancelled.collectionIds,
      },
      createdAt: now,
    });
    await recordMerchantEvent(jobs, tx, {
      clientId,
      consentId,
      type: 'consent.revoked',
      data: {
        consentId,
        revokedAt: now.toISOString(),
        cancelledPaymentIds: cancelled.paymentIds,
      },
      now,
    });
  }
  return revoked;
}

/** Step 1: each merchant that received the payer's data by a consent, told of the erasure. */
export async function tellMerchantsOfErasure(
  jobs: TJobQueue,
  tx: TDb,
  payerId: string,
  now: Date,
): Promise<number> {
  const shared = await tx
    .select({
      consentId: consents.id,
      clientId: consents.clientId,
      category: dataSharingItems.category,
    })
    .from(dataSharingItems)
    .innerJoin(consents, eq(consents.id, dataSharingItems.consentId))
    .where(and(eq(consents.grantedBy, payerId), isNotNull(consents.grantedAt)));
  const byConsent = new Map<string, { clientId: string; dataTypes: Set<string> }>();
  for (const row of shared) {
    const entry = byConsent.get(row.consentId) ?? { clientId: row.clientId, dataTypes: new Set() };
    entry.dataTypes.add(row.category);
    byConsent.set(row.consentId, entry);
  }
  for (const [consentId, { clientId, dataTypes }] of byConsent) {
    await recordConsentChange(jobs, tx, {
      clientId,
      consentId,
      type: 'payer.erasure_requested',
      actor: `payer:${payerId}`,
      data: { consentId, requestedAt: now.toISOString(), dataTypes: [...dataTypes].sort() },
      now,
    });
  }
  return byConsent.size;
}

/**
 * The payer's form responses: their answers and files are erased, the responses' ids kept. Theirs
 * are those of the consents they granted, and of the consents nobody granted that they signed in
 * for (a discovery naming the consent, used by their sign-in): answers begun and never granted
 * are the payer's words, with no hold on them. Read before the identity goes (eraseIdentity).
 */
async function eraseFormAnswers(tx: TDb, payerId: string): Promise<string[]> {
  const signedInFor = tx
    .select({ consentId: authDiscoveries.consentId })
    .from(authDiscoveries)
    .where(and(eq(authDiscoveries.payerId, payerId), isNotNull(authDiscoveries.consentId)));
  const responses = await tx
    .select({ id: formResponses.id })
    .from(formResponses)
    .innerJoin(consents, eq(consents.id, formResponses.consentId))
    .where(
      or(
        eq(consents.grantedBy, payerId),
        and(isNull(consents.grantedBy), inArray(consents.id, signedInFor)),
      ),
    );
  const ids = responses.map((r) => r.id);
  if (ids.length === 0) return [];
  await tx.delete(formResponseSections).where(inArray(formResponseSections.responseId, ids));
  const files = await tx
    .delete(formFiles)
    .where(inArray(formFiles.responseId, ids))
    .returning({ storageKey: formFiles.storageKey });
  return files.map((f) => f.storageKey);
}

/** The payer's identity: sign-ins, passkeys, codes, messages, BVN and lookups by it. */
async function eraseIdentity(
  tx: TDb,
  payer: { id: string; phoneNumber: string; bvnHash: string | null },
): Promise<void> {
  const { id, phoneNumber } = payer;
  await tx.delete(authSessions).where(eq(authSessions.payerId, id));
  await tx.delete(passkeys).where(eq(passkeys.payerId, id));
  await tx.delete(bvnCodes).where(eq(bvnCodes.payerId, id));
  await tx.delete(bvnLookups).where(eq(bvnLookups.payerId, id));
  await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.payerId, id));
  await tx.delete(eventStreamTickets).where(eq(eventStreamTickets.payerId, id));
  await tx.update(authDiscoveries).set({ payerId: null }).where(eq(authDiscoveries.payerId, id));
  await tx.delete(phoneCodes).where(eq(phoneCodes.phoneNumber, phoneNumber));
  await tx.delete(smsQueue).where(eq(smsQueue.phoneNumber, phoneNumber));
  await tx.delete(smsOutbox).where(eq(smsOutbox.phoneNumber, phoneNumber));
  await tx.delete(events).where(like(events.stream, `%:${id}`));
  // The stored first answers of the payer's own calls (a complaint's words, a corrected name):
  // no session of theirs is left to send a retry, so they do not wait to expire.
  await tx.delete(idempotencyKeys).where(like(idempotencyKeys.scope, `%:${id}`));
  await tx
    .update(dashboardInvitations)
    .set({ phoneNumber: erasedPhoneNumber(id) })
    .where(eq(dashboardInvitations.phoneNumber, phoneNumber));
  if (payer.bvnHash) {
    await tx.delete(accountOwnerLookups).where(eq(accountOwnerLookups.ownerBvnHash, payer.bvnHash));
  }
  // The registry's answers about the payer's own accounts, whatever owner they named (none, or
  // another's): each says who holds one of the payer's accounts.
  await tx
    .delete(accountOwnerLookups)
    .where(
      inArray(
        sql`(${accountOwnerLookups.institutionCode}, ${accountOwnerLookups.accountNumber})`,
        tx
          .select({ code: payerAccounts.institutionCode, number: payerAccounts.accountNumber })
          .from(payerAccounts)
          .where(eq(payerAccounts.payerId, id)),
      ),
    );
}

/**
 * The payer's complaints: kept with the payments they are about (their category, state and
 * dates), the payer's own words of them emptied.
 */
async function eraseComplaintWords(tx: TDb, payerId: string): Promise<void> {
  await tx
    .update(paymentComplaints)
    .set({ description: '' })
    .where(eq(paymentComplaints.payerId, payerId));
}

/** The payer's accounts and cards: what could charge them again goes, the numbers stay. */
async function eraseAccounts(tx: TDb, payerId: string): Promise<void> {
  await tx
    .update(payerAccounts)
    .set({
      accountName: ERASED_NAME,
      nameEnquiryId: null,
      bvnHash: null,
      holderCheckBvnHash: null,
      cardToken: null,
      cardBrand: null,
      cardFirst6: null,
      cardLast4: null,
      cardExpiryMonth: null,
      cardExpiryYear: null,
      cardSavedAt: null,
    })
    .where(eq(payerAccounts.payerId, payerId));
  await tx
    .update(accountLinks)
    .set({ bvnHash: null, cardExpiryMonth: null, cardExpiryYear: null })
    .where(eq(accountLinks.payerId, payerId));
  await tx
    .update(paymentAttempts)
    .set({ cardToken: null, cardExpiryMonth: null, cardExpiryYear: null })
    .where(
      and(
        eq(paymentAttempts.payerId, payerId),
        or(isNotNull(paymentAttempts.cardToken), isNotNull(paymentAttempts.cardExpiryMonth)),
      ),
    );
}

/**
 * The holds that keep some of this payer's data, read before anything is erased: the answer
 * names what was kept, not what an erasure may keep. Money: an account or card they linked, or a
 * payment they made (its records, the account numbers and names on them). The consent record: a
 * consent they granted.
 */
async function holdsOver(tx: TDb, payerId: string): Promise<TLegalHold[]> {
  const any = async (rows: Promise<unknown[]>) => (await rows).length > 0;
  const held: Record<TLegalHold, boolean> = {
    money:
      (await any(
        tx
          .select({ id: payerAccounts.id })
          .from(payerAccounts)
          .where(eq(payerAccounts.payerId, payerId))
          .limit(1),
      )) ||
      (await any(
        tx
          .select({ id: paymentAttempts.id })
          .from(paymentAttempts)
          .where(eq(paymentAttempts.payerId, payerId))
          .limit(1),
      )),
    consentRecord: await any(
      tx.select({ id: consents.id }).from(consents).where(eq(consents.grantedBy, payerId)).limit(1),
    ),
  };
  return ERASURE_HOLDS.filter((hold) => held[hold]);
}

/**
 * Step 2, the erasure's job: in one transaction that takes the request only while it is received,
 * everything not held erased or made anonymous, and the request done. A job run again after it
 * committed finds the request done and does nothing.
 */
export async function eraseFor(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'config'>,
  requestId: string,
): Promise<{ erased: boolean }> {
  const now = ctx.clock.now();
  const files = await ctx.db.transaction(async (tx) => {
    const [request] = await tx
      .update(payerRightsRequests)
      .set({ status: 'done', doneAt: now })
      .where(
        and(
          eq(payerRightsRequests.id, requestId),
          eq(payerRightsRequests.kind, 'erasure'),
          eq(payerRightsRequests.status, 'received'),
        ),
      )
      .returning({ payerId: payerRightsRequests.payerId });
    if (!request) return null;
    const [payer] = await tx
      .select({ id: payers.id, phoneNumber: payers.phoneNumber, bvnHash: payers.bvnHash })
      .from(payers)
      .where(eq(payers.id, request.payerId))
      .for('update');
    if (!payer) return null;
    await tx
      .update(payerRightsRequests)
      .set({ kept: await holdsOver(tx, payer.id) })
      .where(eq(payerRightsRequests.id, requestId));
    const storageKeys = await eraseFormAnswers(tx, payer.id);
    await eraseIdentity(tx, payer);
    await eraseAccounts(tx, payer.id);
    await eraseComplaintWords(tx, payer.id);
    await tx
      .update(payerRightsRequests)
      .set({ exportSealed: null, expiresAt: null })
      .where(eq(payerRightsRequests.payerId, payer.id));
    await tx
      .update(payers)
      .set({
        fullName: ERASED_NAME,
        phoneNumber: erasedPhoneNumber(payer.id),
        bvnHash: null,
        bvnSealed: null,
        bvnLast4: null,
        bvnVerifiedAt: null,
        bvnHolderSealed: null,
        bvnAccountsSealed: null,
      })
      .where(eq(payers.id, payer.id));
    return storageKeys;
  });
  if (files === null) return { erased: false };
  for (const key of files) await removeStoredFile(ctx.config.dataDir, key);
  return { erased: true };
}
