import type {
  TFormAnswer,
  TFormAnswers,
  TFormField,
  TFormSection,
} from '../../../domain/schemas/form';

/**
 * A section's answers as its inputs hold them, and back: text inputs hold strings (a number as
 * typed), a yes/no question 'yes' / 'no' / '', an agreement to tick a boolean, a multiple
 * choice its values, a file field its file's id ('' for none).
 */
export type TFieldValue = string | boolean | string[];
export type TSectionValues = Record<string, TFieldValue>;

const isTicked = (field: TFormField) => field.kind === 'agreement' && field.mustAgree;

function toValue(field: TFormField, answer: TFormAnswer | undefined): TFieldValue {
  if (isTicked(field)) return answer === true;
  if (field.kind === 'agreement') return answer === true ? 'yes' : answer === false ? 'no' : '';
  if (field.kind === 'multiple_choice') return Array.isArray(answer) ? answer : [];
  if (typeof answer === 'number') return String(answer);
  return typeof answer === 'string' ? answer : '';
}

function toAnswer(field: TFormField, value: TFieldValue | undefined): TFormAnswer {
  if (isTicked(field)) return value === true;
  if (field.kind === 'agreement') return value === 'yes' ? true : value === 'no' ? false : null;
  if (field.kind === 'multiple_choice') return Array.isArray(value) ? value : [];
  if (typeof value !== 'string' || value.trim() === '') return null;
  if (field.kind === 'number') {
    const number = Number(value.trim());
    // What is not a number goes as typed, and fails the number check with its message.
    return Number.isFinite(number) ? number : value;
  }
  return value;
}

export function sectionValues(
  section: TFormSection,
  answers: Readonly<TFormAnswers>,
): TSectionValues {
  return Object.fromEntries(section.fields.map((f) => [f.id, toValue(f, answers[f.id])]));
}

export function sectionAnswers(
  section: TFormSection,
  values: Readonly<Partial<TSectionValues>>,
): TFormAnswers {
  return Object.fromEntries(section.fields.map((f) => [f.id, toAnswer(f, values[f.id])]));
}
