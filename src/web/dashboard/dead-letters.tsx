import { useQuery } from '@tanstack/react-query';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { FormError } from '../ui/form-error';
import { formatDateTime } from '../ui/format-date';
import { messageOf } from './api';
import { dashboardQueries } from './queries';

/**
 * The merchant's deliveries whose job failed every retry (docs/dashboard.md "Developers"): which
 * event, where it was going, how many tries, since when, and the delivery's status now.
 */
export function DeadLetters() {
  // Under the deliveries' key (queries.ts): a resend refreshes these too, so a dead letter
  // resent shows its delivery's new status.
  const dead = useQuery(dashboardQueries.deadLetters());
  const list = dead.data?.deadLetters ?? [];
  return (
    <section className="dash-card" aria-labelledby="dead-letters-title">
      <h2 id="dead-letters-title">{DASHBOARD_TEXTS.deadLettersTitle}</h2>
      <p className="dash-muted">{DASHBOARD_TEXTS.deadLettersLead}</p>
      <FormError message={dead.error ? messageOf(dead.error) : null} />
      {dead.isSuccess && list.length === 0 && <p>{DASHBOARD_TEXTS.noDeadLetters}</p>}
      <ul className="dash-list">
        {list.map((letter) => (
          <li key={letter.deliveryId} className="dash-row">
            <span>
              <strong>{letter.eventType}</strong>{' '}
              <span className={`dash-status ${letter.status}`}>{letter.status}</span>
            </span>
            <span className="dash-muted dash-break">
              {letter.url} · {DASHBOARD_TEXTS.deadLetterTries(letter.tries)} ·{' '}
              {DASHBOARD_TEXTS.deadSince(formatDateTime(letter.deadSince))} ·{' '}
              <code>{letter.eventId}</code>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
