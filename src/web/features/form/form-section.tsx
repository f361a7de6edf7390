import { useEffect, useMemo, useRef } from 'react';
import { useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import { checkFormSection } from '../../../domain/forms';
import type {
  TFormAnswers,
  TFormField,
  TFormFileSummary,
  TFormSection,
} from '../../../domain/schemas/form';
import { FormField } from './form-field';
import { sectionAnswers, sectionValues, type TSectionValues } from './form-values';

/** How long typing pauses before the section is saved. */
const SAVE_AFTER_MS = 800;

type TSectionProps = {
  section: TFormSection;
  index: number;
  /** One level below the form's title. */
  titleLevel: 2 | 3;
  saved: TFormAnswers;
  readOnly: boolean;
  files: ReadonlyMap<string, TFormFileSummary>;
  onComplete(sectionId: string, complete: boolean): void;
  onSave(sectionId: string, answers: TFormAnswers): void;
  onUpload(field: TFormField, file: File): Promise<TFormFileSummary>;
};

/** The domain's checks as react-hook-form's resolver: the page and the server judge alike. */
function sectionResolver(section: TFormSection): Resolver<TSectionValues> {
  return (values) => {
    const { errors } = checkFormSection(section, sectionAnswers(section, values));
    const fieldErrors: FieldErrors<TSectionValues> = Object.fromEntries(
      Object.entries(errors).map(([fieldId, message]) => [fieldId, { type: 'validate', message }]),
    );
    return Object.keys(errors).length === 0
      ? { values, errors: {} }
      : { values: {}, errors: fieldErrors };
  };
}

/**
 * One section: its fields in a form of their own, marked 'Completed' once every field passes
 * the domain's check; saved when a field is left and after typing pauses.
 */
export function FormSectionCard({
  section,
  index,
  titleLevel,
  saved,
  readOnly,
  files,
  onComplete,
  onSave,
  onUpload,
}: TSectionProps) {
  const defaultValues = useMemo(() => sectionValues(section, saved), [section, saved]);
  const resolver = useMemo(() => sectionResolver(section), [section]);
  const { control, getValues } = useForm<TSectionValues>({
    defaultValues,
    resolver,
    mode: 'onTouched',
  });
  const values = useWatch({ control });
  const complete = checkFormSection(
    section,
    sectionAnswers(section, { ...defaultValues, ...values }),
  ).complete;
  const titleId = `form-section-${section.id}`;
  const Title = titleLevel === 2 ? 'h2' : 'h3';

  useEffect(() => onComplete(section.id, complete), [onComplete, section.id, complete]);

  const lastSaved = useRef(JSON.stringify(sectionAnswers(section, defaultValues)));
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const save = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (readOnly) return;
    const answers = sectionAnswers(section, getValues());
    const text = JSON.stringify(answers);
    if (text === lastSaved.current) return;
    lastSaved.current = text;
    onSave(section.id, answers);
  };
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });
  useEffect(() => {
    if (readOnly) return;
    const handle = setTimeout(() => saveRef.current(), SAVE_AFTER_MS);
    timer.current = handle;
    return () => clearTimeout(handle);
  }, [values, readOnly]);
  // Leaving the page mid-pause still saves what was typed.
  useEffect(() => () => saveRef.current(), []);

  return (
    <section
      className={complete ? 'form-section complete' : 'form-section'}
      aria-labelledby={titleId}
    >
      <header className="form-section-header">
        <Title id={titleId}>
          <span className="form-section-number" aria-hidden="true">
            {complete ? '✓' : index + 1}
          </span>
          {section.title}
        </Title>
        <span className={complete ? 'badge done' : 'badge'}>
          {complete ? 'Completed' : 'Pending'}
        </span>
      </header>
      {section.description ? (
        <p className="form-section-description">{section.description}</p>
      ) : null}
      <form noValidate onSubmit={(event) => event.preventDefault()}>
        <fieldset disabled={readOnly} className="form-fields">
          <legend className="visually-hidden">{section.title}</legend>
          {section.fields.map((field) => (
            <FormField
              key={field.id}
              field={field}
              idPrefix={titleId}
              control={control}
              files={files}
              onUpload={onUpload}
              onLeave={save}
            />
          ))}
        </fieldset>
      </form>
    </section>
  );
}
