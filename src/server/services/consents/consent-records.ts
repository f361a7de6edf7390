import { createHash } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import {
  auditLabel,
  CONSENT_TEXT_VERSION,
  consentRecordText,
  consentScopes,
  paymentTerms,
  type TGrantAuthentication,
  type TGrantChannel,
} from '../../../domain/consent-record';
import type { TConsent } from '../../../domain/schemas/consent';
import {
  ZStoredConsentRecord,
  type TConsentAuditEntry,
  type TConsentRecord,
  type TConsentRecordResponse,
  type TStoredConsentRecord,
} from '../../../domain/schemas/consent-record';
import type { TDb } from '../../db/database';
import { consentEvents, consents } from '../../db/schema';
import { AppError } from '../../app-error';

/*
 * The record of a grant (docs/payer-consents.md "The record"): what the payer was shown (the
 * consent's text, domain/consent-record.ts, its version and SHA-256), each scope in plain words,
 * the payments' amounts and frequency, payer, merchant, channel and the authentication used. It is
 * written once, into the grant's audit row ('consent.granted' in consent_events), which the
 * database keeps append-only; the consent's later timestamps (revoked, data sharing's end) are
 * read beside it. The payer reads it on /consents and by the SMS receipt's link, the merchant by
 * GET /api/v1/consents/{id}/record.
 */

/** SHA-256 (hex) of a record's text: what anyone holding the text can compute again. */
export const recordTextHash = (text: string): string =>
  createHash('sha256').update(text, 'utf8').digest('hex');

/** The record of granting `consent` now, to keep in its 'consent.granted' audit row. */
export function grantRecord(
  consent: TConsent,
  grant: {
    payerId: string | null;
    channel: TGrantChannel | null;
    authentication: TGrantAuthentication;
    grantedAt: Date;
  },
): TStoredConsentRecord {
  const text = consentRecordText(consent);
  return {
    textVersion: CONSENT_TEXT_VERSION,
    textHash: recordTextHash(text),
    text,
    scopes: consentScopes(consent),
    payments: consent.payments.map((p) => ({
      paymentId: p.paymentId,
      type: p.type,
      amount: p.amount,
      amountType: p.amountType,
      frequency: p.frequency,
      interval: p.interval,
      dueDate: p.dueDate,
      terms: paymentTerms(p),
    })),
    payerId: grant.payerId,
    merchant: { merchantId: consent.counterparty.merchantId, name: consent.counterparty.name },
    channel: grant.channel,
    authentication: grant.authentication,
    grantedAt: grant.grantedAt.toISOString(),
  };
}

/** Who made an audit entry, as the reader is told: the actor column's kind, never its id. */
function actorKind(actor: string): TConsentAuditEntry['actor'] {
  if (actor.startsWith('payer')) return 'payer';
  if (actor.startsWith('system')) return 'system';
  return 'merchant';
}

/** Every audit entry of a consent, oldest first, in words. */
async function auditOf(db: TDb, consentId: string): Promise<TConsentAuditEntry[]> {
  const rows = await db
    .select({
      id: consentEvents.id,
      type: consentEvents.type,
      actor: consentEvents.actor,
      createdAt: consentEvents.createdAt,
    })
    .from(consentEvents)
    .where(eq(consentEvents.consentId, consentId))
    .orderBy(asc(consentEvents.id));
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    label: auditLabel(row.type),
    actor: actorKind(row.actor),
    at: row.createdAt.toISOString(),
  }));
}

/** The stored record of a consent's grant with its later timestamps; null before records were kept. */
async function recordOf(db: TDb, consentId: string): Promise<TConsentRecord | null> {
  const [row] = await db
    .select({
      status: consents.status,
      revokedAt: consents.revokedAt,
      dataSharingExpiresAt: consents.dataSharingExpiresAt,
      dataSharingEndedAt: consents.dataSharingEndedAt,
      data: consentEvents.data,
    })
    .from(consentEvents)
    .innerJoin(consents, eq(consents.id, consentEvents.consentId))
    .where(and(eq(consentEvents.consentId, consentId), eq(consentEvents.type, 'consent.granted')))
    .orderBy(asc(consentEvents.id))
    .limit(1);
  const stored = ZStoredConsentRecord.safeParse(row?.data['record']);
  if (!row || !stored.success) return null;
  return {
    ...stored.data,
    consentId,
    status: row.status,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    dataSharingExpiresAt: row.dataSharingExpiresAt?.toISOString() ?? null,
    dataSharingEndedAt: row.dataSharingEndedAt?.toISOString() ?? null,
  };
}

/** A consent's record and audit, for a reader its owner check let through. */
export async function recordAndAudit(
  db: TDb,
  consentId: string,
): Promise<Omit<TConsentRecordResponse, 'success'>> {
  const [record, audit] = await Promise.all([recordOf(db, consentId), auditOf(db, consentId)]);
  return { record, audit };
}

/** GET /api/v1/consents/{id}/record: another merchant's consent reads as absent. */
export async function merchantConsentRecord(
  db: TDb,
  merchantId: string,
  consentId: string,
): Promise<Omit<TConsentRecordResponse, 'success'>> {
  const [own] = await db
    .select({ id: consents.id })
    .from(consents)
    .where(and(eq(consents.id, consentId), eq(consents.merchantId, merchantId)));
  if (!own) throw new AppError('CONSENT_NOT_FOUND');
  return recordAndAudit(db, consentId);
}

/** GET /api/users/consents/{id}/record: the payer's own granted consent, or 404 alike. */
export async function payerConsentRecord(
  db: TDb,
  payerId: string,
  consentId: string,
): Promise<Omit<TConsentRecordResponse, 'success'>> {
  const [own] = await db
    .select({ id: consents.id })
    .from(consents)
    .where(and(eq(consents.id, consentId), eq(consents.grantedBy, payerId)));
  if (!own) throw new AppError('PAYER_CONSENT_NOT_FOUND');
  return recordAndAudit(db, consentId);
}
