/*
 * Forms (docs/forms.md): a merchant's forms and their versions, the payer's response to the
 * form of a consent (answers saved section by section) and the files uploaded into it. A form
 * is never edited in place: a change is a new version, and a response keeps the version it
 * was started on.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import type { TFormAnswers, TFormDefinition } from '../../../domain/schemas/form';
import { apiClients, consents, merchants } from './consents';

const at = (name: string) => timestamp(name, { withTimezone: true });

/** A merchant's form; its content lives in its versions. */
export const forms = pgTable(
  'forms',
  {
    id: text('id').primaryKey(),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    /** The API client that created it; only that client reads its responses. */
    clientId: text('client_id')
      .notNull()
      .references(() => apiClients.clientId),
    /** The newest version: new consents are shown it. */
    latestVersion: integer('latest_version').notNull().default(1),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('forms_client').on(t.clientId)],
);

/** One version of a form: its whole definition, as the domain schema parsed it. Never updated. */
export const formVersions = pgTable(
  'form_versions',
  {
    formId: text('form_id')
      .notNull()
      .references(() => forms.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    definition: jsonb('definition').$type<TFormDefinition>().notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.formId, t.version] }),
    check('form_versions_version_positive', sql`${t.version} >= 1`),
  ],
);

/**
 * A payer's response to the form of one consent (spec §3 formResponseId). The consent row
 * carries its id and the update token the page saves with.
 */
export const formResponses = pgTable(
  'form_responses',
  {
    id: text('id').primaryKey(),
    consentId: text('consent_id')
      .notNull()
      .unique()
      .references(() => consents.id, { onDelete: 'cascade' }),
    formId: text('form_id').notNull(),
    formVersion: integer('form_version').notNull(),
    /** Set when the consent is granted with this response; the answers are final from then. */
    submittedAt: at('submitted_at'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'form_responses_version_fk',
      columns: [t.formId, t.formVersion],
      foreignColumns: [formVersions.formId, formVersions.version],
    }),
  ],
);

/** The answers of one section of a response, saved as the payer leaves it. */
export const formResponseSections = pgTable(
  'form_response_sections',
  {
    responseId: text('response_id')
      .notNull()
      .references(() => formResponses.id, { onDelete: 'cascade' }),
    sectionId: text('section_id').notNull(),
    /** Field id → answer; a file field's answer is the id of its uploaded file. */
    answers: jsonb('answers').$type<TFormAnswers>().notNull(),
    /** Every required field of the section holds a valid answer (the domain's rule). */
    complete: boolean('complete').notNull(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.responseId, t.sectionId] })],
);

/** A file uploaded into a response: stored under DATA_DIR by its storage key, typed by content. */
export const formFiles = pgTable(
  'form_files',
  {
    id: text('id').primaryKey(),
    responseId: text('response_id')
      .notNull()
      .references(() => formResponses.id, { onDelete: 'cascade' }),
    fieldId: text('field_id').notNull(),
    /** The media type read from the file's first bytes, never the one the browser claimed. */
    mediaType: text('media_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    /** The name the payer's device gave it, cleaned; shown, never used as a path. */
    fileName: text('file_name').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('form_files_response').on(t.responseId)],
);
