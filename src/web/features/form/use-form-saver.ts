import { useCallback, useState } from 'react';
import type { TFormAnswers, TFormFileSummary } from '../../../domain/schemas/form';
import { isApiError } from '../../api/api-error';
import { formsApi } from '../../api/form-calls';

export type TSaveState =
  { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'failed'; message: string };

type TCall<T> = (formUpdateToken: string | null) => Promise<T>;

/**
 * One call at a time, in order: the first save issues the consent's formUpdateToken and every
 * later one sends it (docs/forms.md), so no two calls may race. A section's save that failed is
 * kept, to go again at the next flush, until a newer save of that section is asked for: the
 * newer answers are the ones to keep, never the failed older ones sent after them.
 */
function saveQueue(initialToken: string | null, onState: (state: TSaveState) => void) {
  let token = initialToken;
  let queue: Promise<unknown> = Promise.resolve();
  let pending = 0;
  const failedSaves = new Map<string, { again: () => Promise<unknown>; message: string }>();
  /** What the payer reads once nothing is pending: saved, or the last failure still standing. */
  const settled = (): TSaveState => {
    const standing = [...failedSaves.values()].at(-1);
    return standing ? { kind: 'failed', message: standing.message } : { kind: 'saved' };
  };

  function enqueue<T>(call: TCall<T & { formUpdateToken: string }>, section?: string): Promise<T> {
    if (section !== undefined) failedSaves.delete(section);
    pending += 1;
    onState({ kind: 'saving' });
    const run = queue.then(async () => {
      try {
        const result = await call(token);
        token = result.formUpdateToken;
        pending -= 1;
        if (pending === 0) onState(settled());
        return result;
      } catch (error) {
        const message = isApiError(error) ? error.message : 'Your answers could not be saved.';
        if (section !== undefined) {
          failedSaves.set(section, { again: () => enqueue(call, section), message });
        }
        pending -= 1;
        onState({ kind: 'failed', message });
        throw error;
      }
    });
    // The queue goes on after a failure; the caller hears of it.
    queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Sends again each section whose last save failed, then resolves once every save asked for so
   * far has finished: true when every section's last save saved. Read after the wait, never from
   * a render's state (a failure a later save mended, or a success before the last save failed).
   */
  async function flush(): Promise<boolean> {
    for (const { again } of [...failedSaves.values()]) void again().catch(() => undefined);
    await queue;
    return failedSaves.size === 0;
  }

  return { enqueue, flush };
}

/** Saves a consent's answers and files one call at a time, in order (saveQueue). */
export function useFormSaver(target: {
  consentId: string | null;
  clientId: string | null;
  initialToken: string | null;
}) {
  const [state, setState] = useState<TSaveState>({ kind: 'idle' });
  const [saves] = useState(() => saveQueue(target.initialToken, setState));
  const { consentId, clientId } = target;

  const saveSection = useCallback(
    (sectionId: string, answers: TFormAnswers) => {
      if (!consentId || !clientId) return Promise.resolve(null);
      return saves.enqueue(
        (formUpdateToken) =>
          formsApi.saveSection({ sectionId, consentId, clientId, formUpdateToken, answers }),
        sectionId,
      );
    },
    [saves, consentId, clientId],
  );

  const uploadFile = useCallback(
    async (fieldId: string, file: File): Promise<TFormFileSummary> => {
      if (!consentId || !clientId) throw new Error('No consent to upload to');
      const uploaded = await saves.enqueue((formUpdateToken) =>
        formsApi.uploadFile({ consentId, clientId, fieldId, formUpdateToken, file }),
      );
      return uploaded.file;
    },
    [saves, consentId, clientId],
  );

  return { state, saveSection, uploadFile, flush: saves.flush };
}
