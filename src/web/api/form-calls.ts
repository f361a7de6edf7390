import { useQuery } from '@tanstack/react-query';
import { ZUploadFormFileResponse, type TFormAnswers } from '../../domain/schemas/form';
import { notReached } from './api-error';
import { apiFetch, loadCall } from './http';

/** Which form: by formId alone (spec §2 public mode), or the form of one consent. */
export type TFormTarget = { formId: string; consentId: string | null; clientId: string | null };

export const formQueryKey = (target: TFormTarget) =>
  ['form', target.formId, target.consentId ?? '', target.clientId ?? ''] as const;

function formReadPath({ formId, consentId, clientId }: TFormTarget): string {
  const params = new URLSearchParams({ formId });
  if (consentId) params.set('consentId', consentId);
  if (clientId) params.set('clientId', clientId);
  return `/api/form?${params.toString()}`;
}

/** GET /api/form (spec §7): the form, and for a consent its saved answers. */
export function useFormQuery(target: TFormTarget) {
  return useQuery({
    queryKey: formQueryKey(target),
    // Answers saved since are in this page's state; a fresh read would only repeat them.
    staleTime: Infinity,
    queryFn: ({ signal }) =>
      apiFetch(formReadPath(target), { answer: 'ZFormReadResponse', signal }),
  });
}

export const formsApi = {
  /** PUT /api/form/sections/{sectionId}: one section's answers, with the consent's token. */
  saveSection: (input: {
    sectionId: string;
    consentId: string;
    clientId: string;
    formUpdateToken: string | null;
    answers: TFormAnswers;
  }) =>
    apiFetch(`/api/form/sections/${encodeURIComponent(input.sectionId)}`, {
      method: 'PUT',
      answer: 'ZSaveFormSectionResponse',
      body: {
        consentId: input.consentId,
        clientId: input.clientId,
        answers: input.answers,
        ...(input.formUpdateToken ? { formUpdateToken: input.formUpdateToken } : {}),
      },
    }),

  /** POST /api/form/files: a file's bytes for a file field; its id becomes the field's answer. */
  async uploadFile(input: {
    consentId: string;
    clientId: string;
    fieldId: string;
    formUpdateToken: string | null;
    file: File;
  }) {
    const params = new URLSearchParams({
      consentId: input.consentId,
      clientId: input.clientId,
      fieldId: input.fieldId,
    });
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Content-Type': 'application/octet-stream',
      'X-File-Name': encodeURIComponent(input.file.name),
    };
    if (input.formUpdateToken) headers['X-Form-Update-Token'] = input.formUpdateToken;
    const path = `/api/form/files?${params.toString()}`;
    const { answerOf } = await loadCall();
    let response: Response;
    try {
      response = await fetch(path, { method: 'POST', headers, body: input.file });
    } catch {
      throw notReached();
    }
    return answerOf(response, path, ZUploadFormFileResponse);
  },
};
