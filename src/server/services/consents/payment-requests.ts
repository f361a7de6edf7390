import { eq } from 'drizzle-orm';
import {
  CONSENT_EXPIRY_MS,
  DEFAULT_MERCHANT_COLOURS,
  DEFAULT_TRANSFER_BANK_NAME,
} from '../../../domain/constants';
import type { TDeclineInvitationResponse } from '../../../domain/schemas/auth';
import type { TCounterparty } from '../../../domain/schemas/consent';
import type { TConsentCreationPayload } from '../../../domain/schemas/consent-api';
import type { TAppContext } from '../../context';
import { UNKNOWN_CLIENT_HASH } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import { apiClients, merchants, payers } from '../../db/schema';
import { AppError } from '../../app-error';
import { declineConsent } from './consent-grants';
import { loadConsent } from './consents';
import { insertConsent } from './consent-inserts';
import { runIdempotent } from '../idempotency';
import { consentPageUrl } from '../page-urls';
import {
  assertPaymentRequestPayer,
  findPaymentRequest,
  type TPaymentRequest,
} from './payment-request-payers';

/*
 * Payment requests between payers (docs/payment-requests.md): a signed-in payer asks another
 * payer to consent to payments to them (spec §7 POST /api/consent). The request is an ordinary
 * consent whose counterparty is the requesting payer, so it opens on /r/{id} and is granted like
 * any consent. The requester stands as a merchant of type api_user (spec §3 counterparty.type)
 * with a client of its own that has no usable secret; the payer asked is kept in the request's
 * 'consent.created' audit row, which is never updated.
 */

type TPaymentRequestContext = Pick<
  TAppContext,
  'db' | 'config' | 'clock' | 'events' | 'providers' | 'jobs'
>;

/** How far past 24 h an expiresAt may lie: the payer's clock and the request's trip here. */
export const EXPIRY_TOLERANCE_MS = 5 * 60 * 1_000;

/** The merchant and the client a payer stands as when they request payments, made once. */
export const requesterMerchantId = (payerId: string) => `mer_${payerId}`;
export const requesterClientId = (payerId: string) => `cli_${payerId}`;

/** Where a payer's Idempotency-Keys of payment requests live. */
const creationScope = (payerId: string) => `payment-requests.create:${payerId}`;

/** spec §3, §9: the request expires in the future, 24 h ahead at most. */
function assertExpiry(expiresAt: Date, now: Date): void {
  const latest = now.getTime() + CONSENT_EXPIRY_MS + EXPIRY_TOLERANCE_MS;
  if (expiresAt.getTime() <= now.getTime() || expiresAt.getTime() > latest) {
    throw new AppError('PAYMENT_REQUEST_EXPIRY_INVALID');
  }
}

/** The requesting payer as a counterparty: their merchant and client rows, made on first use. */
async function requesterAsMerchant(tx: TDb, payerId: string, name: string) {
  const merchant = {
    id: requesterMerchantId(payerId),
    name,
    type: 'api_user' as const,
    ...DEFAULT_MERCHANT_COLOURS,
    walletBankName: DEFAULT_TRANSFER_BANK_NAME,
  };
  await tx.insert(merchants).values(merchant).onConflictDoNothing();
  // No secret opens this client: it exists so the consent page's clientId names the requester.
  await tx
    .insert(apiClients)
    .values({
      clientId: requesterClientId(payerId),
      merchantId: merchant.id,
      secretHash: UNKNOWN_CLIENT_HASH,
    })
    .onConflictDoNothing();
  return merchant;
}

export type TCreatedPaymentRequest = { consentId: string; url: string; created: boolean };

/**
 * POST /api/consent: the consent asking `userId` to pay `requesterId`, with its audit row and its
 * Idempotency-Key in one transaction. Only a signed-in payer grants it (requiresAuth).
 */
export async function createPaymentRequest(
  ctx: TPaymentRequestContext,
  requesterId: string,
  body: TConsentCreationPayload,
  idempotencyKey: string | undefined,
): Promise<TCreatedPaymentRequest> {
  const { db, clock } = ctx;
  const now = clock.now();
  const expiresAt = new Date(body.expiresAt);
  const idempotency = idempotencyKey
    ? { scope: creationScope(requesterId), key: idempotencyKey, request: body }
    : undefined;
  const { result, replayed } = await runIdempotent(db, idempotency, async (tx) => {
    // Checked inside: a retry of a request made before its expiry passed still answers it.
    assertExpiry(expiresAt, now);
    if (body.userId === requesterId) throw new AppError('PAYMENT_REQUEST_TO_SELF');
    const [requester] = await tx
      .select({ fullName: payers.fullName })
      .from(payers)
      .where(eq(payers.id, requesterId));
    // The session outlived its payer: the token no longer names anyone.
    if (!requester) throw new AppError('AUTHENTICATION_FAILED');
    const [invitee] = await tx
      .select({ id: payers.id })
      .from(payers)
      .where(eq(payers.id, body.userId));
    if (!invitee) throw new AppError('PAYMENT_REQUEST_PAYER_NOT_FOUND');
    const merchant = await requesterAsMerchant(tx, requesterId, requester.fullName);
    const clientId = requesterClientId(requesterId);
    const consentId = await insertConsent(
      tx,
      {
        payments: body.paymentConsents,
        requirements: { requiresAuth: true, requiresAccount: false },
      },
      {
        merchant,
        clientId,
        expiresAt,
        actor: `payer:${requesterId}`,
        createdData: { requestedBy: requesterId, requestedOf: invitee.id },
      },
    );
    return { consentId, clientId };
  });
  if (!replayed) {
    await ctx.events.publish({
      type: 'consent.created',
      data: {
        consentId: result.consentId,
        clientId: result.clientId,
        merchantId: requesterMerchantId(requesterId),
      },
    });
  }
  return {
    consentId: result.consentId,
    url: consentPageUrl(ctx.config.publicUrl, result.consentId, result.clientId),
    created: !replayed,
  };
}

/** GET /api/consent/payment-request/{id}: who asked, whatever the request's state. */
export async function readPaymentRequest(db: TDb, consentId: string): Promise<TCounterparty> {
  const found = (await findPaymentRequest(db, consentId)) && (await loadConsent(db, consentId));
  if (!found) throw new AppError('NO_CONSENT_DATA');
  return found.consent.counterparty;
}

/** Whether a request can still be declined: true when open, false when declined already. */
function declinable(request: TPaymentRequest, now: Date): boolean {
  switch (request.status) {
    case 'declined':
      return false;
    case 'pending':
      if (request.expiresAt.getTime() <= now.getTime()) {
        throw new AppError('PAYMENT_REQUEST_EXPIRED');
      }
      return true;
    // A consent never ends 'failed' today; one that did would be closed like a granted one.
    case 'granted':
    case 'revoked':
    case 'failed':
      throw new AppError('PAYMENT_REQUEST_GRANTED');
  }
}

/**
 * POST /api/users/decline-invitation/{id}: the payer asked says no, as the page's 'Decline' does
 * (declineConsent: status declined, its audit row, consent.declined to the outbox, once).
 * Declining again answers the same; a granted or expired request is 409.
 */
export async function declinePaymentRequest(
  ctx: TPaymentRequestContext,
  consentId: string,
  payerId: string,
): Promise<TDeclineInvitationResponse> {
  const request = await assertPaymentRequestPayer(ctx.db, consentId, payerId);
  if (!request) throw new AppError('NO_CONSENT_DATA');
  const declined: TDeclineInvitationResponse = { success: true, consentId, status: 'declined' };
  if (!declinable(request, ctx.clock.now())) return declined;
  try {
    await declineConsent(ctx, consentId, payerId);
  } catch (error) {
    // Granted or expired since it was read: say which.
    if (!(error instanceof AppError) || error.code !== 'CONSENT_NOT_FOUND') throw error;
    const now = await findPaymentRequest(ctx.db, consentId);
    if (!now || declinable(now, ctx.clock.now())) throw error;
  }
  return declined;
}
