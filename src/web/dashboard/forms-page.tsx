import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import type { TDashboardFormRespondent } from '../../domain/schemas/dashboard-events-forms';
import type { TFormAnswer } from '../../domain/schemas/form';
import { Button } from '../ui/button';
import { FormError } from '../ui/form-error';
import { formatDateTime } from '../ui/format-date';
import { useAddressPages } from './address-filters';
import { messageOf } from './api';
import { dashboardQueries } from './queries';
import { DashboardList } from './dashboard-list';
import { Screen } from './screen';

/** The merchant's forms, newest first, each with how many payers started it. */
export function FormsPage() {
  const list = useInfiniteQuery(dashboardQueries.forms());
  const { pages, paging } = useAddressPages(list);
  const forms = pages.flatMap((page) => page.forms);
  return (
    <Screen title={DASHBOARD_TEXTS.formsTitle} wide>
      <DashboardList
        read={paging}
        rows={forms}
        rowKey={(form) => form.formId}
        renderRow={(form) => (
          <Link href={`/forms/${form.formId}`} className="dash-row-link">
            <span className="dash-amount">{form.title}</span>
            <span>{DASHBOARD_TEXTS.formFacts(form.latestVersion, form.responses)}</span>
            <span className="dash-muted">
              {form.formId} · {formatDateTime(form.createdAt)}
            </span>
          </Link>
        )}
        emptyText={DASHBOARD_TEXTS.noForms}
        moreText={DASHBOARD_TEXTS.moreForms}
        holdWhileLoading
      />
    </Screen>
  );
}

/** One form: its responses, newest first, who answered and when, each one's answers. */
export function FormPage({ formId }: { formId: string }) {
  const read = useInfiniteQuery(dashboardQueries.form(formId));
  const form = read.data?.pages[0]?.form;
  const responses = read.data?.pages.flatMap((page) => page.responses) ?? [];
  return (
    <Screen title={form?.title ?? DASHBOARD_TEXTS.formsTitle} wide>
      <FormError message={read.error ? messageOf(read.error) : null} />
      {read.isPending && <p role="status">{DASHBOARD_TEXTS.loading}</p>}
      {form && (
        <p className="dash-muted">
          {form.formId} · {DASHBOARD_TEXTS.formFacts(form.latestVersion, form.responses)}
        </p>
      )}
      {form && (
        <section className="dash-card" aria-labelledby="responses-title">
          <h2 id="responses-title">{DASHBOARD_TEXTS.responsesTitle}</h2>
          {responses.length === 0 && <p>{DASHBOARD_TEXTS.noResponses}</p>}
          <ul className="dash-list">
            {responses.map((response) => (
              <ResponseRow key={response.responseId} formId={formId} response={response} />
            ))}
          </ul>
          {read.hasNextPage && (
            <Button
              variant="secondary"
              disabled={read.isFetchingNextPage}
              onClick={() => void read.fetchNextPage()}
            >
              {DASHBOARD_TEXTS.moreResponses}
            </Button>
          )}
        </section>
      )}
    </Screen>
  );
}

/** Who answered (their consent, their accounts masked) and when; the answers when opened. */
function ResponseRow({ formId, response }: { formId: string; response: TDashboardFormRespondent }) {
  const [open, setOpen] = useState(false);
  const answersId = useId();
  const accounts = response.mandates
    .map((m) => `${m.bankName} ****${m.accountNumberLast4}`)
    .join(', ');
  const who = response.reference ?? response.consentId;
  return (
    <li className="dash-row">
      <span>
        <strong>{who}</strong>{' '}
        <span className={`dash-status ${response.submittedAt ? 'granted' : 'pending'}`}>
          {response.submittedAt ? 'submitted' : 'in progress'}
        </span>
      </span>
      <span className="dash-muted dash-break">
        {response.submittedAt
          ? DASHBOARD_TEXTS.submittedAt(formatDateTime(response.submittedAt))
          : DASHBOARD_TEXTS.notSubmitted(formatDateTime(response.startedAt))}
        {' · '}
        <Link href={`/consents/${response.consentId}`}>{response.consentId}</Link>
        {accounts ? ` · ${DASHBOARD_TEXTS.answeredWith(accounts)}` : ''}
      </span>
      <span className="dash-actions">
        <Button
          variant="secondary"
          aria-expanded={open}
          aria-controls={answersId}
          aria-label={`${DASHBOARD_TEXTS.showAnswers}: ${who}`}
          onClick={() => setOpen(!open)}
        >
          {DASHBOARD_TEXTS.showAnswers}
        </Button>
      </span>
      <div id={answersId} hidden={!open}>
        {open && <Answers formId={formId} responseId={response.responseId} />}
      </div>
    </li>
  );
}

/** A response's answers by section, as the merchant API reads them; files as links. */
function Answers({ formId, responseId }: { formId: string; responseId: string }) {
  const answers = useQuery(dashboardQueries.formResponse(formId, responseId));
  if (answers.error) return <FormError message={messageOf(answers.error)} />;
  if (!answers.data) return <p role="status">{DASHBOARD_TEXTS.loading}</p>;
  const sections = answers.data.response.sections.filter((s) => s.answers.length > 0);
  if (sections.length === 0) return <p>{DASHBOARD_TEXTS.noAnswers}</p>;
  return (
    <>
      {sections.map((section) => (
        <section key={section.id} aria-label={section.title}>
          <h3>{section.title}</h3>
          <dl className="dash-facts">
            {section.answers.map((answer) => (
              <div key={answer.fieldId} className="dash-contents">
                <dt>{answer.label}</dt>
                <dd className="dash-break">
                  {answer.file ? (
                    <a href={answer.file.url}>{DASHBOARD_TEXTS.fileLink(answer.file.fileName)}</a>
                  ) : (
                    answerText(answer.value)
                  )}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </>
  );
}

/** An answer in words: yes/no for an agreement, choices joined, a number or text as given. */
function answerText(value: TFormAnswer): string {
  if (value === null) return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}
