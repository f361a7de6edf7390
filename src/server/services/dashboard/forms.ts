import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { DASHBOARD_PAGE_SIZE } from '../../../domain/schemas/dashboard';
import type {
  TDashboardForm,
  TDashboardFormRead,
} from '../../../domain/schemas/dashboard-events-forms';
import type { TMerchantFormResponse } from '../../../domain/schemas/form';
import type { TDb } from '../../db/database';
import { consents, formResponses, formVersions, forms } from '../../db/schema';
import { AppError } from '../../app-error';
import { readFormResponseForMerchant } from '../forms/forms';
import { decodeListCursor, encodeListCursor } from '../list-cursor';
import { merchantConsentDetails } from '../merchants/merchant-consent-details';

/*
 * The dashboard's forms and responses (docs/dashboard.md "Forms"): the merchant's forms, one
 * form's responses with who answered (their consent and accounts, as the merchant API's consent
 * read masks them) and a response's answers, read by the merchant API's own service for the
 * client that owns the form. Every query names the session's merchant: another's form is
 * FORM_NOT_FOUND, its responses never listed.
 */

/** Newest first by creation time to the millisecond (what a cursor carries), then id. */
function newestFirst(createdAt: PgColumn, id: PgColumn, cursor?: string) {
  const created = sql<Date>`date_trunc('milliseconds', ${createdAt})`.mapWith(
    (value: string) => createdAt.mapFromDriverValue(value) as Date,
  );
  const after = cursor ? decodeListCursor(cursor) : null;
  return {
    created,
    after: after ? sql`(${created}, ${id}) < (${after.at}, ${after.id})` : undefined,
    order: [desc(created), desc(id)],
  };
}

/** A page of rows fetched one past its size: the page and the cursor of the next. */
function pageOf<T extends { id: string; createdAt: Date }>(rows: T[]) {
  const page = rows.slice(0, DASHBOARD_PAGE_SIZE);
  const last = page.at(-1);
  return {
    page,
    nextCursor:
      rows.length > DASHBOARD_PAGE_SIZE && last ? encodeListCursor(last.createdAt, last.id) : null,
  };
}

async function formRows(db: TDb, where: SQL | undefined, cursor?: string) {
  const order = newestFirst(forms.createdAt, forms.id, cursor);
  const rows = await db
    .select({
      id: forms.id,
      clientId: forms.clientId,
      latestVersion: forms.latestVersion,
      title: sql<string>`${formVersions.definition}->>'title'`,
      responses:
        sql<number>`(select count(*) from form_responses r where r.form_id = ${forms.id})`.mapWith(
          Number,
        ),
      createdAt: order.created,
    })
    .from(forms)
    .innerJoin(
      formVersions,
      and(eq(formVersions.formId, forms.id), eq(formVersions.version, forms.latestVersion)),
    )
    .where(and(where, order.after))
    .orderBy(...order.order)
    .limit(DASHBOARD_PAGE_SIZE + 1);
  const { page, nextCursor } = pageOf(rows);
  const list: TDashboardForm[] = page.map(({ id, createdAt, ...row }) => ({
    formId: id,
    ...row,
    createdAt: createdAt.toISOString(),
  }));
  return { forms: list, nextCursor };
}

/** The merchant's forms, newest first, 25 a page. */
export const listDashboardForms = (db: TDb, merchantId: string, cursor?: string) =>
  formRows(db, eq(forms.merchantId, merchantId), cursor);

/** One of the merchant's forms; another merchant's, or none, is FORM_NOT_FOUND. */
async function ownForm(db: TDb, merchantId: string, formId: string): Promise<TDashboardForm> {
  const [form] = (await formRows(db, and(eq(forms.id, formId), eq(forms.merchantId, merchantId))))
    .forms;
  if (!form) throw new AppError('FORM_NOT_FOUND');
  return form;
}

/** A form of the merchant's and a page of its responses, newest first, with who answered. */
export async function dashboardForm(
  db: TDb,
  merchantId: string,
  formId: string,
  cursor?: string,
): Promise<Omit<TDashboardFormRead, 'success'>> {
  const form = await ownForm(db, merchantId, formId);
  const order = newestFirst(formResponses.createdAt, formResponses.id, cursor);
  const rows = await db
    .select({
      id: formResponses.id,
      formVersion: formResponses.formVersion,
      consentId: formResponses.consentId,
      reference: consents.reference,
      createdAt: order.created,
      updatedAt: formResponses.updatedAt,
      submittedAt: formResponses.submittedAt,
    })
    .from(formResponses)
    .innerJoin(consents, eq(consents.id, formResponses.consentId))
    .where(and(eq(formResponses.formId, formId), eq(consents.merchantId, merchantId), order.after))
    .orderBy(...order.order)
    .limit(DASHBOARD_PAGE_SIZE + 1);
  const { page, nextCursor } = pageOf(rows);
  const details = await merchantConsentDetails(
    db,
    page.map((row) => row.consentId),
  );
  return {
    form,
    responses: page.map((row, i) => ({
      responseId: row.id,
      formVersion: row.formVersion,
      consentId: row.consentId,
      reference: row.reference,
      mandates: details[i]?.mandates ?? [],
      startedAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      submittedAt: row.submittedAt?.toISOString() ?? null,
    })),
    nextCursor,
  };
}

/** A response's answers, as the merchant API reads them for the client that owns the form. */
export async function dashboardFormAnswers(
  db: TDb,
  publicUrl: string,
  merchantId: string,
  ids: { formId: string; responseId: string },
  now: Date,
): Promise<TMerchantFormResponse['response']> {
  const { clientId } = await ownForm(db, merchantId, ids.formId);
  return readFormResponseForMerchant(db, publicUrl, { ...ids, clientId }, now);
}
