import { useQuery } from '@tanstack/react-query';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { ZDeadLettersResponse } from '../../domain/schemas/dashboard';
import { FormError } from '../ui/form-error';
import { formatDateTime } from '../ui/format-date';
import { dashboardCall, messageOf } from './api';

/**
 * Under the deliveries' key: a resend (which refreshes the deliveries) refreshes these too, so a
 * dead letter resent shows its delivery's new status.
 */
const DEAD_LETTERS_KEY = ['dashboard', 'deliveries', 'dead-letters'];

/**
 * The merchant's deliveries whose job failed every retry (docs/dashboard.md "Developers"): which
 * event, where it was going, how many tries, since when, and the delivery's status now.
 */
export function DeadLetters() {
  const dead = useQuery({
    queryKey: DEAD_LETTERS_KEY,
    queryFn: () => dashboardCall('/webhooks/dead-letters', ZDeadLettersResponse),
  });
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
