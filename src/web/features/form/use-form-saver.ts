import { useCallback, useRef, useState } from 'react';
import type { TFormAnswers, TFormFileSummary } from '../../../domain/schemas/form';
import { isApiError } from '../../api/api-error';
import { formsApi } from '../../api/forms';

export type TSaveState =
  { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'failed'; message: string };

/**
 * Saves a consent's answers one call at a time, in order: the first save issues the consent's
 * formUpdateToken and every later one sends it (docs/forms.md), so no two calls may race.
 */
export function useFormSaver(target: {
  consentId: string | null;
  clientId: string | null;
  initialToken: string | null;
}) {
  const token = useRef(target.initialToken);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const pending = useRef(0);
  const [state, setState] = useState<TSaveState>({ kind: 'idle' });
  const { consentId, clientId } = target;

  const enqueue = useCallback(<T>(call: (formUpdateToken: string | null) => Promise<T>) => {
    pending.current += 1;
    setState({ kind: 'saving' });
    const run = queue.current.then(async () => {
      try {
        const result = await call(token.current);
        pending.current -= 1;
        if (pending.current === 0) setState({ kind: 'saved' });
        return result;
      } catch (error) {
        pending.current -= 1;
        const message = isApiError(error) ? error.message : 'Your answers could not be saved.';
        setState({ kind: 'failed', message });
        throw error;
      }
    });
    // The queue goes on after a failure; the caller hears of it.
    queue.current = run.catch(() => undefined);
    return run;
  }, []);

  const saveSection = useCallback(
    (sectionId: string, answers: TFormAnswers) => {
      if (!consentId || !clientId) return Promise.resolve(null);
      return enqueue(async (formUpdateToken) => {
        const saved = await formsApi.saveSection({
          sectionId,
          consentId,
          clientId,
          formUpdateToken,
          answers,
        });
        token.current = saved.formUpdateToken;
        return saved;
      });
    },
    [enqueue, consentId, clientId],
  );

  const uploadFile = useCallback(
    (fieldId: string, file: File): Promise<TFormFileSummary> => {
      if (!consentId || !clientId) return Promise.reject(new Error('No consent to upload to'));
      return enqueue(async (formUpdateToken) => {
        const uploaded = await formsApi.uploadFile({
          consentId,
          clientId,
          fieldId,
          formUpdateToken,
          file,
        });
        token.current = uploaded.formUpdateToken;
        return uploaded.file;
      });
    },
    [enqueue, consentId, clientId],
  );

  /** Resolves once every save asked for so far has finished. */
  const flush = useCallback(() => queue.current, []);

  return { state, saveSection, uploadFile, flush };
}
