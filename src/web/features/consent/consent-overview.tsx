import type { ReactNode } from 'react';
import { authPromptItems } from '../../../domain/auth-prompt';
import { dataSharingChips } from '../../../domain/data-sharing';
import { groupFuturePayments } from '../../../domain/future-payment-schedule';
import type { TConsent } from '../../../domain/schemas/consent';
import { Representative } from './representative';
import { ScheduleRowText } from './schedule-row-text';
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
      {rep ? <Representative rep={rep} /> : null}
      {asks.length > 0 ? (
        <>
          <h2 className="section-title">They would like to:</h2>
          <ul className="list">
            {asks.map((ask) => (
              <li key={ask}>{ask}</li>
            ))}
          </ul>
        </>
      ) : null}
      {schedule.length > 0 ? (
        <>
          <h2 className="section-title">Payment schedule</h2>
          <ul className="list">
            {schedule.map((row) => (
              <li key={row.paymentIds[0]} className="schedule-row">
                <ScheduleRowText row={row} />
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
