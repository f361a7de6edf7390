import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, lt, or } from 'drizzle-orm';
import { canRevoke, upcomingDebits } from '../../../domain/payer-consents';
import { maskAccountNumber } from '../../../domain/account-row';
import type { TGrantChallengeResponse } from '../../../domain/schemas/auth';
import {
  revocationSigningMessage,
  type TPayerConsent,
  type TPayerConsentsQuery,
  type TPayerConsentsResponse,
  type TRepaymentAccount,
  type TRevokeConsentRequest,
} from '../../../domain/schemas/payer-consents';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import type { TJobQueue } from '../../jobs/engine';
import {
  authSessions,
  consents,
  futurePaymentCollections,
  payers,
  payments,
} from '../../db/schema';
import { revokedMessage } from '../../../domain/passkey-trust';
import { stopOwnMandatesOf } from '../linking/own-mandates';
import type { TPayerRefund } from '../../../domain/schemas/refunds';
import { accountPageUrl } from '../page-urls';
import { AppError } from '../../app-error';
import { loadConsent, type TLoadedConsent } from './consents';
import { boundAccountsOf } from '../payments/future-collections';
import { reversalsOfConsent } from '../payments/reversals';
import { refundsOfConsent } from '../payments/refunds';
import { consentSeenBy } from '../payments/origin-views';
import { decodeListCursor, encodeListCursor } from '../list-cursor';
import { logoOf } from '../linking/payer-accounts';
import {
  checkSignature,
  issueGrantChallenge,
  signatureRecord,
  useUpNonce,
  type TVerifiedGrant,
} from '../identity/signed-grants';
import { recordMerchantEvent } from '../change-records';
import {
  sendQueuedSms,
  type TSmsJobs,
  openSmsOutbox,
  SMS_ASKED_BY_NO_CALL,
  type TSmsOutbox,
} from '../../jobs/sms-job';
import { insertConsentEvent } from './consent-changes';
import { moveConsent } from './consent-moves';

/*
 * The payer's own consents (docs/payer-consents.md): the ones they granted while signed in,
 * newest grant first, and their revocation. A revocation is signed by the payer's passkey over
 * a message of its own type, bound to the consent and to a nonce issued for revoking it; in one
 * transaction the consent becomes revoked, its future payments not yet collected and their
 * pending collections are cancelled, and the merchant's consent.revoked is written to the outbox.
 * Revoking stays as easy as granting was: a session signed in by an SMS code alone may revoke, and
 * then the payer's number is told (docs/identity.md "Actions and the proof they need").
 */

type TRevokeContext = Pick<TAppContext, 'db' | 'config' | 'clock'> & { jobs: TSmsJobs };

// ---- The list ------------------------------------------------------------------------------

/**
 * The accounts a consent's future payments are collected from, first to last (masked). The grant
 * binds every future payment of a consent to the same accounts, so its first payment's are its.
 */
async function repaymentAccountsOf(db: TDb, loaded: TLoadedConsent): Promise<TRepaymentAccount[]> {
  const first = loaded.consent.payments.find((p) => p.type === 'future');
  if (!first) return [];
  return (await boundAccountsOf(db, first.paymentId)).map((bound) => ({
    accountId: bound.account.id,
    position: bound.position,
    bankName: bound.account.bankName,
    accountNumber: maskAccountNumber(bound.account.accountNumber),
    accountName: bound.account.accountName,
    logo: logoOf(bound.account.institutionCode),
    mandateId: bound.mandateId,
    mandateState: bound.mandateState,
  }));
}

function payerView(
  loaded: TLoadedConsent,
  accounts: TRepaymentAccount[],
  refunds: TPayerRefund[],
): TPayerConsent {
  const { consent } = loaded;
  if (consent.status !== 'granted' && consent.status !== 'revoked') {
    throw new Error(`Consent ${consent.consentId} is ${consent.status}, not the payer's to list`);
  }
  return {
    consentId: consent.consentId,
    status: consent.status,
    grantedAt: consent.grantedAt ?? '',
    revokedAt: loaded.revokedAt,
    pausedAt: loaded.pausedAt,
    merchant: {
      merchantId: consent.counterparty.merchantId,
      name: consent.counterparty.name,
      image: consent.counterparty.image,
    },
    payments: consent.payments,
    repaymentAccounts: accounts,
    upcomingDebits: upcomingDebits(consent),
    refunds,
    dataSharing: consent.dataSharing,
    dataSharingExpiresAt: loaded.dataSharingExpiresAt,
    dataSharingEndedAt: loaded.dataSharingEndedAt,
    form: consent.formId
      ? { formId: consent.formId, formResponseId: consent.formResponseId }
      : null,
  };
}

/** The payer's consents, each payment's origin in full only where this payer paid it. */
async function payerViews(
  db: TDb,
  payerId: string,
  ids: readonly string[],
): Promise<TPayerConsent[]> {
  const views: TPayerConsent[] = [];
  for (const id of ids) {
    const found = await loadConsent(db, id);
    if (!found) continue;
    const seen = { ...found, consent: await consentSeenBy(db, found.consent, payerId) };
    // Refunds and reversals together, newest first.
    const moneyBack = [...(await refundsOfConsent(db, id)), ...(await reversalsOfConsent(db, id))];
    moneyBack.sort((x, y) => y.createdAt.localeCompare(x.createdAt));
    views.push(payerView(seen, await repaymentAccountsOf(db, found), moneyBack));
  }
  return views;
}

/** GET /api/users/consents: the consents the payer granted (and revoked), newest grant first. */
export async function listPayerConsents(
  db: TDb,
  payerId: string,
  query: TPayerConsentsQuery,
): Promise<Omit<TPayerConsentsResponse, 'success'>> {
  const after = query.cursor ? decodeListCursor(query.cursor) : null;
  const rows = await db
    .select({ id: consents.id, grantedAt: consents.grantedAt })
    .from(consents)
    .where(
      and(
        eq(consents.grantedBy, payerId),
        inArray(consents.status, ['granted', 'revoked']),
        after
          ? or(
              lt(consents.grantedAt, after.at),
              and(eq(consents.grantedAt, after.at), lt(consents.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(consents.grantedAt), desc(consents.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    consents: await payerViews(
      db,
      payerId,
      page.map((row) => row.id),
    ),
    nextCursor:
      rows.length > query.limit && last?.grantedAt
        ? encodeListCursor(last.grantedAt, last.id)
        : null,
  };
}

// ---- The revocation ------------------------------------------------------------------------

/** The payer's consent, or 404 alike for one that is unknown and one that is another's. */
async function ownConsent(db: TDb, payerId: string, consentId: string) {
  const [row] = await db
    .select({ id: consents.id, status: consents.status })
    .from(consents)
    .where(and(eq(consents.id, consentId), eq(consents.grantedBy, payerId)));
  if (!row) throw new AppError('PAYER_CONSENT_NOT_FOUND');
  return row;
}

/** One of the payer's consents as their list shows it; another's, or none, is not found. */
export async function payerConsentView(
  db: TDb,
  payerId: string,
  consentId: string,
): Promise<TPayerConsent> {
  const [view] = await payerViews(db, payerId, [consentId]);
  if (!view) throw new AppError('PAYER_CONSENT_NOT_FOUND');
  return view;
}

/**
 * A nonce for one revocation signature on the payer's own granted consent, with the request
 * options limited to their passkeys (the grant's primitive, signed-grants.ts).
 */
export async function issueRevocationChallenge(
  ctx: TRevokeContext,
  payerId: string,
  consentId: string,
): Promise<Omit<TGrantChallengeResponse, 'success'>> {
  const own = await ownConsent(ctx.db, payerId, consentId);
  if (!canRevoke(own)) throw new AppError('CONSENT_NOT_REVOCABLE');
  return issueGrantChallenge(ctx.db, ctx.config, payerId, consentId, ctx.clock.now(), 'revocation');
}

/** SHA-256 of the canonical revocation message: the WebAuthn challenge the passkey signs. */
export function revocationDigest(input: { consentId: string; nonce: string }): string {
  return createHash('sha256').update(revocationSigningMessage(input), 'utf8').digest('base64url');
}

/**
 * A session no trusted passkey proved (an SMS code alone) revoked a consent: the payer's number is
 * told, by an SMS queued in the revocation's transaction (the outbox), once per consent (it is
 * revoked once). Answers the SMS job's id, or null when no SMS is called for.
 */
async function tellOfRevocationBySms(
  tx: TDb,
  config: TRevokeContext['config'],
  outbox: TSmsOutbox,
  session: { payerId: string; sessionId: string | null },
  revoked: { consentId: string; merchantName: string; revokedAt: Date },
): Promise<string | null> {
  if (!session.sessionId) return null;
  const [row] = await tx
    .select({ provenAt: authSessions.passkeyProvenAt, phoneNumber: payers.phoneNumber })
    .from(authSessions)
    .innerJoin(payers, eq(payers.id, authSessions.payerId))
    .where(and(eq(authSessions.id, session.sessionId), eq(authSessions.payerId, session.payerId)));
  if (!row || row.provenAt) return null;
  return outbox.queue(tx, `consent-revoked:${revoked.consentId}`, {
    phoneNumber: row.phoneNumber,
    body: revokedMessage({
      productName: config.productName,
      merchantName: revoked.merchantName,
      revokedAt: revoked.revokedAt,
      accountPageUrl: accountPageUrl(config.publicUrl),
    }),
  });
}

/**
 * Cancels a consent's future payments not yet collected and their pending collections, inside
 * `tx`: the payer's revocation and the merchant's cancel from the dashboard alike. Collections
 * made ahead of their due date: none is debited now. One 'collecting' is left to its runner, since
 * a debit of it may be at a bank: its next claim cancels that debit there, or gives back what the
 * bank took (future-collections.ts settleCancelled). Answers what it cancelled; nothing the
 * second time.
 */
export async function cancelFuturePayments(
  tx: TDb,
  consentId: string,
  /** The collections' failure reason: who ended them. */
  reason: 'consent_revoked' | 'future_payments_cancelled',
  now: Date,
): Promise<{ paymentIds: string[]; collectionIds: string[] }> {
  const cancelledPayments = await tx
    .update(payments)
    .set({ status: 'cancelled' })
    .where(
      and(
        eq(payments.consentId, consentId),
        eq(payments.type, 'future'),
        eq(payments.status, 'pending'),
      ),
    )
    .returning({ id: payments.id });
  const cancelledCollections = await tx
    .update(futurePaymentCollections)
    .set({ status: 'cancelled', failureReason: reason, completedAt: now, updatedAt: now })
    .where(
      and(
        eq(futurePaymentCollections.consentId, consentId),
        eq(futurePaymentCollections.status, 'pending'),
      ),
    )
    .returning({ id: futurePaymentCollections.id });
  return {
    paymentIds: cancelledPayments.map((p) => p.id),
    collectionIds: cancelledCollections.map((c) => c.id),
  };
}

/** The payer's session revoking: none on the SMS receipt's link, where the passkey proves it. */
type TRevokingSession = { payerId: string; sessionId: string | null };

/** A revocation checked and ready to write: whose, which consent, its nonce and signature. */
type TRevocation = {
  session: TRevokingSession;
  consentId: string;
  nonce: string;
  signature: TVerifiedGrant;
  /** The merchant's name, for the SMS that a session signed in by a code alone calls for. */
  merchantName: string;
  now: Date;
};

/**
 * POST /api/users/consents/{consentId}/revoke. A consent revoked already answers as it stands,
 * whoever's request did it (a retry, another tab); one that is not granted is
 * CONSENT_NOT_REVOCABLE; another payer's is not found.
 */
export async function revokeConsent(
  ctx: TRevokeContext,
  /** No session: the SMS receipt's link (consent-receipts.ts), where the passkey alone proves it. */
  session: TRevokingSession,
  consentId: string,
  signed: TRevokeConsentRequest,
): Promise<TPayerConsent> {
  const { db, config } = ctx;
  const { payerId } = session;
  const now = ctx.clock.now();
  const own = await ownConsent(db, payerId, consentId);
  if (own.status === 'revoked') return payerConsentView(db, payerId, consentId);
  if (!canRevoke(own)) throw new AppError('CONSENT_NOT_REVOCABLE');
  const signature = await revocationSignature(ctx, session, consentId, signed, now);
  // Revoked meanwhile by the same signature sent twice at once: the first one's answer.
  if (signature === null) return payerConsentView(db, payerId, consentId);
  const merchantName =
    (await loadConsent(db, consentId))?.consent.counterparty.name ?? 'a merchant';
  const outbox = await openSmsOutbox({ ...ctx, smsGate: SMS_ASKED_BY_NO_CALL });
  const revocation = { session, consentId, nonce: signed.nonce, signature, merchantName, now };
  const written = await db.transaction((tx) =>
    writeRevocation(tx, { config, jobs: ctx.jobs, outbox }, revocation),
  );
  if (written.outcome === 'revoked') {
    await sendQueuedSms(ctx.jobs, [written.sms]);
  } else {
    await assertRevokedMeanwhile(db, payerId, consentId, written.outcome);
  }
  return payerConsentView(db, payerId, consentId);
}

/**
 * The payer's passkey signature of the revocation, checked; null when it failed because the
 * same signature, sent twice at once, revoked the consent meanwhile.
 */
async function revocationSignature(
  ctx: TRevokeContext,
  session: TRevokingSession,
  consentId: string,
  signed: TRevokeConsentRequest,
  now: Date,
): Promise<TVerifiedGrant | null> {
  try {
    return await checkSignature(
      ctx.db,
      ctx.config,
      session.payerId,
      {
        purpose: 'revocation',
        consentId,
        nonce: signed.nonce,
        digest: revocationDigest({ consentId, nonce: signed.nonce }),
        response: signed.response,
        failure: 'REVOCATION_SIGNATURE_INVALID',
        // Revoking stops money: a passkey still waiting may do it. A trusted one proves the session.
        signsMoney: false,
        provesSession: session.sessionId ?? undefined,
      },
      now,
    );
  } catch (error) {
    // The same signature sent twice at once: the first revoked it meanwhile.
    if ((await ownConsent(ctx.db, session.payerId, consentId)).status === 'revoked') return null;
    throw error;
  }
}

/**
 * The revocation's transaction: the nonce used up, the consent revoked, its future payments
 * cancelled, the audit row and the merchant's event written, the SMS queued.
 */
async function writeRevocation(
  tx: TDb,
  { config, jobs, outbox }: Pick<TRevokeContext, 'config' | 'jobs'> & { outbox: TSmsOutbox },
  revocation: TRevocation,
): Promise<
  | { outcome: 'nonce-used' }
  | { outcome: 'not-granted' }
  | { outcome: 'revoked'; sms: string | null }
> {
  const { session, consentId, now } = revocation;
  // Used up in the revocation's transaction: a second submission of this nonce waits for this
  // one to commit, then finds it used and the consent revoked.
  if (!(await useUpNonce(tx, revocation.nonce, now))) return { outcome: 'nonce-used' };
  const revoked = await moveConsent(
    tx,
    consentId,
    'revoke',
    { revokedAt: now },
    eq(consents.grantedBy, session.payerId),
  );
  if (!revoked) return { outcome: 'not-granted' };
  const cancelled = await cancelFuturePayments(tx, consentId, 'consent_revoked', now);
  await stopOwnMandatesOf(jobs, tx, cancelled.paymentIds, now);
  await recordRevocation(jobs, tx, revocation, revoked.clientId, cancelled);
  return {
    outcome: 'revoked',
    sms: await tellOfRevocationBySms(tx, config, outbox, session, {
      consentId,
      merchantName: revocation.merchantName,
      revokedAt: now,
    }),
  };
}

/** The revocation's audit row, with the passkey's signature, and the merchant's event. */
async function recordRevocation(
  jobs: TJobQueue,
  tx: TDb,
  revocation: TRevocation,
  clientId: string,
  cancelled: { paymentIds: string[]; collectionIds: string[] },
): Promise<void> {
  const { consentId, signature, now } = revocation;
  const cancelledPaymentIds = cancelled.paymentIds;
  await insertConsentEvent(tx, {
    consentId,
    type: 'consent.revoked',
    actor: `payer:${revocation.session.payerId}`,
    data: {
      cancelledPaymentIds,
      cancelledCollectionIds: cancelled.collectionIds,
      signature: signatureRecord(signature),
    },
    createdAt: now,
  });
  await recordMerchantEvent(jobs, tx, {
    clientId,
    consentId,
    type: 'consent.revoked',
    data: { consentId, revokedAt: now.toISOString(), cancelledPaymentIds },
    now,
  });
}

/**
 * After a revocation that wrote nothing: fine when the consent ended revoked anyway (another
 * request's), else the nonce's replay or a consent no longer granted is refused.
 */
async function assertRevokedMeanwhile(
  db: TDb,
  payerId: string,
  consentId: string,
  outcome: 'nonce-used' | 'not-granted',
): Promise<void> {
  const after = await ownConsent(db, payerId, consentId);
  if (after.status !== 'revoked') {
    throw new AppError(
      outcome === 'nonce-used' ? 'GRANT_SIGNATURE_REPLAYED' : 'CONSENT_NOT_REVOCABLE',
    );
  }
}
