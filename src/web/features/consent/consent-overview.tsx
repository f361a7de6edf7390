import type { ReactNode } from 'react';
import { authPromptItems } from '../../../domain/auth-prompt';
import { dataSharingChips } from '../../../domain/data-sharing';
import { amountTypeLabel, frequencyLabel } from '../../../domain/frequency-label';
import { formatNaira } from '../../../domain/money';
import { groupFuturePayments } from '../../../domain/future-payment-schedule';
import { formatPaymentDate } from '../../../domain/payment-date';
import type { TConsent } from '../../../domain/schemas/consent';
import { MerchantLogo } from '../../ui/merchant-logo';
import { SCREEN_TITLE_ID } from '../../ui/screen-main';

/** What a pending consent asks for: the representative, the list of asks and the schedule. */
export function ConsentOverview({
  consent,
  children,
}: {
  consent: TConsent;
  children?: ReactNode;
}) {
  const asks = authPromptItems(consent);
  const schedule = groupFuturePayments(consent.payments.filter((p) => p.type === 'future'));
  const shared = dataSharingChips(consent.dataSharing).map((chip) => chip.label);
  const rep = consent.actOnBehalfOf;
  return (
    <section className="card-body" aria-labelledby={SCREEN_TITLE_ID}>
      <h1 id={SCREEN_TITLE_ID} className="visually-hidden">
        {consent.counterparty.name} - Consent Request
      </h1>
      {rep ? (
        <div className="representative">
          <MerchantLogo name={rep.fullName} image={rep.image} />
          <div>
            <p>{rep.fullName}</p>
            <p className="secondary-text">
              {rep.role.name}
              {rep.location ? ` · ${rep.location}` : ''}
            </p>
          </div>
        </div>
      ) : null}
      <h2 className="section-title">They would like to:</h2>
      <ul className="list">
        {asks.map((ask) => (
          <li key={ask}>{ask}</li>
        ))}
      </ul>
      {schedule.length > 0 ? (
        <>
          <h2 className="section-title">Payment schedule</h2>
          <ul className="list">
            {schedule.map((row) => (
              <li key={row.paymentIds[0]} className="schedule-row">
                <span>{row.narration}</span>
                <span className="amount">
                  {row.count > 1 ? `${row.count} × ` : ''}
                  {formatNaira(row.amount)}
                </span>
                <span className="secondary-text">
                  {amountTypeLabel(row.amountType)} · {frequencyLabel(row.frequency, row.interval)}
                  {row.startDate ? ` · ${formatPaymentDate(row.startDate)}` : ''}
                  {row.endDate && row.count > 1 ? ` – ${formatPaymentDate(row.endDate)}` : ''}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {shared.length > 0 ? (
        <>
          <h2 className="section-title">Data to share</h2>
          <ul className="chips">
            {shared.map((label) => (
              <li key={label} className="chip">
                {label}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {children}
    </section>
  );
}
