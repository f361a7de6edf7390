import { and, asc, desc, eq, lte, sql } from 'drizzle-orm';
import {
  checkFormSection,
  cutWhole,
  fillFormPlaceholders,
  fillPlaceholders,
  formFileError,
  formPlaceholders,
  isFormComplete,
  sectionFileIds,
  sniffFormFileType,
  unknownAnswerKeys,
} from '../../../domain/forms';
import {
  FORM_FILE_LINK_TTL_MS,
  type TFormAnswers,
  type TFormDefinition,
  type TFormField,
  type TFormFileSummary,
  type TFormReadResponse,
  type TFormResponseState,
  type TMerchantFormResponse,
  type TSaveFormSectionRequest,
  type TSaveFormSectionResponse,
} from '../../../domain/schemas/form';
import { isPrintableText } from '../../../domain/schemas/fields';
import { randomId } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import {
  apiClients,
  consents,
  formFiles,
  formResponseSections,
  formResponses,
  formVersions,
  forms,
} from '../../db/schema';
import { AppError } from '../../app-error';
import { readConsentForClient } from '../consents/consents';
import {
  newStorageKey,
  removeStoredFile,
  sameSecret,
  sha256Hex,
  signedFileLink,
  writeStoredFile,
} from './form-files';
import { runIdempotent } from '../idempotency';

/*
 * Forms (docs/forms.md): merchants create forms and new versions of them; a payer fills the form of
 * a consent section by section, with the consent's update token; the grant checks it is complete;
 * the merchant reads the answers, files as short-lived links.
 */

/** Files one response may hold: a few per file field, with room to replace a wrong one. */
export const FORM_MAX_FILES_PER_RESPONSE = 30;

type TFormVersionRow = typeof formVersions.$inferSelect;
type TMerchantClient = { clientId: string; merchantId: string };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

// ---------------------------------------------------------------------------------------------
// Merchants: forms and versions

export const formCreationScope = (clientId: string) => `forms.create:${clientId}`;
const versionScope = (clientId: string, formId: string) => `forms.version:${clientId}:${formId}`;

export type TFormCreated = {
  formId: string;
  version: number;
  placeholders: string[];
  created: boolean;
};

/** Creates a form and its version 1 (POST /api/v1/forms), once per Idempotency-Key. */
export async function createForm(
  db: TDb,
  definition: TFormDefinition,
  client: TMerchantClient & { idempotencyKey?: string | undefined },
): Promise<TFormCreated> {
  const idempotency = client.idempotencyKey
    ? { scope: formCreationScope(client.clientId), key: client.idempotencyKey, request: definition }
    : undefined;
  const { result, replayed } = await runIdempotent(db, idempotency, async (tx) => {
    const formId = randomId('frm');
    await tx
      .insert(forms)
      .values({ id: formId, merchantId: client.merchantId, clientId: client.clientId });
    await tx.insert(formVersions).values({ formId, version: 1, definition });
    return { formId, version: 1, placeholders: formPlaceholders(definition) };
  });
  return { ...result, created: !replayed };
}

/**
 * Adds a version to a client's form (POST /api/v1/forms/{formId}/versions). Consents made from
 * now on show it; a consent made before keeps the version it was made with.
 */
export async function addFormVersion(
  db: TDb,
  formId: string,
  definition: TFormDefinition,
  client: TMerchantClient & { idempotencyKey?: string | undefined },
): Promise<TFormCreated> {
  const idempotency = client.idempotencyKey
    ? {
        scope: versionScope(client.clientId, formId),
        key: client.idempotencyKey,
        request: definition,
      }
    : undefined;
  const { result, replayed } = await runIdempotent(db, idempotency, async (tx) => {
    // One statement claims the next number: two versions at once get two numbers.
    const [claimed] = await tx
      .update(forms)
      .set({ latestVersion: sql`${forms.latestVersion} + 1`, updatedAt: sql`now()` })
      .where(and(eq(forms.id, formId), eq(forms.clientId, client.clientId)))
      .returning({ version: forms.latestVersion });
    if (!claimed) throw new AppError('FORM_NOT_FOUND');
    await tx.insert(formVersions).values({ formId, version: claimed.version, definition });
    return { formId, version: claimed.version, placeholders: formPlaceholders(definition) };
  });
  return { ...result, created: !replayed };
}

/**
 * A form under an id of our choosing (the demo's), with its first version; nothing when it is
 * there already.
 */
export async function seedForm(
  db: TDb,
  formId: string,
  definition: TFormDefinition,
  client: TMerchantClient,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [made] = await tx
      .insert(forms)
      .values({ id: formId, merchantId: client.merchantId, clientId: client.clientId })
      .onConflictDoNothing()
      .returning({ id: forms.id });
    if (made) await tx.insert(formVersions).values({ formId, version: 1, definition });
  });
}

async function clientForm(db: TDb, formId: string, clientId: string) {
  const [form] = await db
    .select()
    .from(forms)
    .where(and(eq(forms.id, formId), eq(forms.clientId, clientId)));
  if (!form) throw new AppError('FORM_NOT_FOUND');
  return form;
}

async function versionOf(db: TDb, formId: string, version: number): Promise<TFormVersionRow> {
  const [row] = await db
    .select()
    .from(formVersions)
    .where(and(eq(formVersions.formId, formId), eq(formVersions.version, version)));
  if (!row) throw new AppError('FORM_NOT_FOUND');
  return row;
}

/** A client's form as written (GET /api/v1/forms/{formId}), the latest version or one named. */
export async function readMerchantForm(
  db: TDb,
  formId: string,
  clientId: string,
  version?: number,
) {
  const form = await clientForm(db, formId, clientId);
  const row = await versionOf(db, formId, version ?? form.latestVersion);
  return {
    formId,
    version: row.version,
    latestVersion: form.latestVersion,
    definition: row.definition,
    placeholders: formPlaceholders(row.definition),
  };
}

/**
 * The merchant's preview: the form filled with the values a consent would carry; a placeholder
 * without a value stays visible, and is listed.
 */
export async function previewForm(
  db: TDb,
  formId: string,
  clientId: string,
  input: { version?: number | undefined; templateLiteralValues: Record<string, string> },
) {
  const read = await readMerchantForm(db, formId, clientId, input.version);
  return {
    definition: fillFormPlaceholders(read.definition, input.templateLiteralValues, 'preview'),
    missingPlaceholders: read.placeholders.filter(
      (name) => !Object.hasOwn(input.templateLiteralValues, name),
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// The consent's form

type TConsentFormRow = {
  id: string;
  merchantId: string;
  clientId: string;
  status: (typeof consents.$inferSelect)['status'];
  createdAt: Date;
  formId: string | null;
  formResponseId: string | null;
  formUpdateToken: string | null;
  formTemplateValues: Record<string, string> | null;
};

const consentFormColumns = {
  id: consents.id,
  merchantId: consents.merchantId,
  clientId: consents.clientId,
  status: consents.status,
  createdAt: consents.createdAt,
  formId: consents.formId,
  formResponseId: consents.formResponseId,
  formUpdateToken: consents.formUpdateToken,
  formTemplateValues: consents.formTemplateValues,
};

/**
 * The version a consent shows: the one its response was started on, else the newest version
 * made before the consent was (so a later version never changes what a consent asks), else
 * the first, for a consent that named its form before the form existed.
 */
async function consentFormVersion(db: TDb, consent: TConsentFormRow): Promise<TFormVersionRow> {
  if (!consent.formId) throw new AppError('FORM_NOT_FOUND');
  const [form] = await db.select().from(forms).where(eq(forms.id, consent.formId));
  // A form belongs to its merchant: a consent naming another merchant's form has none.
  if (!form || form.merchantId !== consent.merchantId) throw new AppError('FORM_NOT_FOUND');
  if (consent.formResponseId) {
    const [response] = await db
      .select({ version: formResponses.formVersion })
      .from(formResponses)
      .where(eq(formResponses.id, consent.formResponseId));
    if (response) return versionOf(db, form.id, response.version);
  }
  const [madeBefore] = await db
    .select()
    .from(formVersions)
    .where(and(eq(formVersions.formId, form.id), lte(formVersions.createdAt, consent.createdAt)))
    .orderBy(desc(formVersions.version))
    .limit(1);
  if (madeBefore) return madeBefore;
  const [first] = await db
    .select()
    .from(formVersions)
    .where(eq(formVersions.formId, form.id))
    .orderBy(asc(formVersions.version))
    .limit(1);
  if (!first) throw new AppError('FORM_NOT_FOUND');
  return first;
}

async function consentFormRow(db: TDb, consentId: string, lock = false): Promise<TConsentFormRow> {
  const query = db.select(consentFormColumns).from(consents).where(eq(consents.id, consentId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError('CONSENT_NOT_FOUND');
  return row;
}

const fileSummary = (row: typeof formFiles.$inferSelect): TFormFileSummary => ({
  id: row.id,
  fieldId: row.fieldId,
  fileName: row.fileName,
  mediaType: row.mediaType,
  size: row.size,
});

async function savedSections(db: TDb, responseId: string) {
  const rows = await db
    .select()
    .from(formResponseSections)
    .where(eq(formResponseSections.responseId, responseId));
  return Object.fromEntries(rows.map((r) => [r.sectionId, r.answers])) as Record<
    string,
    TFormAnswers
  >;
}

async function responseState(
  db: TDb,
  consent: TConsentFormRow,
  definition: TFormDefinition,
): Promise<TFormResponseState | null> {
  if (!consent.formResponseId || !consent.formUpdateToken) return null;
  const [response] = await db
    .select()
    .from(formResponses)
    .where(eq(formResponses.id, consent.formResponseId));
  if (!response) return null;
  const answers = await savedSections(db, response.id);
  const files = await db
    .select()
    .from(formFiles)
    .where(eq(formFiles.responseId, response.id))
    .orderBy(asc(formFiles.createdAt));
  return {
    id: response.id,
    updateToken: consent.formUpdateToken,
    formVersion: response.formVersion,
    submitted: response.submittedAt !== null,
    sections: Object.fromEntries(
      definition.sections
        .filter((s) => answers[s.id] !== undefined)
        .map((s) => {
          const saved = answers[s.id] ?? {};
          return [s.id, { answers: saved, complete: checkFormSection(s, saved).complete }];
        }),
    ),
    files: files.map(fileSummary),
  };
}

/**
 * GET /api/form (spec §7): the form for the page. By formId alone (spec §2 public mode) the
 * newest version; for a consent (consentId and clientId) the consent's version, its
 * placeholders filled, and its saved response.
 */
export async function readFormForPage(
  db: TDb,
  query: { formId: string; consentId?: string | undefined; clientId?: string | undefined },
  now: Date,
): Promise<TFormReadResponse['data']> {
  if (query.consentId !== undefined) {
    if (!query.clientId) throw new AppError('MISSING_CLIENT_ID_PARAMETER');
    await readConsentForClient(db, query.consentId, query.clientId, now);
    const consent = await consentFormRow(db, query.consentId);
    if (consent.formId !== query.formId) throw new AppError('FORM_NOT_FOUND');
    const version = await consentFormVersion(db, consent);
    const filled = fillFormPlaceholders(version.definition, consent.formTemplateValues ?? {});
    return {
      form: { id: version.formId, version: version.version, ...filled },
      response: await responseState(db, consent, version.definition),
    };
  }
  const [form] = await db.select().from(forms).where(eq(forms.id, query.formId));
  if (!form) throw new AppError('FORM_NOT_FOUND');
  if (query.clientId !== undefined) {
    const [client] = await db
      .select({ merchantId: apiClients.merchantId })
      .from(apiClients)
      .where(eq(apiClients.clientId, query.clientId));
    // Shown by formId to the pages of its own merchant only.
    if (client?.merchantId !== form.merchantId) throw new AppError('FORM_NOT_FOUND');
  }
  const version = await versionOf(db, form.id, form.latestVersion);
  const filled = fillFormPlaceholders(version.definition, {});
  return { form: { id: form.id, version: version.version, ...filled }, response: null };
}

type TOpenResponse = {
  responseId: string;
  updateToken: string;
  version: TFormVersionRow;
  consent: TConsentFormRow;
};

/**
 * Inside a transaction holding the consent's row: the consent's response, made on the first
 * save (which issues the consent's formResponseId and formUpdateToken); every later save must
 * bring the token. A granted or closed consent's answers are final.
 */
async function openResponse(
  tx: TDb,
  consentId: string,
  token: string | undefined,
): Promise<TOpenResponse> {
  const consent = await consentFormRow(tx, consentId, true);
  if (!consent.formId) throw new AppError('FORM_NOT_FOUND');
  if (consent.status !== 'pending') throw new AppError('FORM_RESPONSE_CLOSED');
  const version = await consentFormVersion(tx, consent);
  if (!consent.formResponseId || !consent.formUpdateToken) {
    if (token !== undefined) throw new AppError('FORM_UPDATE_TOKEN_INVALID');
    const responseId = randomId('frs');
    const updateToken = randomId('fut', 24);
    await tx.insert(formResponses).values({
      id: responseId,
      consentId,
      formId: version.formId,
      formVersion: version.version,
    });
    await tx
      .update(consents)
      .set({ formResponseId: responseId, formUpdateToken: updateToken })
      .where(eq(consents.id, consentId));
    return { responseId, updateToken, version, consent };
  }
  if (token === undefined) throw new AppError('FORM_UPDATE_TOKEN_REQUIRED');
  if (!sameSecret(token, consent.formUpdateToken)) throw new AppError('FORM_UPDATE_TOKEN_INVALID');
  const [response] = await tx
    .select({ submittedAt: formResponses.submittedAt })
    .from(formResponses)
    .where(eq(formResponses.id, consent.formResponseId));
  if (response?.submittedAt) throw new AppError('FORM_RESPONSE_CLOSED');
  return {
    responseId: consent.formResponseId,
    updateToken: consent.formUpdateToken,
    version,
    consent,
  };
}

/** Every file id the answers name must be a file of this response, uploaded into that field. */
async function checkFileAnswers(
  tx: TDb,
  responseId: string,
  section: TFormDefinition['sections'][number],
  answers: TFormAnswers,
) {
  const ids = sectionFileIds(section, answers);
  if (ids.length === 0) return;
  const rows = await tx
    .select({ id: formFiles.id, fieldId: formFiles.fieldId })
    .from(formFiles)
    .where(eq(formFiles.responseId, responseId));
  const uploaded = new Map(rows.map((r) => [r.id, r.fieldId]));
  for (const field of section.fields) {
    const value = answers[field.id];
    if (field.kind !== 'file' || typeof value !== 'string' || value === '') continue;
    if (uploaded.get(value) !== field.id) {
      throw new AppError('VALIDATION_FAILED', `answers.${field.id}: is not a file uploaded here`);
    }
  }
}

/**
 * Saves one section's answers (PUT /api/form/sections/{sectionId}): kept as they are, so a
 * reload or another device resumes them, and checked with the domain's rules. The section's
 * completeness and each failing field's message come back.
 */
export async function saveFormSection(
  db: TDb,
  sectionId: string,
  input: TSaveFormSectionRequest,
  now: Date,
): Promise<Omit<TSaveFormSectionResponse, 'success'>> {
  await readConsentForClient(db, input.consentId, input.clientId, now);
  return db.transaction(async (txOuter) => {
    const tx = txOuter as TDb;
    const open = await openResponse(tx, input.consentId, input.formUpdateToken);
    const definition = open.version.definition;
    const section = definition.sections.find((s) => s.id === sectionId);
    if (!section) throw new AppError('FORM_SECTION_NOT_FOUND');
    const unknown = unknownAnswerKeys(section, input.answers);
    if (unknown.length > 0) {
      throw new AppError(
        'VALIDATION_FAILED',
        `answers.${unknown[0]}: is not a field of this section`,
      );
    }
    await checkFileAnswers(tx, open.responseId, section, input.answers);
    const check = checkFormSection(section, input.answers);
    await tx
      .insert(formResponseSections)
      .values({
        responseId: open.responseId,
        sectionId,
        answers: input.answers,
        complete: check.complete,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [formResponseSections.responseId, formResponseSections.sectionId],
        set: { answers: input.answers, complete: check.complete, updatedAt: now },
      });
    await tx
      .update(formResponses)
      .set({ updatedAt: now })
      .where(eq(formResponses.id, open.responseId));
    const saved = await savedSections(tx, open.responseId);
    return {
      formResponseId: open.responseId,
      formUpdateToken: open.updateToken,
      section: { id: sectionId, complete: check.complete, errors: check.errors },
      allComplete: isFormComplete(definition, saved),
    };
  });
}

function fileFieldOf(definition: TFormDefinition, fieldId: string) {
  for (const section of definition.sections) {
    const field = section.fields.find((f): f is Extract<TFormField, { kind: 'file' }> => {
      return f.id === fieldId && f.kind === 'file';
    });
    if (field) return field;
  }
  return null;
}

/** Longest file name kept, in UTF-16 units. */
const FILE_NAME_MAX = 120;

/** A file name as the payer's device gave it, made safe to show: printable, short, and never
 * ending in half of a pair of UTF-16 units, which the database refuses. */
function cleanFileName(name: string | undefined): string {
  const printable = [...(name ?? '')].filter((c) => isPrintableText(c) && c !== '/' && c !== '\\');
  const cleaned = cutWhole(printable.join('').trim(), FILE_NAME_MAX);
  return cleaned === '' ? 'upload' : cleaned;
}

export type TFormFileUpload = {
  consentId: string;
  clientId: string;
  fieldId: string;
  formUpdateToken: string | undefined;
  fileName: string | undefined;
  bytes: Buffer;
};

/**
 * Stores a file for a file field (POST /api/form/files): typed by its first bytes, held to the
 * field's types and size, written under DATA_DIR. The field's answer then names its id.
 */
export async function uploadFormFile(db: TDb, dataDir: string, upload: TFormFileUpload, now: Date) {
  await readConsentForClient(db, upload.consentId, upload.clientId, now);
  return db.transaction(async (txOuter) => {
    const tx = txOuter as TDb;
    const open = await openResponse(tx, upload.consentId, upload.formUpdateToken);
    const field = fileFieldOf(open.version.definition, upload.fieldId);
    if (!field) {
      throw new AppError('VALIDATION_FAILED', `fieldId: is not a file field of this form`);
    }
    const sniffedType = sniffFormFileType(upload.bytes);
    const problem = formFileError(field, { size: upload.bytes.length, sniffedType });
    if (problem !== null) {
      const tooLarge = sniffedType !== null && upload.bytes.length > field.maxBytes;
      throw new AppError(tooLarge ? 'FORM_FILE_TOO_LARGE' : 'FORM_FILE_TYPE_NOT_ALLOWED', problem);
    }
    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(formFiles)
      .where(eq(formFiles.responseId, open.responseId));
    if ((count?.n ?? 0) >= FORM_MAX_FILES_PER_RESPONSE) {
      throw new AppError('FORM_FILE_LIMIT_REACHED');
    }
    const fileId = randomId('ffl');
    const storageKey = newStorageKey(open.responseId, fileId);
    const row = {
      id: fileId,
      responseId: open.responseId,
      fieldId: field.id,
      mediaType: sniffedType ?? 'application/octet-stream',
      size: upload.bytes.length,
      sha256: sha256Hex(upload.bytes),
      fileName: cleanFileName(upload.fileName),
      storageKey,
      createdAt: now,
    };
    await writeStoredFile(dataDir, storageKey, upload.bytes);
    try {
      await tx.insert(formFiles).values(row);
    } catch (error) {
      await removeStoredFile(dataDir, storageKey);
      throw error;
    }
    return {
      formResponseId: open.responseId,
      formUpdateToken: open.updateToken,
      file: fileSummary(row),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The grant, and the merchant's read of the answers

/**
 * What the grant checks (spec §5 "Form Next Step needs all sections complete"): null when the
 * consent asks for no form; the response's id when every section of its form is complete; a
 * FORM_INCOMPLETE AppError (409) otherwise, also when nothing was saved yet.
 */
export async function assertFormCompleteForGrant(
  db: TDb,
  consentId: string,
): Promise<{ formResponseId: string } | null> {
  const consent = await consentFormRow(db, consentId);
  if (!consent.formId) return null;
  if (!consent.formResponseId) throw new AppError('FORM_INCOMPLETE');
  const version = await consentFormVersion(db, consent);
  const saved = await savedSections(db, consent.formResponseId);
  if (!isFormComplete(version.definition, saved)) throw new AppError('FORM_INCOMPLETE');
  return { formResponseId: consent.formResponseId };
}

/** Marks a response submitted with the grant: its answers are final from then. */
export async function markFormResponseSubmitted(
  db: TDb,
  formResponseId: string,
  at: Date,
): Promise<void> {
  await db
    .update(formResponses)
    .set({ submittedAt: at })
    .where(and(eq(formResponses.id, formResponseId), sql`${formResponses.submittedAt} is null`));
}

/**
 * The answers of a response (GET /api/v1/forms/{formId}/responses/{responseId}) for the client
 * that owns the form: labels as the payer read them, files as links that work for
 * FORM_FILE_LINK_TTL_MS.
 */
export async function readFormResponseForMerchant(
  db: TDb,
  publicUrl: string,
  ids: { formId: string; responseId: string; clientId: string },
  now: Date,
): Promise<TMerchantFormResponse['response']> {
  await clientForm(db, ids.formId, ids.clientId);
  const [response] = await db
    .select()
    .from(formResponses)
    .where(and(eq(formResponses.id, ids.responseId), eq(formResponses.formId, ids.formId)));
  if (!response) throw new AppError('NOT_FOUND');
  const version = await versionOf(db, response.formId, response.formVersion);
  const consent = await consentFormRow(db, response.consentId);
  const values = consent.formTemplateValues ?? {};
  const saved = await savedSections(db, response.id);
  const files = await db.select().from(formFiles).where(eq(formFiles.responseId, response.id));
  const filesById = new Map(files.map((f) => [f.id, f]));
  const expiresAt = new Date(now.getTime() + FORM_FILE_LINK_TTL_MS);
  const sections = await Promise.all(
    version.definition.sections.map(async (section) => {
      const answers = saved[section.id] ?? {};
      return {
        id: section.id,
        title: fillPlaceholders(section.title, values),
        complete: checkFormSection(section, answers).complete,
        answers: await Promise.all(
          section.fields
            .filter((f) => answers[f.id] !== undefined)
            .map(async (field) => {
              const value = answers[field.id] ?? null;
              const stored = typeof value === 'string' ? filesById.get(value) : undefined;
              const file =
                field.kind === 'file' && stored
                  ? {
                      ...fileSummary(stored),
                      url: await signedFileLink(db, publicUrl, stored.id, expiresAt),
                      expiresAt: expiresAt.toISOString(),
                    }
                  : undefined;
              return {
                fieldId: field.id,
                label: fillPlaceholders(field.label, values),
                kind: field.kind,
                value,
                ...(file ? { file } : {}),
              };
            }),
        ),
      };
    }),
  );
  return {
    id: response.id,
    formId: response.formId,
    formVersion: response.formVersion,
    consentId: response.consentId,
    submittedAt: iso(response.submittedAt),
    updatedAt: response.updatedAt.toISOString(),
    complete: isFormComplete(version.definition, saved),
    sections,
  };
}

/** The stored file a valid link names, with what it is served as. */
export async function formFileForLink(db: TDb, fileId: string) {
  const [row] = await db.select().from(formFiles).where(eq(formFiles.id, fileId));
  if (!row) throw new AppError('FORM_FILE_LINK_INVALID');
  return row;
}
