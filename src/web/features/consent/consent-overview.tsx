import { authPromptItems } from '../../../domain/auth-prompt';
import { dataSharingLabels } from '../../../domain/data-sharing';
import { formatNaira } from '../../../domain/money';
import { groupFuturePayments, scheduleRowLabel } from '../../../domain/payment-schedule';
import type { TConsent } from '../../../domain/schemas/consent';
import { formatDate } from '../../ui/format-date';
import { MerchantLogo } from '../../ui/merchant-logo';

/** What a pending consent asks for: the representative, the list of asks and the schedule. */
export function ConsentOverview({ consent }: { consent: TConsent }) {
  const asks = authPromptItems(consent);
  const schedule = groupFuturePayments(consent.payments.filter((p) => p.type === 'future'));
  const shared = consent.dataSharing ? dataSharingLabels(consent.dataSharing) : [];
  const rep = consent.actOnBehalfOf;
  return (
    <section className="card-body" aria-labelledby="overview-title">
      <h1 id="overview-title" className="visually-hidden">
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
              <li key={`${row.narration}-${row.startDate ?? ''}-${row.amount}`}>
                <span>
                  {row.narration}
                  <br />
                  <span className="secondary-text">
                    {scheduleRowLabel(row)}
                    {row.startDate ? ` · ${formatDate(row.startDate)}` : ''}
                    {row.endDate && row.count > 1 ? ` – ${formatDate(row.endDate)}` : ''}
                  </span>
                </span>
                <span className="amount">
                  {row.count > 1 ? `${row.count} × ` : ''}
                  {formatNaira(row.amount)}
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
    </section>
  );
}
