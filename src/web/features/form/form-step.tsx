import { useCallback, useMemo, useState } from 'react';
import { formStepFooter } from '../../../domain/forms';
import type { TFormAnswers, TFormField, TFormFileSummary } from '../../../domain/schemas/form';
import { useFormQuery, type TFormTarget } from '../../api/form-calls';
import type { TFormStepProps } from '../../contracts/consent-slots';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import { FormSectionCard } from './form-section';
import { useFormSaver } from './use-form-saver';
import './form.css';

/**
 * The consent flow's Form step (spec §2): the form's title, its sections each marked complete
 * when its fields pass, the status line, and 'Next Step' only when all are complete. Read-only
 * (public mode), the form and its saved answers alone.
 */
export function FormStep({
  consent,
  clientId,
  readOnly,
  onComplete,
  showNextStep = true,
}: TFormStepProps) {
  if (!consent.formId) return null;
  return (
    <FormView
      target={{ formId: consent.formId, consentId: consent.consentId, clientId }}
      readOnly={readOnly}
      onComplete={onComplete}
      showNextStep={showNextStep}
    />
  );
}

type TFormViewProps = {
  target: TFormTarget;
  readOnly: boolean;
  onComplete(): void;
  /** The title is the page's h1 on a page of its own, an h2 inside the consent flow. */
  titleLevel?: 1 | 2;
  showNextStep?: boolean;
};

/** A form by formId alone (read-only) or for a consent (filled and saved as the payer goes). */
export function FormView({
  target,
  readOnly,
  onComplete,
  titleLevel = 2,
  showNextStep = true,
}: TFormViewProps) {
  const query = useFormQuery(target);
  if (query.isPending) {
    return (
      <div className="form-loading" role="status">
        <Spinner small /> Loading form...
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="form-load-error" role="alert">
        <p>{query.error.message}</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          Try Again
        </Button>
      </div>
    );
  }
  const { form, response } = query.data.data;
  // Without a consent there is nothing to save to: the form can only be looked at.
  const publicView = readOnly || target.consentId === null;
  const locked = publicView || response?.submitted === true;
  return (
    <LoadedForm
      key={`${form.id}:${form.version}`}
      form={form}
      response={response}
      target={target}
      publicView={publicView}
      readOnly={locked}
      onComplete={onComplete}
      titleLevel={titleLevel}
      showNextStep={showNextStep}
    />
  );
}

type TLoaded = NonNullable<ReturnType<typeof useFormQuery>['data']>['data'];

function LoadedForm({
  form,
  response,
  target,
  publicView,
  readOnly,
  onComplete,
  titleLevel = 2,
  showNextStep = true,
}: TLoaded & TFormViewProps & { publicView: boolean }) {
  const Title = titleLevel === 1 ? 'h1' : 'h2';
  const saver = useFormSaver({
    consentId: target.consentId,
    clientId: target.clientId,
    initialToken: response?.updateToken ?? null,
  });
  const [files, setFiles] = useState<ReadonlyMap<string, TFormFileSummary>>(
    () => new Map((response?.files ?? []).map((f) => [f.id, f])),
  );
  const [completed, setCompleted] = useState<Readonly<Record<string, boolean>>>({});
  const [finishing, setFinishing] = useState(false);
  const allComplete = form.sections.every((s) => completed[s.id] === true);
  const footer = formStepFooter({ publicView, allComplete, showNextStep });
  const saved = useMemo(
    () =>
      Object.fromEntries(
        form.sections.map((s): [string, TFormAnswers] => [
          s.id,
          response?.sections[s.id]?.answers ?? {},
        ]),
      ),
    [form.sections, response],
  );

  const onSectionComplete = useCallback((sectionId: string, complete: boolean) => {
    setCompleted((current) =>
      current[sectionId] === complete ? current : { ...current, [sectionId]: complete },
    );
  }, []);
  const onSave = useCallback(
    (sectionId: string, answers: TFormAnswers) => {
      saver.saveSection(sectionId, answers).catch(() => undefined);
    },
    [saver],
  );
  const onUpload = useCallback(
    async (field: TFormField, file: File) => {
      const uploaded = await saver.uploadFile(field.id, file);
      setFiles((current) => new Map(current).set(uploaded.id, uploaded));
      return uploaded;
    },
    [saver],
  );
  const next = async () => {
    setFinishing(true);
    try {
      // Whatever was typed last is saved before the flow moves on.
      (document.activeElement as HTMLElement | null)?.blur();
      if (await saver.flush()) onComplete();
    } finally {
      setFinishing(false);
    }
  };

  return (
    <div className="form-step">
      <header className="form-step-header">
        <Title id="form-title">{form.title}</Title>
        {form.description ? <p className="form-description">{form.description}</p> : null}
        {readOnly ? (
          <p className="form-read-only">Read-only: answers cannot be changed here.</p>
        ) : null}
      </header>
      {form.sections.map((section, index) => (
        <FormSectionCard
          key={section.id}
          section={section}
          index={index}
          titleLevel={titleLevel === 1 ? 2 : 3}
          saved={saved[section.id] ?? {}}
          readOnly={readOnly}
          files={files}
          onComplete={onSectionComplete}
          onSave={onSave}
          onUpload={onUpload}
        />
      ))}
      <div className="form-step-footer">
        <p className="form-save-state" role="status">
          {saver.state.kind === 'saving'
            ? 'Saving…'
            : saver.state.kind === 'saved'
              ? 'All answers saved'
              : ''}
        </p>
        {saver.state.kind === 'failed' ? (
          <p className="form-error" role="alert">
            {saver.state.message}
          </p>
        ) : null}
        {footer.status ? (
          <p className={allComplete ? 'form-status done' : 'form-status'} aria-live="polite">
            {footer.status}
          </p>
        ) : null}
        {footer.nextStep ? (
          <Button disabled={!footer.nextStep.enabled || finishing} onClick={() => void next()}>
            Next Step
          </Button>
        ) : null}
      </div>
    </div>
  );
}
