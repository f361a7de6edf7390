import { z } from 'zod/mini';
import { ZIdentifier, ZStorable, ZText } from './fields';

/*
 * Forms (docs/forms.md): a merchant's form definition, the answers a payer gives, and the calls
 * that carry them. The rules that judge an answer live in ../forms.ts.
 */

// ---------------------------------------------------------------------------------------------
// Limits: a form is something a person fills in on a phone.

export const FORM_MAX_SECTIONS = 20;
export const FORM_MAX_FIELDS_PER_SECTION = 50;
/** A form of more fields is refused: no payer completes it, and it would weigh on every read. */
export const FORM_MAX_FIELDS = 200;
export const FORM_MAX_CHOICE_OPTIONS = 50;
/** Longest title, label or option label; help text; form or section description. */
export const FORM_LABEL_MAX = 300;
export const FORM_HELP_MAX = 1_000;
export const FORM_DESCRIPTION_MAX = 2_000;
export const FORM_SHORT_TEXT_MAX = 500;
export const FORM_LONG_TEXT_MAX = 5_000;
/** Largest file any file field accepts; a field may ask for less. */
export const FORM_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const FORM_FILE_DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
/** Highest version number a call may name: far more than any form gets, and inside the
 * database's integer column (2^31 - 1), which a larger number would make fail. */
export const FORM_MAX_VERSION = 1_000_000;
/** The media types a file field may accept, told apart by their content (images and PDF). */
export const FORM_FILE_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'application/pdf',
] as const;
export type TFormFileType = (typeof FORM_FILE_TYPES)[number];
/** How long a merchant's link to an uploaded file works. */
export const FORM_FILE_LINK_TTL_MS = 5 * 60_000;

export const FORM_FIELD_KINDS = [
  'short_text',
  'long_text',
  'number',
  'email',
  'phone',
  'date',
  'single_choice',
  'multiple_choice',
  'agreement',
  'file',
] as const;
export type TFormFieldKind = (typeof FORM_FIELD_KINDS)[number];

// ---------------------------------------------------------------------------------------------
// The definition

/** A section or field id: the key its answers are stored under. */
export const ZFormKey = z
  .string()
  .check(
    z.regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'must start with a letter: letters, digits, _ and -'),
  );

/** Text a payer reads: may hold {{name}} placeholders filled from the consent. */
const ZLabel = ZText(FORM_LABEL_MAX);
const ZHelp = z.optional(ZText(FORM_HELP_MAX));
/** A calendar date, YYYY-MM-DD. */
export const ZCalendarDate = z.iso.date();

const fieldBase = {
  id: ZFormKey,
  label: ZLabel,
  help: ZHelp,
  required: z._default(z.boolean(), false),
};

const ZChoiceOption = z.object({ value: ZFormKey, label: ZLabel });

const uniqueOptions = (options: Array<{ value: string }>) =>
  new Set(options.map((o) => o.value)).size === options.length;

const ZTextField = <K extends 'short_text' | 'long_text'>(kind: K, cap: number) =>
  z
    .strictObject({
      ...fieldBase,
      kind: z.literal(kind),
      minLength: z.optional(z.number().check(z.int(), z.gte(0), z.lte(cap))),
      maxLength: z._default(z.number().check(z.int(), z.gte(1), z.lte(cap)), cap),
    })
    .check(
      z.refine((f) => f.minLength === undefined || f.minLength <= f.maxLength, {
        message: 'must not be more than maxLength',
        path: ['minLength'],
      }),
    );

const ZNumberField = z
  .strictObject({
    ...fieldBase,
    kind: z.literal('number'),
    min: z.optional(z.number()),
    max: z.optional(z.number()),
    integer: z._default(z.boolean(), false),
  })
  .check(
    z.refine((f) => f.min === undefined || f.max === undefined || f.min <= f.max, {
      message: 'must not be more than max',
      path: ['min'],
    }),
  );

const ZDateField = z
  .strictObject({
    ...fieldBase,
    kind: z.literal('date'),
    min: z.optional(ZCalendarDate),
    max: z.optional(ZCalendarDate),
  })
  .check(
    z.refine((f) => !f.min || !f.max || f.min <= f.max, {
      message: 'must not be after max',
      path: ['min'],
    }),
  );

const ZChoiceOptions = z
  .array(ZChoiceOption)
  .check(
    z.minLength(2),
    z.maxLength(FORM_MAX_CHOICE_OPTIONS),
    z.refine(uniqueOptions, 'option values must be unique'),
  );

const ZSingleChoiceField = z.strictObject({
  ...fieldBase,
  kind: z.literal('single_choice'),
  options: ZChoiceOptions,
});

const ZMultipleChoiceField = z
  .strictObject({
    ...fieldBase,
    kind: z.literal('multiple_choice'),
    options: ZChoiceOptions,
    minSelected: z.optional(z.number().check(z.int(), z.gte(0))),
    maxSelected: z.optional(z.number().check(z.int(), z.gte(1))),
  })
  .check(
    z.refine((f) => f.maxSelected === undefined || f.maxSelected <= f.options.length, {
      message: 'must not be more than the number of options',
      path: ['maxSelected'],
    }),
    z.refine(
      (f) =>
        f.minSelected === undefined ||
        f.maxSelected === undefined ||
        f.minSelected <= f.maxSelected,
      { message: 'must not be more than maxSelected', path: ['minSelected'] },
    ),
  );

/**
 * A yes/no question. With `mustAgree` it is a signature-style agreement: only 'yes' answers it
 * (and `required` makes the payer give it before the section is complete).
 */
const ZAgreementField = z.strictObject({
  ...fieldBase,
  kind: z.literal('agreement'),
  mustAgree: z._default(z.boolean(), false),
});

const ZFileField = z.strictObject({
  ...fieldBase,
  kind: z.literal('file'),
  accept: z._default(z.array(z.enum(FORM_FILE_TYPES)).check(z.minLength(1)), [...FORM_FILE_TYPES]),
  maxBytes: z._default(
    z.number().check(z.int(), z.gte(1), z.lte(FORM_FILE_MAX_BYTES)),
    FORM_FILE_DEFAULT_MAX_BYTES,
  ),
});

const ZPlainField = <K extends 'email' | 'phone'>(kind: K) =>
  z.strictObject({ ...fieldBase, kind: z.literal(kind) });

export const ZFormField = z.discriminatedUnion('kind', [
  ZTextField('short_text', FORM_SHORT_TEXT_MAX),
  ZTextField('long_text', FORM_LONG_TEXT_MAX),
  ZNumberField,
  ZPlainField('email'),
  ZPlainField('phone'),
  ZDateField,
  ZSingleChoiceField,
  ZMultipleChoiceField,
  ZAgreementField,
  ZFileField,
]);
export type TFormField = z.infer<typeof ZFormField>;
export type TFormFieldInput = z.input<typeof ZFormField>;

export const ZFormSection = z.strictObject({
  id: ZFormKey,
  title: ZLabel,
  description: z.optional(ZText(FORM_DESCRIPTION_MAX)),
  fields: z.array(ZFormField).check(z.minLength(1), z.maxLength(FORM_MAX_FIELDS_PER_SECTION)),
});
export type TFormSection = z.infer<typeof ZFormSection>;

/** Where the first repeated id sits in a list, as a zod issue path; null when all differ. */
function firstRepeat(ids: string[]): number | null {
  const seen = new Set<string>();
  for (const [index, id] of ids.entries()) {
    if (seen.has(id)) return index;
    seen.add(id);
  }
  return null;
}

/** A form's definition: a title and ordered sections of fields. */
export const ZFormDefinition = z
  .strictObject({
    title: ZLabel,
    description: z.optional(ZText(FORM_DESCRIPTION_MAX)),
    sections: z.array(ZFormSection).check(z.minLength(1), z.maxLength(FORM_MAX_SECTIONS)),
  })
  .check(
    z.superRefine((form, ctx) => {
      const total = form.sections.reduce((n, s) => n + s.fields.length, 0);
      if (total > FORM_MAX_FIELDS) {
        ctx.addIssue({
          code: 'custom',
          path: ['sections'],
          message: `a form holds at most ${FORM_MAX_FIELDS} fields (this one has ${total})`,
        });
      }
      const sectionRepeat = firstRepeat(form.sections.map((s) => s.id));
      if (sectionRepeat !== null) {
        ctx.addIssue({
          code: 'custom',
          path: ['sections', sectionRepeat, 'id'],
          message: 'section ids must be unique',
        });
      }
      const fields = form.sections.flatMap((s, si) =>
        s.fields.map((f, fi) => ({ id: f.id, si, fi })),
      );
      const fieldRepeat = firstRepeat(fields.map((f) => f.id));
      if (fieldRepeat !== null) {
        const at = fields[fieldRepeat];
        ctx.addIssue({
          code: 'custom',
          path: ['sections', at?.si ?? 0, 'fields', at?.fi ?? 0, 'id'],
          message: 'field ids must be unique across the form',
        });
      }
    }),
  );
export type TFormDefinition = z.infer<typeof ZFormDefinition>;
export type TFormDefinitionInput = z.input<typeof ZFormDefinition>;

// ---------------------------------------------------------------------------------------------
// Answers

/**
 * One answer: text (short/long text, email, phone, date, single choice, a file's id), a
 * number, a yes/no (true/false), or the values of a multiple choice. null clears it. Answers
 * are kept as sent, those that fail their field's check too, so text the database cannot keep
 * is refused here (400 naming the field); the field's check judges the rest (../forms.ts).
 */
export const ZFormAnswer = z.union([
  ZStorable(FORM_LONG_TEXT_MAX),
  z.number(),
  z.boolean(),
  z.array(ZStorable(100)).check(z.maxLength(FORM_MAX_CHOICE_OPTIONS)),
  z.null(),
]);
export type TFormAnswer = z.infer<typeof ZFormAnswer>;

/** A section's answers by field id. */
export const ZFormAnswers = z.record(ZFormKey, ZFormAnswer).check(
  z.refine((a) => Object.keys(a).length <= FORM_MAX_FIELDS_PER_SECTION, {
    message: `at most ${FORM_MAX_FIELDS_PER_SECTION} answers`,
  }),
);
export type TFormAnswers = z.infer<typeof ZFormAnswers>;

// ---------------------------------------------------------------------------------------------
// Calls

/** GET /api/form?formId={formId} query (spec §7), optionally for one consent's version. */
export const ZFormQuery = z.object({
  formId: ZIdentifier,
  consentId: z.optional(ZIdentifier),
  clientId: z.optional(ZIdentifier),
});
export type TFormQuery = z.infer<typeof ZFormQuery>;

/** An uploaded file as the page shows it in its field. */
export const ZFormFileSummary = z.object({
  id: z.string(),
  fieldId: z.string(),
  fileName: z.string(),
  mediaType: z.string(),
  size: z.number().check(z.int()),
});
export type TFormFileSummary = z.infer<typeof ZFormFileSummary>;

/** A response as the payer resumes it: each saved section's answers and completeness. */
export const ZFormResponseState = z.object({
  id: z.string(),
  /** The consent's formUpdateToken, which the next save sends (spec §3). */
  updateToken: z.string(),
  formVersion: z.number().check(z.int()),
  submitted: z.boolean(),
  sections: z.record(z.string(), z.object({ answers: ZFormAnswers, complete: z.boolean() })),
  files: z.array(ZFormFileSummary),
});
export type TFormResponseState = z.infer<typeof ZFormResponseState>;

/**
 * GET /api/form answer (spec §7): `data.form.title` for the Form step, the whole definition with
 * its placeholders filled for the payer, and, for a consent, its saved response (null before
 * the first save).
 */
export const ZFormReadResponse = z.object({
  success: z.literal(true),
  data: z.object({
    form: z.object({
      id: z.string(),
      version: z.number().check(z.int()),
      title: z.string(),
      description: z.optional(z.string()),
      sections: z.array(ZFormSection),
    }),
    response: z.nullable(ZFormResponseState),
  }),
});
export type TFormReadResponse = z.infer<typeof ZFormReadResponse>;

/** PUT /api/form/responses/sections/{sectionId} body: one section's answers. */
export const ZSaveFormSectionRequest = z.strictObject({
  consentId: ZIdentifier,
  clientId: ZIdentifier,
  /** The consent's formUpdateToken (spec §3); absent on the first save, which issues it. */
  formUpdateToken: z.optional(ZIdentifier),
  answers: ZFormAnswers,
});
export type TSaveFormSectionRequest = z.infer<typeof ZSaveFormSectionRequest>;

export const ZSaveFormSectionResponse = z.object({
  success: z.literal(true),
  formResponseId: z.string(),
  formUpdateToken: z.string(),
  section: z.object({
    id: z.string(),
    complete: z.boolean(),
    /** Field id → the message of its check, for answers that fail one. */
    errors: z.record(z.string(), z.string()),
  }),
  allComplete: z.boolean(),
});
export type TSaveFormSectionResponse = z.infer<typeof ZSaveFormSectionResponse>;

/** POST /api/form/files answer: the file, whose id the field's answer then holds. */
export const ZUploadFormFileResponse = z.object({
  success: z.literal(true),
  formResponseId: z.string(),
  formUpdateToken: z.string(),
  file: ZFormFileSummary,
});

/** POST /api/form/files query: where the file goes. The body is the file's bytes. */
export const ZUploadFormFileQuery = z.object({
  consentId: ZIdentifier,
  clientId: ZIdentifier,
  fieldId: ZFormKey,
});
export type TUploadFormFileQuery = z.infer<typeof ZUploadFormFileQuery>;
export type TUploadFormFileResponse = z.infer<typeof ZUploadFormFileResponse>;

// ---------------------------------------------------------------------------------------------
// The merchant's calls

/** GET /api/v1/forms/{formId} answer: a version's definition as written, placeholders and all. */
export const ZMerchantFormRead = z.object({
  success: z.literal(true),
  formId: z.string(),
  version: z.number().check(z.int()),
  latestVersion: z.number().check(z.int()),
  definition: ZFormDefinition,
  placeholders: z.array(z.string()),
});
export type TMerchantFormRead = z.infer<typeof ZMerchantFormRead>;

/** POST /api/v1/forms/{formId}/preview body: the values a consent would carry. */
export const ZFormPreviewRequest = z.strictObject({
  version: z.optional(z.number().check(z.int(), z.gte(1), z.lte(FORM_MAX_VERSION))),
  templateLiteralValues: z._default(z.record(ZFormKey, ZText(300)), {}),
});

/** The preview: texts filled, unknown placeholders left as written and listed. */
export const ZFormPreviewResponse = z.object({
  success: z.literal(true),
  definition: ZFormDefinition,
  missingPlaceholders: z.array(z.string()),
});
export type TFormPreviewResponse = z.infer<typeof ZFormPreviewResponse>;

/** POST /api/v1/forms answer, and POST /api/v1/forms/{formId}/versions. */
export const ZCreateFormResponse = z.object({
  success: z.literal(true),
  formId: z.string(),
  version: z.number().check(z.int()),
  /** The {{name}} placeholders the definition uses: the consent's templateLiteralValues keys. */
  placeholders: z.array(z.string()),
});
export type TCreateFormResponse = z.infer<typeof ZCreateFormResponse>;

/** GET /api/v1/forms/{formId}/responses/{responseId} answer. */
export const ZMerchantFormResponse = z.object({
  success: z.literal(true),
  response: z.object({
    id: z.string(),
    formId: z.string(),
    formVersion: z.number().check(z.int()),
    consentId: z.string(),
    submittedAt: z.nullable(z.string()),
    updatedAt: z.string(),
    complete: z.boolean(),
    sections: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        complete: z.boolean(),
        answers: z.array(
          z.object({
            fieldId: z.string(),
            label: z.string(),
            kind: z.enum(FORM_FIELD_KINDS),
            value: ZFormAnswer,
            /** A file field's file, with a link that works for FORM_FILE_LINK_TTL_MS. */
            file: z.optional(
              z.extend(ZFormFileSummary, { url: z.string(), expiresAt: z.string() }),
            ),
          }),
        ),
      }),
    ),
  }),
});
export type TMerchantFormResponse = z.infer<typeof ZMerchantFormResponse>;
