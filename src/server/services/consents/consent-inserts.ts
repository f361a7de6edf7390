import { eq, sql, type SQL } from 'drizzle-orm';
import { DATA_CATEGORIES } from '../../../domain/constants';
import type { TDataSharing } from '../../../domain/schemas/consent';
import type { TCreateConsentRequest } from '../../../domain/schemas/merchant-api';
import { randomId } from '../../crypto/secret-hash';
import { rowsOf, type TDb } from '../../db/database';
import { forms, type merchants } from '../../db/schema';
import { AppError } from '../../app-error';

/*
 * A new consent written in one statement (bench/README.md "Statements a payment"): the consent,
 * its payments, its data-sharing items and its 'consent.created' audit row are CTEs over JSON
 * rows, as the ledger's bookings and a change's records are (payments/ledger.ts,
 * change-records.ts). Every id but the serial ones is made here, so nothing waits on a RETURNING.
 * The merchant's creation puts its idempotency key and its bus notice in the same statement
 * (consents.ts createConsent); a payment request writes it inside its own transaction.
 */

type TMerchantRow = typeof merchants.$inferSelect;

/** Who a new consent is for and from, and what its first audit event records. */
export type TNewConsentRows = {
  merchant: Pick<TMerchantRow, 'id' | 'walletBankName'>;
  clientId: string;
  expiresAt: Date;
  /** The audit actor of 'consent.created', e.g. `client:cli_…` or `payer:usr_…`. */
  actor: string;
  /** More for the 'consent.created' audit row (docs/payment-requests.md: who was asked). */
  createdData?: Record<string, unknown>;
  /** The fingerprint of the merchant's request, kept with its reference. */
  referenceFingerprint?: string | null;
};

/**
 * A consent names a form of its own merchant (docs/forms.md): another merchant's form is refused
 * (400 naming formId), so a merchant can neither show nor collect answers to a form not its own.
 * An id no form has yet is let through: the consent shows the form once it is made.
 */
export const foreignFormError = () =>
  new AppError('VALIDATION_FAILED', 'formId: not a form of this merchant');

/** The rule of foreignFormError as a read of its own, inside the caller's transaction. */
export async function assertOwnForm(tx: TDb, formId: string | undefined, merchantId: string) {
  if (formId === undefined) return;
  const [form] = await tx
    .select({ merchantId: forms.merchantId })
    .from(forms)
    .where(eq(forms.id, formId));
  if (form && form.merchantId !== merchantId) throw foreignFormError();
}

/** The rule of foreignFormError as an SQL condition, true when the consent may name its form. */
export function ownFormCondition(formId: string | undefined, merchantId: string): SQL {
  if (formId === undefined) return sql`true`;
  return sql`NOT EXISTS (SELECT 1 FROM forms
                         WHERE id = ${formId} AND merchant_id IS DISTINCT FROM ${merchantId})`;
}

/**
 * The CTEs that write a new consent (named `made`, `paid`, `shared`, `audit`), for a statement
 * that begins `WITH`: nothing is written unless `go` holds. `made` has the consent's row when it
 * was written.
 */
export function consentWrites(
  consentId: string,
  input: TCreateConsentRequest,
  rows: TNewConsentRows,
  go: SQL,
): SQL {
  const consent = {
    id: consentId,
    merchant_id: rows.merchant.id,
    client_id: rows.clientId,
    expires_at: rows.expiresAt.toISOString(),
    act_on_behalf_of: input.actOnBehalfOf ?? null,
    form_id: input.formId ?? null,
    form_template_values: input.formCompletion?.templateLiteralValues ?? null,
    requires_auth: input.requirements.requiresAuth,
    requires_account: input.requirements.requiresAccount,
    auth_app_id: input.authAppId ?? null,
    original_request_id: input.originalRequestId ?? null,
    reference: input.reference ?? null,
    reference_fingerprint: rows.referenceFingerprint ?? null,
    metadata: input.metadata ?? null,
    return_url: input.returnUrl ?? null,
  };
  const paymentRows = input.payments.map((p, position) => ({
    id: randomId('pay'),
    position,
    type: p.type,
    amount: p.amount,
    narration: p.narration,
    amount_type: p.type === 'future' ? p.amountType : 'fixed',
    due_date: p.type === 'future' ? isoOrNull(p.dueDate) : null,
    start_date: p.type === 'future' ? isoOrNull(p.startDate) : null,
    end_date: p.type === 'future' ? isoOrNull(p.endDate) : null,
    frequency: p.type === 'future' ? (p.frequency ?? null) : null,
    interval: p.type === 'future' ? (p.interval ?? null) : null,
    paypoint_id: p.paypointId ?? null,
    paypoint_location_name: p.paypointLocationName ?? null,
    // Immediate payments are collected into the merchant's wallet (spec §3 shieldWallet).
    shield_wallet_bank_name: p.type === 'immediate' ? rows.merchant.walletBankName : null,
  }));
  const items = dataSharingRows(input.dataSharing);
  const created = {
    payments: input.payments.length,
    dataItems: items.length,
    ...rows.createdData,
  };
  // The items take their serial ids in the request's order (a read lists them by id).
  return sql`
    made AS (
      INSERT INTO consents (id, merchant_id, client_id, expires_at, act_on_behalf_of, form_id,
                            form_template_values, requires_auth, requires_account, auth_app_id,
                            original_request_id, reference, reference_fingerprint, metadata,
                            return_url)
      SELECT c.id, c.merchant_id, c.client_id, c.expires_at, c.act_on_behalf_of, c.form_id,
             c.form_template_values, c.requires_auth, c.requires_account, c.auth_app_id,
             c.original_request_id, c.reference, c.reference_fingerprint, c.metadata, c.return_url
      FROM jsonb_to_record(${JSON.stringify(consent)}::jsonb) AS c(
             id text, merchant_id text, client_id text, expires_at timestamptz,
             act_on_behalf_of jsonb, form_id text, form_template_values jsonb,
             requires_auth boolean, requires_account boolean, auth_app_id text,
             original_request_id text, reference text, reference_fingerprint text,
             metadata jsonb, return_url text)
      WHERE ${go}
      RETURNING id),
    paid AS (
      INSERT INTO payments (id, consent_id, "position", type, amount, narration, amount_type,
                            due_date, start_date, end_date, frequency, "interval", paypoint_id,
                            paypoint_location_name, shield_wallet_bank_name)
      SELECT p.id, made.id, p."position", p.type, p.amount, p.narration, p.amount_type,
             p.due_date, p.start_date, p.end_date, p.frequency, p."interval", p.paypoint_id,
             p.paypoint_location_name, p.shield_wallet_bank_name
      FROM made, jsonb_to_recordset(${JSON.stringify(paymentRows)}::jsonb) AS p(
             id text, "position" integer, type text, amount bigint, narration text,
             amount_type text, due_date timestamptz, start_date timestamptz,
             end_date timestamptz, frequency text, "interval" integer, paypoint_id text,
             paypoint_location_name text, shield_wallet_bank_name text)),
    shared AS (
      INSERT INTO data_sharing_items (consent_id, category, item)
      SELECT made.id, i.category, i.item
      FROM made, jsonb_to_recordset(${JSON.stringify(items)}::jsonb)
           AS i("position" integer, category text, item text)
      ORDER BY i."position"),
    audit AS (
      INSERT INTO consent_events (consent_id, type, actor, data)
      SELECT made.id, 'consent.created', ${rows.actor}, ${JSON.stringify(created)}::jsonb
      FROM made)`;
}

/**
 * Writes a consent, its payments and data-sharing items and its 'consent.created' audit event
 * inside the caller's transaction; answers its new id.
 */
export async function insertConsent(
  tx: TDb,
  input: TCreateConsentRequest,
  rows: TNewConsentRows,
): Promise<string> {
  await assertOwnForm(tx, input.formId, rows.merchant.id);
  const consentId = randomId('cns');
  const written = await tx.execute(sql`
    WITH ${consentWrites(consentId, input, rows, sql`true`)}
    SELECT count(*)::int AS made FROM made`);
  if (rowsOf<{ made: number }>(written)[0]?.made !== 1) {
    throw new Error('A consent could not be written');
  }
  return consentId;
}

/** A date of the request as the database reads it: the instant JavaScript parses it as. */
const isoOrNull = (s: string | undefined): string | null => (s ? new Date(s).toISOString() : null);

function dataSharingRows(
  dataSharing: TDataSharing | undefined,
): Array<{ position: number; category: string; item: string | null }> {
  if (!dataSharing) return [];
  return DATA_CATEGORIES.flatMap((category): Array<{ category: string; item: string | null }> => {
    const value = dataSharing[category];
    if (value === undefined || value === false) return [];
    if (value === true) return [{ category, item: null }];
    return value.map((item) => ({ category, item }));
  }).map((row, position) => ({ position, ...row }));
}
