import { and, eq } from 'drizzle-orm';
import { isConsentAvailable } from '../../domain/consent-availability';
import type { TGrantResponse } from '../../domain/schemas/consent-api';
import type { TGrantCall } from '../../domain/schemas/grant';
import type { TAppContext } from '../context';
import { consentEvents, consents } from '../db/schema';
import { AppError } from './app-error';
import { loadConsent } from './consents';
import { verifySignedGrant, type TVerifiedGrant } from './signed-grants';
import { recordMerchantEvent } from './webhooks';

/*
 * The grant (spec §7 POST /api/consent/{consentId}/grant; docs/payments.md "The grant"): the payer
 * says yes to what the consent asks, and the consent becomes granted, once, with an audit row
 * that keeps the passkey's signature so the record can be checked later.
 *
 * What it takes today: an immediate payment already paid by card or transfer, and data sharing.
 * Payments from a linked account (a direct debit for the immediate payment, the mandates of
 * future payments) need linked accounts, which account linking brings: until then a grant that
 * names accounts is refused as naming accounts the payer does not have.
 */

type TGrantContext = Pick<TAppContext, 'db' | 'config' | 'clock' | 'events'>;

const invalid = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', `${field}: ${message}`);

/** The grant call's answer for a consent as it now stands. */
async function answerFor(
  ctx: TGrantContext,
  consentId: string,
  results: TGrantResponse['paymentResults'],
  extra: Pick<TGrantResponse, 'message' | 'error'>,
): Promise<TGrantResponse> {
  const found = await loadConsent(ctx.db, consentId);
  if (!found) throw new AppError('CONSENT_NOT_FOUND');
  return {
    success: true,
    consent: found.consent,
    status: found.consent.status,
    ...(results ? { paymentResults: results } : {}),
    ...extra,
  };
}

export async function grantConsent(
  ctx: TGrantContext,
  consentId: string,
  call: TGrantCall,
  payerId: string | null,
): Promise<TGrantResponse> {
  const { db, config, clock } = ctx;
  const now = clock.now();
  const found = await loadConsent(db, consentId);
  if (!found || !isConsentAvailable(found.consent, now)) throw new AppError('CONSENT_NOT_FOUND');
  const { consent } = found;
  if (call.consentData.consentId !== consentId) {
    throw invalid('consentData.consentId', 'must be the consent being granted');
  }
  const immediate = consent.payments.find((p) => p.type === 'immediate') ?? null;
  const results = immediate
    ? { total: 1, succeeded: immediate.status === 'executed' ? 1 : 0, failed: 0 }
    : undefined;
  // Granted already (a retry, another tab): the same answer, nothing changes.
  if (consent.status === 'granted') return answerFor(ctx, consentId, results, {});
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
  const named = [
    ...(call.futurePayments?.selectedAccounts ?? []),
    ...(call.immediatePayments?.selectedAccounts ?? []),
    ...(call.immediatePayments?.paymentMethods ?? []).flatMap((m) =>
      m.type === 'account' ? [m.accountId] : [],
    ),
  ];
  if (named.length > 0) {
    throw invalid('selectedAccounts', `no linked account of yours has the id ${named[0]}`);
  }

  let signature: TVerifiedGrant | null = null;
  if (payerId !== null) {
    if (!call.signature) throw invalid('signature', 'a signed-in payer signs the grant');
    const { signature: signed, ...payload } = call;
    signature = await verifySignedGrant(
      db,
      config,
      payerId,
      { consentId, nonce: signed.nonce, payload, response: signed.response },
      now,
    );
  }

  // The immediate payment is paid first (card or transfer, before the grant): unpaid, the grant
  // reports it failed and the consent stays pending (spec §4 grant outcome).
  if (immediate && immediate.status !== 'executed') {
    return answerFor(
      ctx,
      consentId,
      { total: 1, succeeded: 0, failed: 1 },
      { error: 'Payment failed' },
    );
  }

  const granted = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(consents)
      .set({ status: 'granted', grantedAt: now })
      .where(and(eq(consents.id, consentId), eq(consents.status, 'pending')))
      .returning({ id: consents.id });
    if (!row) return false;
    await tx.insert(consentEvents).values({
      consentId,
      type: 'consent.granted',
      actor: payerId ? `payer:${payerId}` : 'payer:anonymous',
      data: {
        dataTypes: call.dataSharing?.granted ? call.dataSharing.dataTypes : [],
        immediatePaymentId: immediate?.paymentId ?? null,
        originalRequestId: call.originalRequestId,
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
    await recordMerchantEvent(tx, {
      clientId: found.clientId,
      consentId,
      type: 'consent.granted',
      data: {
        consentId,
        grantedAt: now.toISOString(),
        immediatePaymentId: immediate?.paymentId ?? null,
        dataTypes: call.dataSharing?.granted ? call.dataSharing.dataTypes : [],
        payerAuthenticated: payerId !== null,
      },
      now,
    });
    return true;
  });
  if (granted) {
    await ctx.events.publish({
      type: 'consent.granted',
      data: { consentId, clientId: found.clientId, merchantId: consent.counterparty.merchantId },
    });
  }
  return answerFor(ctx, consentId, results, { message: 'Consent granted' });
}
