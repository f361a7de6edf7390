import { useState, type ChangeEvent } from 'react';
import { useController, type Control } from 'react-hook-form';
import {
  FORM_FILE_SNIFF_BYTES,
  formFileError,
  formFileHint,
  sniffFormFileType,
} from '../../../domain/forms';
import type { TFormField, TFormFileSummary } from '../../../domain/schemas/form';
import type { TSectionValues } from './form-values';

type TFieldProps = {
  field: TFormField;
  /** Prefix of the element ids of this section. */
  idPrefix: string;
  control: Control<TSectionValues>;
  /** The file a file field holds, when one was uploaded. */
  files: ReadonlyMap<string, TFormFileSummary>;
  onUpload(field: TFormField, file: File): Promise<TFormFileSummary>;
  /** A field left: its section is saved. */
  onLeave(): void;
};

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

/** One field of a section: its label, help and error tied to the input (aria-describedby). */
export function FormField({ field, idPrefix, control, files, onUpload, onLeave }: TFieldProps) {
  const {
    field: { value, onChange, onBlur, name, ref: inputRef },
    fieldState,
  } = useController({ name: field.id, control });
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const id = `${idPrefix}-${field.id}`;
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const shownError = uploadError ?? (fieldState.isTouched ? fieldState.error?.message : undefined);
  const help =
    field.kind === 'file'
      ? [field.help, formFileHint(field)].filter(Boolean).join('. ')
      : field.help;
  const describedBy =
    [help ? helpId : null, shownError ? errorId : null].filter(Boolean).join(' ') || undefined;
  const invalid = shownError ? true : undefined;
  const label = (
    <>
      {field.label}
      {field.required ? <span className="form-required"> (required)</span> : null}
    </>
  );
  const helpText = help ? (
    <p id={helpId} className="form-help">
      {help}
    </p>
  ) : null;
  const errorText = shownError ? (
    <p id={errorId} className="form-error">
      {shownError}
    </p>
  ) : null;
  const leave = () => {
    onBlur();
    onLeave();
  };

  if (field.kind === 'single_choice' || (field.kind === 'agreement' && !field.mustAgree)) {
    const options =
      field.kind === 'single_choice'
        ? field.options
        : [
            { value: 'yes', label: 'Yes' },
            { value: 'no', label: 'No' },
          ];
    return (
      <fieldset
        className="form-field form-choices"
        aria-describedby={describedBy}
        aria-invalid={invalid}
      >
        <legend>{label}</legend>
        {helpText}
        <div className={field.kind === 'agreement' ? 'form-options inline' : 'form-options'}>
          {options.map((option) => (
            <label key={option.value} className="form-option">
              <input
                type="radio"
                name={name}
                value={option.value}
                checked={value === option.value}
                onChange={() => onChange(option.value)}
                onBlur={leave}
                ref={option === options[0] ? inputRef : undefined}
              />
              {option.label}
            </label>
          ))}
        </div>
        {errorText}
      </fieldset>
    );
  }

  if (field.kind === 'multiple_choice') {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset
        className="form-field form-choices"
        aria-describedby={describedBy}
        aria-invalid={invalid}
      >
        <legend>{label}</legend>
        {helpText}
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
                onBlur={leave}
              />
              {option.label}
            </label>
          ))}
        </div>
        {errorText}
      </fieldset>
    );
  }

  if (field.kind === 'agreement') {
    return (
      <div className="form-field">
        <label className="form-option form-agreement">
          <input
            id={id}
            type="checkbox"
            name={name}
            checked={value === true}
            onChange={(event) => onChange(event.target.checked)}
            onBlur={leave}
            ref={inputRef}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
          <span>{label}</span>
        </label>
        {helpText}
        {errorText}
      </div>
    );
  }

  if (field.kind === 'file') {
    const held = typeof value === 'string' ? files.get(value) : undefined;
    const choose = async (event: ChangeEvent<HTMLInputElement>) => {
      const file = event.target.files?.[0];
      event.target.value = '';
      if (!file) return;
      const head = new Uint8Array(await file.slice(0, FORM_FILE_SNIFF_BYTES).arrayBuffer());
      const problem = formFileError(field, {
        size: file.size,
        sniffedType: sniffFormFileType(head),
      });
      if (problem) {
        setUploadError(problem);
        return;
      }
      setUploadError(null);
      setUploading(true);
      try {
        const uploaded = await onUpload(field, file);
        onChange(uploaded.id);
        onBlur();
        onLeave();
      } catch (error) {
        setUploadError(error instanceof Error ? error.message : 'The file could not be uploaded');
      } finally {
        setUploading(false);
      }
    };
    return (
      <div className="form-field">
        <label htmlFor={id}>{label}</label>
        {helpText}
        <input
          id={id}
          type="file"
          className="form-file"
          accept={field.accept.join(',')}
          onChange={(event) => void choose(event)}
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
        {errorText}
      </div>
    );
  }

  const common = {
    id,
    name: name,
    value: typeof value === 'string' ? value : '',
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      onChange(event.target.value),
    onBlur: leave,
    ref: inputRef,
    'aria-describedby': describedBy,
    'aria-invalid': invalid,
    'aria-required': field.required || undefined,
  };
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      {helpText}
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
      {errorText}
    </div>
  );
}
