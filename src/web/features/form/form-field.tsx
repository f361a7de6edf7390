import { useState, type ChangeEvent } from 'react';
import { useController, type Control } from 'react-hook-form';
import {
  FORM_FILE_SNIFF_BYTES,
  formFileError,
  formFileHint,
  sniffFormFileType,
} from '../../../domain/forms';
import type { TFormField, TFormFileSummary } from '../../../domain/schemas/form';
import {
  agreementField,
  fileField,
  multipleChoiceField,
  singleChoiceField,
  textField,
  type TFieldParts,
  type TFileField,
} from './form-field-inputs';
import type { TSectionValues } from './form-values';

export type TFieldProps = {
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

/** One field of a section: its label, help and error tied to the input (aria-describedby). */
export function FormField({ field, idPrefix, control, files, onUpload, onLeave }: TFieldProps) {
  const {
    field: { value, onChange, onBlur, name, ref: inputRef },
    fieldState,
  } = useController({ name: field.id, control });
  const upload = useFieldUpload(onUpload, (uploaded) => {
    onChange(uploaded.id);
    onBlur();
    onLeave();
  });
  const id = `${idPrefix}-${field.id}`;
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const shownError =
    upload.uploadError ?? (fieldState.isTouched ? fieldState.error?.message : undefined);
  const help =
    field.kind === 'file'
      ? [field.help, formFileHint(field)].filter(Boolean).join('. ')
      : field.help;
  const parts: TFieldParts = {
    id,
    name,
    value,
    onChange,
    inputRef,
    describedBy:
      [help ? helpId : null, shownError ? errorId : null].filter(Boolean).join(' ') || undefined,
    invalid: shownError ? true : undefined,
    label: (
      <>
        {field.label}
        {field.required ? <span className="form-required"> (required)</span> : null}
      </>
    ),
    helpText: help ? (
      <p id={helpId} className="form-help">
        {help}
      </p>
    ) : null,
    errorText: shownError ? (
      <p id={errorId} className="form-error">
        {shownError}
      </p>
    ) : null,
    leave() {
      onBlur();
      onLeave();
    },
  };

  if (field.kind === 'single_choice' || (field.kind === 'agreement' && !field.mustAgree)) {
    return singleChoiceField(field, parts);
  }
  if (field.kind === 'multiple_choice') return multipleChoiceField(field, parts);
  if (field.kind === 'agreement') return agreementField(parts);
  if (field.kind === 'file') return fileField(field, parts, upload, files);
  return textField(field, parts);
}

/** A file chosen: checked by its size and first bytes, then uploaded; what went wrong, if anything. */
function useFieldUpload(
  onUpload: TFieldProps['onUpload'],
  onUploaded: (uploaded: TFormFileSummary) => void,
) {
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const choose = async (field: TFileField, event: ChangeEvent<HTMLInputElement>) => {
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
      onUploaded(await onUpload(field, file));
    } catch (error) {
      setUploadError(error instanceof Error ? error.message : 'The file could not be uploaded');
    } finally {
      setUploading(false);
    }
  };
  return { uploadError, uploading, choose };
}
