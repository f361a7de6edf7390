import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { auditTarget, auditTargetPath, auditWords } from '../../domain/audit-words';
import {
  ROLE_LABELS,
  ROLE_SUMMARIES,
  STAFF_ROLES,
  type TStaffRole,
} from '../../domain/dashboard-roles';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { formatNaira } from '../../domain/money';
import { ZInviteResponse } from '../../domain/schemas/dashboard';
import { Button } from '../ui/button';
import { FormError } from '../ui/form-error';
import { formatDateTime } from '../ui/format-date';
import { dashboardCall, messageOf } from './api';
import { dashboardQueries } from './queries';
import { Screen } from './screen';

/** The owner's team, invitations and audit log. */
export function TeamPage() {
  const team = useQuery(dashboardQueries.team());
  return (
    <Screen title={DASHBOARD_TEXTS.teamTitle} wide>
      <FormError message={team.error ? messageOf(team.error) : null} />
      <section className="dash-card" aria-labelledby="members-title">
        <h2 id="members-title">{DASHBOARD_TEXTS.teamTitle}</h2>
        <ul className="dash-list">
          {team.data?.staff.map((s) => (
            <li key={s.staffId} className="dash-row">
              <strong>{s.fullName}</strong>
              <span className="dash-muted">
                {s.phoneNumber} · {ROLE_LABELS[s.role]}
                {s.refundLimit === null ? '' : ` · refunds up to ${formatNaira(s.refundLimit)}`}
              </span>
            </li>
          ))}
        </ul>
        {team.data && team.data.invitations.length > 0 && (
          <>
            <h3>{DASHBOARD_TEXTS.pendingTitle}</h3>
            <ul className="dash-list">
              {team.data.invitations.map((i) => (
                <li key={i.invitationId} className="dash-row">
                  {i.phoneNumber ?? 'Any number'} · {ROLE_LABELS[i.role]}
                  <span className="dash-muted">until {formatDateTime(i.expiresAt)}</span>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      <InviteForm onDone={() => void team.refetch()} />
      <Audit />
    </Screen>
  );
}

function InviteForm({ onDone }: { onDone: () => void }) {
  const [phone, setPhone] = useState('');
  const [role, setRole] = useState<TStaffRole>('viewer');
  const [limit, setLimit] = useState('');
  const invite = useMutation({
    mutationFn: () =>
      dashboardCall('/team/invitations', ZInviteResponse, {
        method: 'POST',
        body: {
          phone,
          role,
          ...(role === 'support' && limit.trim()
            ? { refundLimit: Math.round(Number(limit.replace(/,/g, '')) * 100) }
            : {}),
        },
      }),
    onSuccess: onDone,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  return (
    <form className="dash-card" onSubmit={submit} aria-labelledby="invite-title">
      <h2 id="invite-title">{DASHBOARD_TEXTS.inviteTitle}</h2>
      <label className="dash-field">
        {DASHBOARD_TEXTS.phoneLabel}
        <input type="tel" required value={phone} onChange={(e) => setPhone(e.target.value)} />
      </label>
      <label className="dash-field">
        {DASHBOARD_TEXTS.roleLabel}
        <select
          value={role}
          aria-describedby="invite-role-hint"
          onChange={(e) => setRole(e.target.value as TStaffRole)}
        >
          {STAFF_ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      </label>
      <p id="invite-role-hint" className="dash-hint">
        {ROLE_SUMMARIES[role]}
      </p>
      {role === 'support' && (
        <label className="dash-field">
          {DASHBOARD_TEXTS.limitLabel}
          <input inputMode="decimal" value={limit} onChange={(e) => setLimit(e.target.value)} />
        </label>
      )}
      <Button type="submit" disabled={invite.isPending}>
        {DASHBOARD_TEXTS.invite}
      </Button>
      {invite.data && (
        <p role="status" className="dash-break">
          {DASHBOARD_TEXTS.invited} {invite.data.invitationUrl}
        </p>
      )}
      <FormError message={invite.error ? messageOf(invite.error) : null} />
    </form>
  );
}

function Audit() {
  const audit = useQuery(dashboardQueries.audit());
  return (
    <section className="dash-card" aria-labelledby="audit-title">
      <h2 id="audit-title">{DASHBOARD_TEXTS.auditTitle}</h2>
      <FormError message={audit.error ? messageOf(audit.error) : null} />
      <ul className="dash-list">
        {audit.data?.entries.map((e) => (
          <li key={e.id} className="dash-row">
            <span className="dash-break">
              {auditWords(e.action)}
              <AuditTarget target={auditTarget(e.action, e.target)} />
            </span>
            <span className="dash-muted">
              {e.actor} · {formatDateTime(e.at)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The thing an act touched: a link to its page where the dashboard has one. */
function AuditTarget({ target }: { target: string | null }) {
  if (!target) return null;
  const path = auditTargetPath(target);
  return (
    <>
      {': '}
      {path ? <Link href={path}>{target}</Link> : <span className="dash-muted">{target}</span>}
    </>
  );
}
