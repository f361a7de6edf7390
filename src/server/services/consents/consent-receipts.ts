import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, isNotNull } from 'drizzle-orm';
import { consentReceiptMessage, consentReceiptUrl } from '../../../domain/consent-record';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import type { TConfig } from '../../config';
import { consents, payers } from '../../db/schema';
import { type TSmsJobs, type TSmsOutbox } from '../../jobs/sms-job';
import { AppError } from '../../app-error';
import { identityKeys } from '../identity/identity-keys';
import type { TGrantChallengeResponse } from '../../../domain/schemas/auth';
import type { TReceiptResponse } from '../../../domain/schemas/consent-record';
import type { TPayerConsent, TRevokeConsentRequest } from '../../../domain/schemas/payer-consents';
import { recordAndAudit } from './consent-records';
import { issueRevocationChallenge, payerConsentView, revokeConsent } from './payer-consents';

/*
 * The receipt (docs/payer-consents.md "The receipt"): when a signed-in payer grants a consent,
 * their number gets an SMS with a link to that one consent, /consents?receipt=<token>, a second
 * way to see and withdraw it beside their signed-in list. The token names the consent and carries
 * an HMAC of it under the identity key, so it opens that consent alone and cannot be made up; it
 * shows the record, and withdrawing by it still needs the payer's passkey, as on /consents.
 */

/** Characters of the HMAC kept in a token: 192 bits, a short SMS. */
const MAC_LENGTH = 32;

async function receiptMac(db: TDb, config: TConfig, consentId: string): Promise<string> {
  const keys = await identityKeys(db, config);
  return createHmac('sha256', keys.phoneCodeKey)
    .update(`consent-receipt:${consentId}`)
    .digest('base64url')
    .slice(0, MAC_LENGTH);
}

/** The receipt token of a consent: `{consentId}.{mac}`. */
export async function receiptToken(db: TDb, config: TConfig, consentId: string): Promise<string> {
  return `${consentId}.${await receiptMac(db, config, consentId)}`;
}

/**
 * The consent a receipt token opens, and the payer who granted it. A token made up, cut, or of a
 * consent nobody signed in granted is PAYER_CONSENT_NOT_FOUND (404), as another payer's is.
 */
export async function consentOfReceipt(
  db: TDb,
  config: TConfig,
  token: string,
): Promise<{ consentId: string; payerId: string }> {
  const dot = token.lastIndexOf('.');
  const consentId = token.slice(0, dot);
  const mac = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(await receiptMac(db, config, consentId));
  if (dot <= 0 || mac.length !== expected.length || !timingSafeEqual(mac, expected)) {
    throw new AppError('PAYER_CONSENT_NOT_FOUND');
  }
  const [row] = await db
    .select({ payerId: consents.grantedBy })
    .from(consents)
    .where(and(eq(consents.id, consentId), isNotNull(consents.grantedBy)));
  if (!row?.payerId) throw new AppError('PAYER_CONSENT_NOT_FOUND');
  return { consentId, payerId: row.payerId };
}

/**
 * The link a grant's receipt carries, made before the grant's transaction (its token reads the
 * identity key, which is written on first use).
 */
export async function receiptUrlOf(db: TDb, config: TConfig, consentId: string): Promise<string> {
  return consentReceiptUrl(config.publicUrl, await receiptToken(db, config, consentId));
}

/**
 * Queues the receipt of a grant on `tx`, the grant's transaction (the outbox), sealed with `seal`
 * (its link opens the payer's consents): it goes once the grant has committed, whatever happens
 * after, and a grant retried sends no second one (the job's id is the consent's). The grant
 * stands whatever the SMS does: a provider that fails is tried again by the engine. Answers the
 * SMS job's id; null when the payer is gone.
 */
export async function queueConsentReceipt(
  tx: TDb,
  config: TConfig,
  outbox: TSmsOutbox,
  grant: {
    consentId: string;
    payerId: string;
    merchantName: string;
    grantedAt: Date;
    receiptUrl: string;
  },
): Promise<string | null> {
  const [payer] = await tx
    .select({ phoneNumber: payers.phoneNumber })
    .from(payers)
    .where(eq(payers.id, grant.payerId));
  if (!payer) return null;
  return outbox.queue(tx, `consent-receipt:${grant.consentId}`, {
    phoneNumber: payer.phoneNumber,
    body: consentReceiptMessage({
      productName: config.productName,
      merchantName: grant.merchantName || 'Merchant',
      grantedAt: grant.grantedAt,
      receiptUrl: grant.receiptUrl,
    }),
  });
}

/** GET /api/consent-receipts/{token}: the one consent, as its payer's list shows it, with its record. */
export async function readReceipt(
  ctx: Pick<TAppContext, 'db' | 'config'>,
  token: string,
): Promise<Omit<TReceiptResponse, 'success'>> {
  const { consentId, payerId } = await consentOfReceipt(ctx.db, ctx.config, token);
  const [consent, recorded] = await Promise.all([
    payerConsentView(ctx.db, payerId, consentId),
    recordAndAudit(ctx.db, consentId),
  ]);
  return { consent, ...recorded };
}

type TRevokeByReceiptContext = Pick<TAppContext, 'db' | 'config' | 'clock'> & { jobs: TSmsJobs };

/** POST /api/consent-receipts/{token}/revocation-challenges: a nonce for the passkey of its payer. */
export async function receiptRevocationChallenge(
  ctx: TRevokeByReceiptContext,
  token: string,
): Promise<Omit<TGrantChallengeResponse, 'success'>> {
  const { consentId, payerId } = await consentOfReceipt(ctx.db, ctx.config, token);
  return issueRevocationChallenge(ctx, payerId, consentId);
}

/**
 * POST /api/consent-receipts/{token}/revoke: the revocation of /consents, with no session: the
 * signature by one of the payer's passkeys, over a nonce issued for this consent, is the proof.
 */
export async function revokeByReceipt(
  ctx: TRevokeByReceiptContext,
  token: string,
  signed: TRevokeConsentRequest,
): Promise<TPayerConsent> {
  const { consentId, payerId } = await consentOfReceipt(ctx.db, ctx.config, token);
  return revokeConsent(ctx, { payerId, sessionId: null }, consentId, signed);
}
