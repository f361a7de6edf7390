import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import {
  debitNoticeWords,
  SKIP_PAYMENT_LABEL,
  STOP_PAYMENTS_LABEL,
} from '../../../domain/debit-notices';
import { formatNaira } from '../../../domain/money';
import { formatLagosDateTime } from '../../../domain/payment-date';
import type { TDebitNotice } from '../../../domain/schemas/debit-notices';
import {
  debitNoticeApi,
  debitNoticeQueryKey,
  useDebitNoticeQuery,
} from '../../api/debit-notice-calls';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import { Spinner } from '../../ui/spinner';
import './debit-notices.css';

/**
 * /debits/{token}: the page the SMS notice of a debit opens, with no sign-in (docs/payer-consents.md
 * "Told before every debit"): who will debit how much, when and from which account, and two ways
 * out: skip this one payment, or stop them all (the consent's own page, which asks for the
 * passkey).
 */
export function DebitNoticePage({ token }: { token: string }) {
  const query = useDebitNoticeQuery(token);
  return (
    <div className="page">
      <main className="card debit-notice" aria-labelledby="debit-notice-title">
        <div className="card-body">
          {query.isPending ? (
            <div className="debit-notice-state" role="status">
              <Spinner />
              <p>Loading your payment...</p>
            </div>
          ) : query.isError ? (
            <div className="debit-notice-state">
              <h1 id="debit-notice-title">Your payment</h1>
              <p className="form-error" role="alert">
                This link opens no payment. {query.error.message}
              </p>
              <Button onClick={() => void query.refetch()}>Try Again</Button>
            </div>
          ) : (
            <DebitNoticeView token={token} notice={query.data.notice} />
          )}
        </div>
      </main>
    </div>
  );
}

function DebitNoticeView({ token, notice }: { token: string; notice: TDebitNotice }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const words = debitNoticeWords(notice);
  const skip = async () => {
    setBusy(true);
    setError(null);
    try {
      const { notice: skipped } = await debitNoticeApi.skip(token);
      queryClient.setQueryData(debitNoticeQueryKey(token), { success: true, notice: skipped });
      heading.current?.focus();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      await queryClient.invalidateQueries({ queryKey: debitNoticeQueryKey(token) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="debit-notice-body">
      <h1 id="debit-notice-title" tabIndex={-1} ref={heading}>
        {words.title}
      </h1>
      <p role={notice.state === 'skipped' ? 'status' : undefined}>{words.line}</p>
      <dl className="debit-notice-facts">
        <dt>To</dt>
        <dd>{notice.merchantName}</dd>
        <dt>Amount</dt>
        <dd>{formatNaira(notice.amount)}</dd>
        <dt>For</dt>
        <dd>{notice.narration}</dd>
        <dt>Date</dt>
        <dd>{formatLagosDateTime(notice.collectAt)}</dd>
        {notice.account ? (
          <>
            <dt>From</dt>
            <dd>
              {notice.account.bankName} {notice.account.accountNumber}
            </dd>
          </>
        ) : null}
      </dl>
      <FormError message={error} />
      <div className="actions">
        {notice.state === 'upcoming' ? (
          <Button onClick={() => void skip()} disabled={busy} aria-busy={busy}>
            {busy ? 'Skipping...' : SKIP_PAYMENT_LABEL}
          </Button>
        ) : null}
        {notice.stopUrl ? (
          <a className="button secondary" href={notice.stopUrl}>
            {STOP_PAYMENTS_LABEL}
          </a>
        ) : null}
      </div>
      {notice.stopUrl ? (
        <p className="muted">
          Stopping all future payments withdraws your consent to {notice.merchantName}: you confirm
          it with your passkey.
        </p>
      ) : null}
    </section>
  );
}
