import type { ChangeEvent, ReactNode, RefCallback } from 'react';
import type { TFormField, TFormFileSummary } from '../../../domain/schemas/form';

const INPUT_TYPES: Partial<Record<TFormField['kind'], string>> = {
  email: 'email',
  phone: 'tel',
  date: 'date',
};
const AUTOCOMPLETE: Partial<Record<TFormField['kind'], string>> = { email: 'email', phone: 'tel' };

const sizeLabel = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
    : `${Math.ceil(bytes / 1024)} KB`;

/** What every kind of field is drawn with: its input's wiring, label, help and error. */
export type TFieldParts = {
  id: string;
  name: string;
  value: unknown;
  onChange(value: unknown): void;
  inputRef: RefCallback<HTMLInputElement | HTMLTextAreaElement>;
  describedBy: string | undefined;
  invalid: true | undefined;
  label: ReactNode;
  helpText: ReactNode;
  errorText: ReactNode;
  /** The field left: it is marked touched and its section saved. */
  leave(): void;
};

/** Options under their legend, the field's help above them and its error below. */
function choiceFieldset(
  { describedBy, invalid, label, helpText, errorText }: TFieldParts,
  options: ReactNode,
): ReactNode {
  return (
    <fieldset
      className="form-field form-choices"
      aria-describedby={describedBy}
      aria-invalid={invalid}
    >
      <legend>{label}</legend>
      {helpText}
      {options}
      {errorText}
    </fieldset>
  );
}

type TChoiceField = Extract<TFormField, { kind: 'single_choice' | 'agreement' }>;

/** One choice among options as radio buttons; an agreement that may be refused is Yes or No. */
export function singleChoiceField(field: TChoiceField, parts: TFieldParts): ReactNode {
  const { name, value, onChange, inputRef } = parts;
  const options =
    field.kind === 'single_choice'
      ? field.options
      : [
          { value: 'yes', label: 'Yes' },
          { value: 'no', label: 'No' },
        ];
  return choiceFieldset(
    parts,
    <div className={field.kind === 'agreement' ? 'form-options inline' : 'form-options'}>
      {options.map((option) => (
        <label key={option.value} className="form-option">
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
            onBlur={parts.leave}
            ref={option === options[0] ? inputRef : undefined}
          />
          {option.label}
        </label>
      ))}
    </div>,
  );
}

/** Any number of options as checkboxes, their values kept as a list. */
export function multipleChoiceField(
  field: Extract<TFormField, { kind: 'multiple_choice' }>,
  parts: TFieldParts,
): ReactNode {
  const { name, value, onChange } = parts;
  const chosen: unknown[] = Array.isArray(value) ? value : [];
  return choiceFieldset(
    parts,
    <div className="form-options">
      {field.options.map((option) => (
        <label key={option.value} className="form-option">
          <input
            type="checkbox"
            name={name}
            value={option.value}
            checked={chosen.includes(option.value)}
            onChange={(event) =>
              onChange(
                event.target.checked
                  ? [...chosen, option.value]
                  : chosen.filter((v) => v !== option.value),
              )
            }
            onBlur={parts.leave}
          />
          {option.label}
        </label>
      ))}
    </div>,
  );
}

/** An agreement the payer must give: one checkbox beside its text. */
export function agreementField(parts: TFieldParts): ReactNode {
  const { id, name, value, onChange, inputRef, describedBy, invalid } = parts;
  return (
    <div className="form-field">
      <label className="form-option form-agreement">
        <input
          id={id}
          type="checkbox"
          name={name}
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
          onBlur={parts.leave}
          ref={inputRef}
          aria-describedby={describedBy}
          aria-invalid={invalid}
        />
        <span>{parts.label}</span>
      </label>
      {parts.helpText}
      {parts.errorText}
    </div>
  );
}

export type TFileField = Extract<TFormField, { kind: 'file' }>;

type TFieldUpload = {
  uploading: boolean;
  choose(field: TFileField, event: ChangeEvent<HTMLInputElement>): Promise<void>;
};

/** A file to upload, and the file it holds once uploaded. */
export function fileField(
  field: TFileField,
  parts: TFieldParts,
  { uploading, choose }: TFieldUpload,
  files: ReadonlyMap<string, TFormFileSummary>,
): ReactNode {
  const { id, value, inputRef, describedBy, invalid } = parts;
  const held = typeof value === 'string' ? files.get(value) : undefined;
  return (
    <div className="form-field">
      <label htmlFor={id}>{parts.label}</label>
      {parts.helpText}
      <input
        id={id}
        type="file"
        className="form-file"
        accept={field.accept.join(',')}
        onChange={(event) => void choose(field, event)}
        ref={inputRef}
        aria-describedby={describedBy}
        aria-invalid={invalid}
      />
      <p className="form-file-state" aria-live="polite">
        {uploading
          ? 'Uploading…'
          : held
            ? `Uploaded: ${held.fileName} (${sizeLabel(held.size)})`
            : value
              ? 'Uploaded'
              : ''}
      </p>
      {parts.errorText}
    </div>
  );
}

/** A text of one line (typed as its kind: email, phone, date, number) or of several. */
export function textField(field: TFormField, parts: TFieldParts): ReactNode {
  const { id, name, value, onChange, inputRef, describedBy, invalid } = parts;
  const common = {
    id,
    name: name,
    value: typeof value === 'string' ? value : '',
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      onChange(event.target.value),
    onBlur: parts.leave,
    ref: inputRef,
    'aria-describedby': describedBy,
    'aria-invalid': invalid,
    'aria-required': field.required || undefined,
  };
  return (
    <div className="form-field">
      <label htmlFor={id}>{parts.label}</label>
      {parts.helpText}
      {field.kind === 'long_text' ? (
        <textarea {...common} rows={4} maxLength={field.maxLength} />
      ) : (
        <input
          {...common}
          type={INPUT_TYPES[field.kind] ?? 'text'}
          inputMode={field.kind === 'number' ? 'decimal' : undefined}
          autoComplete={AUTOCOMPLETE[field.kind]}
          maxLength={field.kind === 'short_text' ? field.maxLength : undefined}
        />
      )}
      {parts.errorText}
    </div>
  );
}
