import { isPrintableText } from './schemas/fields';
import { toNigerianE164 } from './schemas/auth';
import { FORM_DESCRIPTION_MAX, FORM_HELP_MAX, FORM_LABEL_MAX } from './schemas/form';
import type {
  TFormAnswer,
  TFormAnswers,
  TFormDefinition,
  TFormField,
  TFormFileType,
  TFormSection,
} from './schemas/form';

/*
 * The rules of a form (spec §2 Form step, §5): what fills a placeholder, what makes an answer valid
 * for its field, when a section and a form are complete. The page checks answers with these as the
 * payer types; the server checks them again when it saves and at the grant.
 */

// ---------------------------------------------------------------------------------------------
// Placeholders: {{name}} in a title, label, help text, description or option label

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The texts of a definition a payer reads, in order. */
function formTexts(form: TFormDefinition): string[] {
  return [
    form.title,
    form.description ?? '',
    ...form.sections.flatMap((s) => [
      s.title,
      s.description ?? '',
      ...s.fields.flatMap((f) => [
        f.label,
        f.help ?? '',
        ...('options' in f ? f.options.map((o) => o.label) : []),
      ]),
    ]),
  ];
}

/** The placeholder names a definition uses, each once, in order of first use. */
export function formPlaceholders(form: TFormDefinition): string[] {
  const names = formTexts(form).flatMap((text) =>
    [...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ''),
  );
  return [...new Set(names)];
}

/**
 * A text with its placeholders filled from the consent's formCompletion.templateLiteralValues.
 * For the payer ('payer') an unknown placeholder is left out, never shown as raw braces; in the
 * merchant's preview ('preview') it stays as written, so the merchant sees what is missing.
 */
export function fillPlaceholders(
  text: string,
  values: Readonly<Record<string, string>>,
  audience: 'payer' | 'preview' = 'payer',
): string {
  const filled = text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value !== undefined) return value;
    return audience === 'preview' ? whole : '';
  });
  if (audience === 'preview') return filled;
  // Leaving a placeholder out may leave a double space or a space before punctuation.
  return filled
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/ +([,.;:!?])/g, '$1')
    .trim();
}

/** 'memberName' → 'Member name': what a text made only of unknown placeholders shows. */
function placeholderWords(text: string): string {
  const words = [...text.matchAll(PLACEHOLDER)]
    .map((m) => (m[1] ?? '').replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2'))
    .join(' ')
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A filled text kept within what its place in the definition allows: printable, not empty (a
 * text that was only unknown placeholders reads as their names), at most `max` characters.
 */
function fitText(filled: string, original: string, max: number): string {
  const printable = [...filled]
    .filter((c) => isPrintableText(c))
    .join('')
    .trim();
  const text = printable === '' ? placeholderWords(original) || '…' : printable;
  return text.length > max ? `${cutWhole(text, max - 1)}…` : text;
}

/** The first `length` UTF-16 units of a text, less the first half of a pair cut in two. */
export function cutWhole(text: string, length: number): string {
  const cut = text.slice(0, length);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** A definition with every text filled for one audience (see fillPlaceholders). */
export function fillFormPlaceholders(
  form: TFormDefinition,
  values: Readonly<Record<string, string>>,
  audience: 'payer' | 'preview' = 'payer',
): TFormDefinition {
  const fill = (text: string, max: number) =>
    fitText(fillPlaceholders(text, values, audience), text, max);
  const fillOptional = (text: string | undefined, max: number) =>
    text === undefined ? undefined : fill(text, max);
  return {
    ...form,
    title: fill(form.title, FORM_LABEL_MAX),
    description: fillOptional(form.description, FORM_DESCRIPTION_MAX),
    sections: form.sections.map((section) => ({
      ...section,
      title: fill(section.title, FORM_LABEL_MAX),
      description: fillOptional(section.description, FORM_DESCRIPTION_MAX),
      fields: section.fields.map((field): TFormField => {
        const base = {
          ...field,
          label: fill(field.label, FORM_LABEL_MAX),
          help: fillOptional(field.help, FORM_HELP_MAX),
        };
        if (base.kind === 'single_choice' || base.kind === 'multiple_choice') {
          const options = base.options.map((o) => ({ ...o, label: fill(o.label, FORM_LABEL_MAX) }));
          return { ...base, options };
        }
        return base;
      }),
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Answers

/** Whether an answer is missing: nothing, blank text or no choice. 'No' (false) is an answer. */
export function isEmptyAnswer(value: TFormAnswer | undefined): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether 'YYYY-MM-DD' names a day that exists (no 30 February). */
export function isCalendarDate(value: string): boolean {
  const m = CALENDAR_DATE.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

export const FORM_REQUIRED_MESSAGE = 'This field is required';
export const FORM_MUST_AGREE_MESSAGE = 'You must agree to continue';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function textError(
  field: { minLength?: number | undefined; maxLength: number },
  value: string,
): string | null {
  if (!isPrintableText(value)) return 'Use letters, digits and punctuation only';
  const length = value.trim().length;
  if (field.minLength !== undefined && length < field.minLength) {
    return `Enter at least ${plural(field.minLength, 'character')}`;
  }
  if (value.length > field.maxLength)
    return `Enter at most ${plural(field.maxLength, 'character')}`;
  return null;
}

function numberError(
  field: Extract<TFormField, { kind: 'number' }>,
  value: TFormAnswer,
): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'Enter a number';
  if (field.integer && !Number.isInteger(value)) return 'Enter a whole number';
  if (field.min !== undefined && value < field.min)
    return `Enter a number of at least ${field.min}`;
  if (field.max !== undefined && value > field.max) return `Enter a number of at most ${field.max}`;
  return null;
}

function dateError(field: Extract<TFormField, { kind: 'date' }>, value: string): string | null {
  if (!isCalendarDate(value)) return 'Enter a date';
  // ISO calendar dates compare as text.
  if (field.min !== undefined && value < field.min) return `Enter a date on or after ${field.min}`;
  if (field.max !== undefined && value > field.max) return `Enter a date on or before ${field.max}`;
  return null;
}

function multipleChoiceError(
  field: Extract<TFormField, { kind: 'multiple_choice' }>,
  value: TFormAnswer,
): string | null {
  if (!Array.isArray(value)) return 'Choose from the options';
  const known = new Set(field.options.map((o) => o.value));
  if (!value.every((v) => known.has(v)) || new Set(value).size !== value.length) {
    return 'Choose from the options';
  }
  if (field.minSelected !== undefined && value.length < field.minSelected) {
    return `Choose at least ${plural(field.minSelected, 'option')}`;
  }
  if (field.maxSelected !== undefined && value.length > field.maxSelected) {
    return `Choose at most ${plural(field.maxSelected, 'option')}`;
  }
  return null;
}

/** The check of a present answer against its field's kind, or null when it passes. */
function presentAnswerError(field: TFormField, value: TFormAnswer): string | null {
  switch (field.kind) {
    case 'short_text':
    case 'long_text':
      return typeof value === 'string' ? textError(field, value) : 'Enter text';
    case 'number':
      return numberError(field, value);
    case 'email':
      return typeof value === 'string' && EMAIL.test(value.trim()) && value.length <= 254
        ? null
        : 'Enter a valid email address';
    case 'phone':
      return typeof value === 'string' && toNigerianE164(value) !== null
        ? null
        : 'Enter a Nigerian mobile number, e.g. 0803 123 4567';
    case 'date':
      return typeof value === 'string' ? dateError(field, value) : 'Enter a date';
    case 'single_choice':
      return typeof value === 'string' && field.options.some((o) => o.value === value)
        ? null
        : 'Choose one of the options';
    case 'multiple_choice':
      return multipleChoiceError(field, value);
    case 'agreement':
      if (typeof value !== 'boolean') return 'Answer yes or no';
      return field.mustAgree && !value ? FORM_MUST_AGREE_MESSAGE : null;
    case 'file':
      return typeof value === 'string' ? null : 'Upload a file';
  }
}

/**
 * The message of the first check an answer fails for its field, or null when it is valid. A
 * missing answer fails only a required field; a signature-style agreement needs 'yes'.
 */
export function formFieldError(field: TFormField, value: TFormAnswer | undefined): string | null {
  if (isEmptyAnswer(value)) return field.required ? FORM_REQUIRED_MESSAGE : null;
  return presentAnswerError(field, value ?? null);
}

export type TSectionCheck = {
  /** Every field's answer is valid (so every required field is answered). */
  complete: boolean;
  /** Field id → the message of the check its answer fails. */
  errors: Record<string, string>;
};

/** A section's answers checked field by field: complete when no field fails (spec §5). */
export function checkFormSection(
  section: TFormSection,
  answers: Readonly<TFormAnswers>,
): TSectionCheck {
  const errors: Record<string, string> = {};
  for (const field of section.fields) {
    const value = Object.hasOwn(answers, field.id) ? answers[field.id] : undefined;
    const error = formFieldError(field, value);
    if (error !== null) errors[field.id] = error;
  }
  return { complete: Object.keys(errors).length === 0, errors };
}

/** The answer keys that name no field of the section, in order. */
export function unknownAnswerKeys(
  section: TFormSection,
  answers: Readonly<TFormAnswers>,
): string[] {
  const ids = new Set(section.fields.map((f) => f.id));
  return Object.keys(answers).filter((key) => !ids.has(key));
}

/** The ids of the sections whose answers are complete, in the form's order. */
export function completedFormSections(
  form: TFormDefinition,
  answersBySection: Readonly<Record<string, TFormAnswers>>,
): string[] {
  return form.sections
    .filter((s) => checkFormSection(s, answersBySection[s.id] ?? {}).complete)
    .map((s) => s.id);
}

/** Whether every section is complete: the Form step's 'Next Step' needs it (spec §5). */
export function isFormComplete(
  form: TFormDefinition,
  answersBySection: Readonly<Record<string, TFormAnswers>>,
): boolean {
  return completedFormSections(form, answersBySection).length === form.sections.length;
}

/** The Form step's status line (spec §2). */
export function formStepStatusText(allComplete: boolean): string {
  return allComplete
    ? 'All sections completed! Ready to continue.'
    : 'Complete all form sections to continue.';
}

export type TFormStepFooter = {
  /** The status line, or null when there is none. */
  status: string | null;
  /** 'Next Step': shown (enabled only when every section is complete), or not at all. */
  nextStep: { enabled: boolean } | null;
};

/**
 * The Form step's footer (spec §2): the status line and 'Next Step', enabled only when every
 * section is complete. Public mode is read-only ("Public mode is read-only and can show a form
 * by formId"): nothing can be completed there, so it has neither. The flow may answer the step
 * itself ('Consent' / 'Decline'), and then 'Next Step' gives way.
 */
export function formStepFooter(input: {
  publicView: boolean;
  allComplete: boolean;
  showNextStep: boolean;
}): TFormStepFooter {
  if (input.publicView) return { status: null, nextStep: null };
  return {
    status: formStepStatusText(input.allComplete),
    nextStep: input.showNextStep ? { enabled: input.allComplete } : null,
  };
}

/** The file ids a section's answers hold for its file fields. */
export function sectionFileIds(section: TFormSection, answers: Readonly<TFormAnswers>): string[] {
  return section.fields.flatMap((f) => {
    const value = answers[f.id];
    return f.kind === 'file' && typeof value === 'string' && value !== '' ? [value] : [];
  });
}

// ---------------------------------------------------------------------------------------------
// Files: told apart by their first bytes, never by their name or the type a browser claims

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

/** The media type a file's first bytes show (JPEG, PNG, WebP or PDF), or null for any other. */
export function sniffFormFileType(bytes: Uint8Array): TFormFileType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  // RIFF....WEBP
  if (
    startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) &&
    startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)
  ) {
    return 'image/webp';
  }
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf'; // %PDF-
  return null;
}

/** How many first bytes sniffFormFileType reads. */
export const FORM_FILE_SNIFF_BYTES = 12;

/** '2.5 MB', '300 KB': a file size limit as a payer reads it. */
export function formatFileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** What the file picker says a field accepts: 'JPEG, PNG or PDF, up to 5 MB'. */
export function formFileHint(field: Extract<TFormField, { kind: 'file' }>): string {
  const names = field.accept.map((t) => FILE_TYPE_NAMES[t]);
  const list =
    names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1) ?? ''}`;
  return `${list ?? ''}, up to ${formatFileSize(field.maxBytes)}`;
}

const FILE_TYPE_NAMES: Record<TFormFileType, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'application/pdf': 'PDF',
};

/**
 * Why a file cannot go into a field, or null when it can: its content must be one of the
 * field's types and its size within the field's limit.
 */
export function formFileError(
  field: Extract<TFormField, { kind: 'file' }>,
  file: { size: number; sniffedType: TFormFileType | null },
): string | null {
  if (file.size === 0) return 'The file is empty';
  if (file.sniffedType === null || !field.accept.includes(file.sniffedType)) {
    return `Upload ${formFileHint(field)}`;
  }
  if (file.size > field.maxBytes)
    return `The file is larger than ${formatFileSize(field.maxBytes)}`;
  return null;
}
