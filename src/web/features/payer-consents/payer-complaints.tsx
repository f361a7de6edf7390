import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  COMPLAINT_CATEGORIES,
  COMPLAINT_CATEGORY_LABELS,
  COMPLAINT_DESCRIPTION_MAX,
  COMPLAINT_STATE_LABELS,
  COMPLAINT_TEXTS as T,
  complaintClockLines,
  complaintRaisedText,
  type TComplaintCategory,
} from '../../../domain/complaints';
import { formatNaira } from '../../../domain/money';
import { formatPaymentDate } from '../../../domain/payment-date';
import type { TComplaint } from '../../../domain/schemas/payer-protections';
import { usePayerConsentsQuery } from '../../api/payer-consents';
import {
  complaintsQueryKey,
  raiseComplaint,
  useComplaintsQuery,
} from '../../api/payer-protections';
import { Button } from '../../ui/button';
import { formatDateTime } from '../../ui/format-date';
import { Spinner } from '../../ui/spinner';
import './payer-data-rights.css';

/*
 * Complaints on the payer's own page (docs/payer-consents.md "Complaints"): Raise a complaint
 * about one of their payments, its reference shown at once with the targets it is to be
 * acknowledged and resolved by, and each complaint's state. Loaded when the page first draws it,
 * apart from the consent page's first screen.
 */

type TPaymentChoice = { paymentId: string; label: string };

/** The payments the payer made (collected), from the consents the page has loaded. */
function usePaidPayments(): TPaymentChoice[] {
  const consents = usePayerConsentsQuery(true);
  return (consents.data?.pages.flatMap((page) => page.consents) ?? []).flatMap((consent) =>
    consent.payments
      .filter((payment) => payment.status === 'executed')
      .map((payment) => ({
        paymentId: payment.paymentId,
        label: [
          consent.merchant.name,
          formatNaira(payment.amount),
          payment.narration,
          formatPaymentDate(payment.executedAt),
        ]
          .filter(Boolean)
          .join(' · '),
      })),
  );
}

type TComplaintForm = { paymentId: string; category: TComplaintCategory | ''; description: string };

function ComplaintForm({
  payments,
  onRaised,
  onCancel,
}: {
  payments: TPaymentChoice[];
  onRaised: (complaint: TComplaint) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const client = useQueryClient();
  const form = useForm<TComplaintForm>({
    defaultValues: { paymentId: '', category: '', description: '' },
  });
  const { errors } = form.formState;
  const send = useMutation({
    mutationFn: (values: TComplaintForm) =>
      raiseComplaint({
        paymentId: values.paymentId,
        category: values.category as TComplaintCategory,
        description: values.description,
      }),
    onSuccess: async ({ complaint }) => {
      onRaised(complaint);
      await client.invalidateQueries({ queryKey: complaintsQueryKey });
    },
  });
  useEffect(() => form.setFocus('paymentId'), [form]);
  const described = (field: keyof TComplaintForm) =>
    errors[field] ? `${id}-${field}-error` : undefined;
  return (
    <form
      className="payer-rights-form"
      noValidate
      onSubmit={(event) => void form.handleSubmit((values) => send.mutate(values))(event)}
    >
      <label htmlFor={`${id}-paymentId`}>{T.payment}</label>
      <select
        id={`${id}-paymentId`}
        className="text-input"
        aria-invalid={errors.paymentId ? true : undefined}
        aria-describedby={described('paymentId')}
        {...form.register('paymentId', { required: T.choosePayment })}
      >
        <option value="">{T.choosePayment}</option>
        {payments.map((payment) => (
          <option key={payment.paymentId} value={payment.paymentId}>
            {payment.label}
          </option>
        ))}
      </select>
      {errors.paymentId ? (
        <p id={`${id}-paymentId-error`} className="form-error">
          {errors.paymentId.message}
        </p>
      ) : null}
      <label htmlFor={`${id}-category`}>{T.category}</label>
      <select
        id={`${id}-category`}
        className="text-input"
        aria-invalid={errors.category ? true : undefined}
        aria-describedby={described('category')}
        {...form.register('category', { required: T.chooseCategory })}
      >
        <option value="">{T.chooseCategory}</option>
        {COMPLAINT_CATEGORIES.map((category) => (
          <option key={category} value={category}>
            {COMPLAINT_CATEGORY_LABELS[category]}
          </option>
        ))}
      </select>
      {errors.category ? (
        <p id={`${id}-category-error`} className="form-error">
          {errors.category.message}
        </p>
      ) : null}
      <label htmlFor={`${id}-description`}>{T.description}</label>
      <textarea
        id={`${id}-description`}
        className="text-input"
        rows={4}
        maxLength={COMPLAINT_DESCRIPTION_MAX}
        aria-invalid={errors.description ? true : undefined}
        aria-describedby={described('description')}
        {...form.register('description', {
          validate: (value) => value.trim().length > 0 || T.describe,
        })}
      />
      {errors.description ? (
        <p id={`${id}-description-error`} className="form-error">
          {errors.description.message}
        </p>
      ) : null}
      {send.isError ? (
        <p className="form-error" role="alert">
          {send.error.message}
        </p>
      ) : null}
      <div className="payer-rights-actions">
        <Button type="submit" variant="primary" disabled={send.isPending}>
          {send.isPending ? 'Sending...' : T.send}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {T.cancel}
        </Button>
      </div>
    </form>
  );
}

function ComplaintItem({ complaint }: { complaint: TComplaint }) {
  return (
    <li>
      <article className="payer-complaint" aria-label={`Complaint ${complaint.reference}`}>
        <p className="payer-complaint-head">
          <strong>{complaint.reference}</strong>
          <span className={`status-badge complaint-${complaint.state}`}>
            {COMPLAINT_STATE_LABELS[complaint.state]}
          </span>
        </p>
        <p>
          {complaint.merchant.name} ·{' '}
          <span className="amount">{formatNaira(complaint.amount)}</span> ·{' '}
          {COMPLAINT_CATEGORY_LABELS[complaint.category]}
        </p>
        <p className="secondary-text">Raised {formatDateTime(complaint.raisedAt)}</p>
        <ul className="plain-list secondary-text">
          {complaintClockLines(complaint, new Date()).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        {complaint.resolution ? <p>{complaint.resolution}</p> : null}
      </article>
    </li>
  );
}

export function PayerComplaints() {
  const id = useId();
  const query = useComplaintsQuery();
  const payments = usePaidPayments();
  const [raising, setRaising] = useState(false);
  const [raised, setRaised] = useState<TComplaint | null>(null);
  const noteRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (raised) noteRef.current?.focus();
  }, [raised]);
  const complaints = query.data?.complaints ?? [];
  return (
    <section className="payer-rights" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{T.heading}</h2>
      <p className="muted">{T.intro}</p>
      {raised ? (
        <p className="removed-note" role="status" tabIndex={-1} ref={noteRef}>
          {complaintRaisedText(raised.reference)}
        </p>
      ) : null}
      {raising ? (
        <ComplaintForm
          payments={payments}
          onRaised={(complaint) => {
            setRaising(false);
            setRaised(complaint);
          }}
          onCancel={() => setRaising(false)}
        />
      ) : payments.length > 0 ? (
        <Button variant="secondary" onClick={() => setRaising(true)}>
          {T.raise}
        </Button>
      ) : (
        <p>{T.noPayments}</p>
      )}
      {query.isPending ? (
        <p className="loading-line" role="status">
          <Spinner small /> {T.loading}
        </p>
      ) : null}
      {query.isError ? (
        <p className="form-error" role="alert">
          {T.failed} {query.error.message}
        </p>
      ) : null}
      {complaints.length > 0 ? (
        <>
          <h3>{T.listHeading}</h3>
          <ul className="payer-complaints">
            {complaints.map((complaint) => (
              <ComplaintItem key={complaint.complaintId} complaint={complaint} />
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
