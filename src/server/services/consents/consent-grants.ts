import { isConsentAvailable } from '../../../domain/consent-availability';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import type { TDeclineResponse, TGrantResponse } from '../../../domain/schemas/consent-api';
import type { TGrantCall } from '../../../domain/schemas/grant';
import type { TAppContext } from '../../context';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/database';
import type { TJobQueue } from '../../jobs/engine';
import { futurePaymentAccounts } from '../../db/schema';
import {
  debitImmediatePayment,
  linkedAccountsOf,
  type TLinkedAccount,
} from '../payments/account-debits';
import { AppError } from '../../app-error';
import { loadConsent, type TLoadedConsent } from './consents';
import { consentSeenBy } from '../payments/origin-views';
import { assertFormCompleteForGrant, markFormResponseSubmitted } from '../forms/forms';
import { recordActiveMandates } from '../linking/mandate-activations';
import { verifySignedGrant, type TVerifiedGrant } from '../identity/signed-grants';
import { whyNotDebitable } from '../linking/bvn-ownership';
import { assertOwnMandatesCover } from '../linking/own-mandates';
import { recordMerchantEvent } from '../change-records';
import { assertPaymentRequestPayer } from './payment-request-payers';
import { grantRecord } from './consent-records';
import { queueConsentReceipt, receiptUrlOf } from './consent-receipts';
import {
  sendQueuedSms,
  openSmsOutbox,
  SMS_ASKED_BY_NO_CALL,
  type TSmsOutbox,
} from '../../jobs/sms-job';
import { dataSharingExpiry } from '../../../domain/consent-record';
import { insertConsentEvent } from './consent-changes';
import { moveConsent } from './consent-moves';

/*
 * The grant (spec §7 POST /api/consent/{consentId}/grant; docs/payments.md "The grant"): the payer
 * says yes to what the consent asks, and the consent becomes granted, once, with an audit row
 * that keeps the passkey's signature so the record can be checked later.
 *
 * The immediate payment is paid before the grant (card, transfer) or at it: a linked account
 * named in immediatePayments is debited on its mandate first, and a failed debit answers
 * paymentResults.failed = 1 with 'Direct debit payment failed', the consent still pending. Future
 * payments are bound, in the grant's transaction, to the linked accounts the payer chose, in the
 * order chosen: they are collected from them when due.
 */

type TGrantContext = Pick<TAppContext, 'db' | 'config' | 'clock' | 'events' | 'providers' | 'jobs'>;

const invalid = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', `${field}: ${message}`);

/**
 * The grant call's answer for a consent as it now stands, as `payerId` (null: whoever holds the
 * link) may see it: a payment's origin in full only to the payer who paid it.
 */
async function answerFor(
  ctx: TGrantContext,
  consentId: string,
  payerId: string | null,
  results: TGrantResponse['paymentResults'],
  extra: Pick<TGrantResponse, 'message' | 'error'>,
): Promise<TGrantResponse> {
  const found = await loadConsent(ctx.db, consentId);
  if (!found) throw new AppError('CONSENT_NOT_FOUND');
  return {
    success: true,
    consent: await consentSeenBy(ctx.db, found.consent, payerId),
    status: found.consent.status,
    ...(results ? { paymentResults: results } : {}),
    ...extra,
  };
}

/** One of the payments a consent asks for. */
type TConsentPayment = TLoadedConsent['consent']['payments'][number];

/** The linked accounts a grant names: those future payments are bound to, the one debited now. */
type TChosenAccounts = {
  futureIds: string[];
  debitIds: string[];
  linked: Map<string, TLinkedAccount>;
};

/** What a grant writes, gathered and checked before its transaction opens. */
type TGrantWrite = {
  consentId: string;
  call: TGrantCall;
  payerId: string | null;
  now: Date;
  found: TLoadedConsent;
  form: { formResponseId: string } | null;
  accounts: TChosenAccounts;
  immediate: TConsentPayment | null;
  debitFrom: TLinkedAccount | undefined;
  signature: TVerifiedGrant | null;
  receiptUrl: string | null;
  outbox: TSmsOutbox;
  /** Where its merchant's events queue their deliveries. */
  jobs: TJobQueue;
};

export async function grantConsent(
  ctx: TGrantContext,
  consentId: string,
  call: TGrantCall,
  payerId: string | null,
  /** The signed-in payer's session, which a trusted passkey's signature of the grant proves. */
  sessionId?: string,
): Promise<TGrantResponse> {
  const { db, config } = ctx;
  const now = ctx.clock.now();
  const found = await consentToAnswer(db, consentId, call, payerId, now);
  const { consent } = found;
  const immediate = consent.payments.find((p) => p.type === 'immediate') ?? null;
  // Granted already (a retry, another tab): the same answer, nothing changes.
  if (consent.status === 'granted') {
    return answerFor(ctx, consentId, payerId, resultsBefore(immediate), {});
  }
  assertGrantable(consent, call, payerId);
  // A consent's form is complete before anything is granted (spec §5): its response is recorded.
  const form = await assertFormCompleteForGrant(db, consentId);
  const accounts = await chosenAccounts(db, consent, call, payerId);
  const mandateOf = (accountId: string | undefined) =>
    (accountId && accounts.linked.get(accountId)?.mandateId) || null;
  await assertOwnMandatesCover(db, {
    consentId,
    futureMandateIds: accounts.futureIds.flatMap((id) => mandateOf(id) ?? []),
    debitMandateId: mandateOf(accounts.debitIds[0]),
    now,
  });
  const signature = await grantSignature(
    ctx,
    consentId,
    call,
    payerId,
    now,
    sessionId,
    found.embedOrigins,
  );
  const debitFrom = accounts.debitIds[0] ? accounts.linked.get(accounts.debitIds[0]) : undefined;
  const unpaid = await payImmediatePayment(ctx, consentId, payerId, immediate, debitFrom);
  if (unpaid) return unpaid;
  const paidResults = immediate ? { total: 1, succeeded: 1, failed: 0 } : undefined;
  // The SMS receipt of a signed-in payer's grant, queued with it (consent-receipts.ts).
  const receiptUrl = payerId === null ? null : await receiptUrlOf(db, config, consentId);
  const outbox = await openSmsOutbox({ ...ctx, smsGate: SMS_ASKED_BY_NO_CALL });
  const grant: TGrantWrite = {
    consentId,
    call,
    payerId,
    now,
    found,
    form,
    accounts,
    immediate,
    debitFrom,
    signature,
    receiptUrl,
    outbox,
    jobs: ctx.jobs,
  };
  const granted = await db.transaction((tx) => writeGrant(tx, config, grant));
  if (granted) return announceGrant(ctx, grant, granted.receipt, paidResults);
  return answerAfterLostGrant(ctx, consentId, payerId, paidResults);
}

/** The consent a grant call answers: available, the payer's to answer, and the one named. */
async function consentToAnswer(
  db: TDb,
  consentId: string,
  call: TGrantCall,
  payerId: string | null,
  now: Date,
): Promise<TLoadedConsent> {
  const found = await loadConsent(db, consentId);
  if (!found || !isConsentAvailable(found.consent, now)) throw new AppError('CONSENT_NOT_FOUND');
  // A payment request is answered by the payer it was sent to, nobody else.
  await assertPaymentRequestPayer(db, consentId, payerId);
  if (call.consentData.consentId !== consentId) {
    throw invalid('consentData.consentId', 'must be the consent being granted');
  }
  return found;
}

/** The payment results of a consent before this grant pays anything. */
function resultsBefore(immediate: TConsentPayment | null): TGrantResponse['paymentResults'] {
  return immediate
    ? { total: 1, succeeded: immediate.status === 'executed' ? 1 : 0, failed: 0 }
    : undefined;
}

/** Refuses a grant of a consent no longer pending, or one that says yes to less than it asks. */
function assertGrantable(
  consent: TLoadedConsent['consent'],
  call: TGrantCall,
  payerId: string | null,
): void {
  if (consent.status === 'declined') throw new AppError('CONSENT_REJECTED');
  if (consent.status !== 'pending') throw new AppError('CONSENT_NOT_FOUND');
  const future = consent.payments.some((p) => p.type === 'future');
  // spec §6: without sign-in only a consent that needs none and asks only for a payment.
  if (payerId === null && (consent.requirements.requiresAuth || future || consent.dataSharing)) {
    throw new AppError('SIGN_IN_REQUIRED');
  }
  if (future && !call.futurePayments?.granted) {
    throw invalid('futurePayments', 'this consent asks for future payments');
  }
  if (consent.dataSharing && !call.dataSharing?.granted) {
    throw invalid('dataSharing', 'this consent asks to share data');
  }
}

/**
 * The accounts the grant names, each the signed-in payer's own and linked (an active mandate):
 * for future payments only when the consent asks for them, one at most for the immediate payment.
 */
async function chosenAccounts(
  db: TDb,
  consent: TLoadedConsent['consent'],
  call: TGrantCall,
  payerId: string | null,
): Promise<TChosenAccounts> {
  const futureIds = unique([
    ...(call.futurePayments?.selectedAccounts ?? []),
    ...(call.futurePayments?.paymentMethods ?? []).map((m) => m.accountId),
  ]);
  const debitIds = unique([
    ...(call.immediatePayments?.paymentMethods ?? []).flatMap((m) =>
      m.type === 'account' ? [m.accountId] : [],
    ),
    ...(call.immediatePayments?.selectedAccounts ?? []),
  ]);
  const named = [...futureIds, ...debitIds];
  const linked =
    named.length > 0
      ? await linkedAccountsNamed(db, payerId, named)
      : new Map<string, TLinkedAccount>();
  if (!consent.payments.some((p) => p.type === 'future') && futureIds.length > 0) {
    throw invalid('futurePayments', 'this consent asks for no future payments');
  }
  if (debitIds.length > 1) {
    throw invalid('immediatePayments', 'one account pays the immediate payment');
  }
  return { futureIds, debitIds, linked };
}

/** The signed-in payer's linked accounts among `named`; one that is not refuses the grant. */
async function linkedAccountsNamed(
  db: TDb,
  payerId: string | null,
  named: string[],
): Promise<Map<string, TLinkedAccount>> {
  // Accounts are the signed-in payer's own, and linked (an active mandate), or named as missing.
  if (payerId === null) throw new AppError('SIGN_IN_REQUIRED');
  const linked = await linkedAccountsOf(db, payerId, named);
  const missing = named.find((id) => !linked.has(id));
  if (missing) {
    // Linked, but not under the payer's BVN as it is now: the payer is told what to do.
    throw (
      (await whyNotDebitable(db, payerId, missing)) ??
      invalid('selectedAccounts', `no linked account of yours has the id ${missing}`)
    );
  }
  return linked;
}

/** A signed-in payer's passkey signature of the grant, verified; none without sign-in. */
async function grantSignature(
  ctx: TGrantContext,
  consentId: string,
  call: TGrantCall,
  payerId: string | null,
  now: Date,
  sessionId: string | undefined,
  /** The consent's, as the grant loaded it. */
  embedOrigins: readonly string[],
): Promise<TVerifiedGrant | null> {
  if (payerId === null) return null;
  if (!call.signature) throw invalid('signature', 'a signed-in payer signs the grant');
  const { signature: signed, ...payload } = call;
  return verifySignedGrant(
    ctx.db,
    ctx.config,
    payerId,
    { consentId, nonce: signed.nonce, payload, response: signed.response },
    now,
    // Every grant, data sharing included, is signed by a trusted passkey (docs/identity.md
    // "Actions and the proof they need"): a session signed in by an SMS code alone grants
    // nothing unless its signature is by one, which then proves the session.
    { signsMoney: true, provesSession: sessionId, embedOrigins },
  );
}

/**
 * Pays the immediate payment first (card or transfer before the grant, or a linked account
 * debited now): unpaid, the grant's answer reports it failed and the consent stays pending
 * (spec §4). Null once it is paid, or when there is none.
 */
async function payImmediatePayment(
  ctx: TGrantContext,
  consentId: string,
  payerId: string | null,
  immediate: TConsentPayment | null,
  debitFrom: TLinkedAccount | undefined,
): Promise<TGrantResponse | null> {
  if (!immediate || immediate.status === 'executed') return null;
  const failed = { total: 1, succeeded: 0, failed: 1 };
  if (!debitFrom || payerId === null) {
    return answerFor(ctx, consentId, payerId, failed, { error: 'Payment failed' });
  }
  const debit = await debitImmediatePayment(ctx, {
    paymentId: immediate.paymentId,
    payerId,
    linked: debitFrom,
  });
  if (debit.debited) return null;
  return answerFor(ctx, consentId, payerId, failed, { error: debitFailureText(debit.reason) });
}

/**
 * The grant's transaction: the consent moves from pending to granted, then its form response,
 * future payments' accounts, audit row, merchant's events, mandates and SMS receipt are written
 * with it. Null when another change moved the consent from pending first.
 */
async function writeGrant(
  tx: TDb,
  config: TConfig,
  grant: TGrantWrite,
): Promise<{ receipt: string | null } | null> {
  if (!(await markGranted(tx, grant))) return null;
  if (grant.form) await submitGrantForm(tx, grant, grant.form);
  await bindFutureAccounts(tx, grant);
  await recordGrantAudit(tx, grant);
  await recordMerchantGrant(tx, grant);
  // Each chosen account's mandate, told once: only this grant moved the consent from pending.
  const { futureIds, linked } = grant.accounts;
  await recordActiveMandates(grant.jobs, tx, {
    clientId: grant.found.clientId,
    consentId: grant.consentId,
    mandateIds: futureIds.flatMap((id) => linked.get(id)?.mandateId ?? []),
    now: grant.now,
  });
  return { receipt: await queueGrantReceipt(tx, config, grant) };
}

/** Moves the consent from pending to granted; false when it was no longer pending. */
async function markGranted(tx: TDb, grant: TGrantWrite): Promise<boolean> {
  const { consentId, payerId, now } = grant;
  const row = await moveConsent(tx, consentId, 'grant', {
    grantedAt: now,
    grantedBy: payerId,
    // Data sharing lasts 12 months unless the payer confirms it again (data-sharing-expiry.ts).
    dataSharingExpiresAt: grant.found.consent.dataSharing ? dataSharingExpiry(now) : null,
  });
  return row !== null;
}

/** Submits the consent's form response with the grant and tells the merchant it is complete. */
async function submitGrantForm(
  tx: TDb,
  grant: TGrantWrite,
  form: { formResponseId: string },
): Promise<void> {
  const { consentId, now } = grant;
  // The response is closed first (later saves are refused), then checked again inside: a
  // section saved since the first check cannot slip past the grant.
  await markFormResponseSubmitted(tx, form.formResponseId, now);
  await assertFormCompleteForGrant(tx, consentId);
  // The answers are final: the merchant may read them (GET /api/v1/forms/{id}/responses/{id}).
  await recordMerchantEvent(grant.jobs, tx, {
    clientId: grant.found.clientId,
    consentId,
    type: 'form.completed',
    data: {
      consentId,
      formId: grant.found.consent.formId,
      formResponseId: form.formResponseId,
      submittedAt: now.toISOString(),
    },
    now,
  });
}

/** Binds each future payment to the chosen accounts, first to last (docs/payments.md). */
async function bindFutureAccounts(tx: TDb, grant: TGrantWrite): Promise<void> {
  const { futureIds, linked } = grant.accounts;
  const futurePaymentIds = grant.found.consent.payments
    .filter((p) => p.type === 'future')
    .map((p) => p.paymentId);
  const bindings = futurePaymentIds.flatMap((paymentId) =>
    futureIds.map((accountId, position) => ({
      paymentId,
      position,
      accountId,
      mandateId: linked.get(accountId)?.mandateId ?? '',
      payerId: grant.payerId ?? '',
      createdAt: grant.now,
    })),
  );
  if (bindings.length > 0) await tx.insert(futurePaymentAccounts).values(bindings);
}

/** The grant's audit row: what was granted, by whom, and the passkey's signature of it. */
async function recordGrantAudit(tx: TDb, grant: TGrantWrite): Promise<void> {
  const { consentId, call, payerId, now, signature } = grant;
  await insertConsentEvent(tx, {
    consentId,
    type: 'consent.granted',
    actor: payerId ? `payer:${payerId}` : 'payer:anonymous',
    data: {
      dataTypes: call.dataSharing?.granted ? call.dataSharing.dataTypes : [],
      immediatePaymentId: grant.immediate?.paymentId ?? null,
      immediateAccountId: grant.debitFrom?.account.id ?? null,
      formResponseId: grant.form?.formResponseId ?? null,
      futureAccountIds: grant.accounts.futureIds,
      originalRequestId: call.originalRequestId,
      record: grantRecord(grant.found.consent, {
        payerId,
        channel: call.channel ?? null,
        authentication: signature ? 'passkey' : 'none',
        grantedAt: now,
      }),
      signature: signature
        ? {
            digest: signature.digest,
            credentialId: signature.credentialId,
            signedAt: signature.signedAt.toISOString(),
            evidence: signature.evidence,
          }
        : null,
    },
    createdAt: now,
  });
}

/** The merchant's 'consent.granted' event, sent once the grant commits. */
async function recordMerchantGrant(tx: TDb, grant: TGrantWrite): Promise<void> {
  const { consentId, call, now } = grant;
  await recordMerchantEvent(grant.jobs, tx, {
    clientId: grant.found.clientId,
    consentId,
    type: 'consent.granted',
    data: {
      consentId,
      grantedAt: now.toISOString(),
      immediatePaymentId: grant.immediate?.paymentId ?? null,
      dataTypes: call.dataSharing?.granted ? call.dataSharing.dataTypes : [],
      payerAuthenticated: grant.payerId !== null,
    },
    now,
  });
}

/** Queues a signed-in payer's SMS receipt of the grant; the SMS job's id, or null. */
async function queueGrantReceipt(
  tx: TDb,
  config: TConfig,
  grant: TGrantWrite,
): Promise<string | null> {
  const { payerId, receiptUrl } = grant;
  if (payerId === null || receiptUrl === null) return null;
  return queueConsentReceipt(tx, config, grant.outbox, {
    consentId: grant.consentId,
    payerId,
    merchantName: grant.found.consent.counterparty.name,
    grantedAt: grant.now,
    receiptUrl,
  });
}

/** Tells the app the consent is granted, sends its SMS receipt, and answers the grant. */
async function announceGrant(
  ctx: TGrantContext,
  grant: TGrantWrite,
  receipt: string | null,
  paidResults: TGrantResponse['paymentResults'],
): Promise<TGrantResponse> {
  const { consentId, found } = grant;
  await ctx.events.publish({
    type: 'consent.granted',
    data: {
      consentId,
      clientId: found.clientId,
      merchantId: found.consent.counterparty.merchantId,
    },
  });
  // Sent now when this process works on SMS jobs; its failure leaves the grant as it is.
  await sendQueuedSms(ctx.jobs, [receipt]);
  return answerFor(ctx, consentId, grant.payerId, paidResults, { message: 'Consent granted' });
}

/**
 * The answer when another change moved the consent from pending meanwhile: a grant (the same
 * answer as a retry), or a Decline or the expiry sweep, which this grant must not be answered as
 * if it had won.
 */
async function answerAfterLostGrant(
  ctx: TGrantContext,
  consentId: string,
  payerId: string | null,
  paidResults: TGrantResponse['paymentResults'],
): Promise<TGrantResponse> {
  const answer = await answerFor(ctx, consentId, payerId, paidResults, {});
  if (answer.status === 'granted') return answer;
  throw new AppError(answer.status === 'declined' ? 'CONSENT_REJECTED' : 'CONSENT_NOT_FOUND');
}

const unique = (ids: readonly string[]): string[] => [...new Set(ids)];

/** Why the bank refused a debit, as the payer reads it after the catalogue's words. */
const DEBIT_REFUSAL_TEXT: Readonly<Record<string, string>> = {
  insufficient_funds: 'Insufficient funds',
  account_not_found: 'The bank could not find the account',
  expired: 'The bank did not take the debit in time',
};

/**
 * The grant's error for a failed debit (spec §4: 'the result's error or 'Direct debit payment
 * failed''): the catalogue's words with the bank's reason, 'Direct debit payment failed:
 * Insufficient funds', so the page can say why.
 */
function debitFailureText(reason: string): string {
  const base = ERROR_CATALOGUE.DIRECT_DEBIT_FAILED.message;
  const text = DEBIT_REFUSAL_TEXT[reason];
  return text ? `${base}: ${text}` : base;
}

/**
 * 'Decline' (spec §2): a signed-in payer says no. The consent ends declined, once, with its audit
 * row and the merchant's event; declining again answers the same, and a granted consent cannot
 * be declined.
 */
export async function declineConsent(
  ctx: TGrantContext,
  consentId: string,
  payerId: string,
): Promise<TDeclineResponse> {
  const { db, clock } = ctx;
  const now = clock.now();
  const found = await loadConsent(db, consentId);
  if (!found || !isConsentAvailable(found.consent, now)) throw new AppError('CONSENT_NOT_FOUND');
  // A payment request is answered by the payer it was sent to, nobody else.
  await assertPaymentRequestPayer(db, consentId, payerId);
  const message = ERROR_CATALOGUE.CONSENT_REJECTED.message;
  const declined = await db.transaction(async (tx) => {
    if (!(await moveConsent(tx, consentId, 'decline', {}))) return false;
    await insertConsentEvent(tx, {
      consentId,
      type: 'consent.declined',
      actor: `payer:${payerId}`,
      data: { reason: message },
      createdAt: now,
    });
    await recordMerchantEvent(ctx.jobs, tx, {
      clientId: found.clientId,
      consentId,
      type: 'consent.declined',
      data: { consentId, declinedAt: now.toISOString(), reason: message },
      now,
    });
    return true;
  });
  const after = await loadConsent(db, consentId);
  if (!after) throw new AppError('CONSENT_NOT_FOUND');
  if (!declined && after.consent.status !== 'declined') throw new AppError('CONSENT_NOT_FOUND');
  return {
    success: true,
    consent: await consentSeenBy(db, after.consent, payerId),
    status: after.consent.status,
    message,
  };
}
