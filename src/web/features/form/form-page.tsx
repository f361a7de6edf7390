import { useState } from 'react';
import { useSearch } from 'wouter';
import { parsePageParams } from '../../../domain/page-params';
import { FormView } from './form-step';

/**
 * /f/{formId} (docs/forms.md): a form on its own page. With public=true it is read-only and
 * needs nothing but the formId (spec §2); with consentId and clientId it is that consent's form,
 * filled and saved as in the consent flow's Form step.
 */
export function FormPage({ formId }: { formId: string }) {
  const search = useSearch();
  const params = parsePageParams(search);
  const consentId = new URLSearchParams(search).get('consentId')?.trim() || null;
  const [done, setDone] = useState(false);
  return (
    <div className="page">
      <main className="card" aria-labelledby="form-title">
        <div className="card-body">
          {done ? (
            <p role="status" className="form-status done">
              Form completed. You can close this page.
            </p>
          ) : (
            <FormView
              target={{ formId, consentId, clientId: params.clientId }}
              readOnly={params.isPublic}
              onComplete={() => setDone(true)}
              titleLevel={1}
            />
          )}
        </div>
      </main>
    </div>
  );
}
