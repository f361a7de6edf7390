import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { DASHBOARD_TEXTS, roleInvitation } from '../../domain/dashboard-texts';
import { ZCodeSentResponse, ZDashboardOk } from '../../domain/schemas/dashboard';
import { Button } from '../ui/button';
import { FormError } from '../ui/form-error';
import { dashboardCall, messageOf } from './api';
import { makePasskey } from './passkeys';
import { dashboardQueries } from './queries';
import { Screen } from './screen';

/** The invitation's token: after '#' in its link, so it reaches no server log nor Referer. */
const tokenOfLink = () => window.location.hash.slice(1);

/**
 * An invitation accepted: its SMS code to the phone, the name of someone new to us, then this
 * device's passkey, which signs in from then on.
 */
export function JoinPage() {
  const [, navigate] = useLocation();
  const token = tokenOfLink();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [fullName, setFullName] = useState('');
  const invitation = useQuery(dashboardQueries.invitation(token));
  const send = useMutation({
    mutationFn: () =>
      dashboardCall('/invitations/code', ZCodeSentResponse, {
        method: 'POST',
        body: { token, phone },
      }),
  });
  const accept = useMutation({
    mutationFn: async () => {
      await dashboardCall('/invitations/accept', ZDashboardOk, {
        method: 'POST',
        body: { token, phone, code, ...(fullName.trim() ? { fullName } : {}) },
      });
      await makePasskey();
    },
    onSuccess: () => navigate('/'),
  });

  return (
    <div className="dash-page">
      <Screen title={DASHBOARD_TEXTS.joinTitle}>
        {invitation.isPending && <p role="status">{DASHBOARD_TEXTS.loading}</p>}
        <FormError message={invitation.error ? messageOf(invitation.error) : null} />
        {invitation.data && (
          <section className="dash-card">
            <p>{roleInvitation(invitation.data.merchantName, invitation.data.role)}</p>
            {invitation.data.phoneHint && (
              <p className="dash-muted">{DASHBOARD_TEXTS.forNumber(invitation.data.phoneHint)}</p>
            )}
            <label className="dash-field">
              {DASHBOARD_TEXTS.phoneLabel}
              <input
                type="tel"
                autoComplete="tel"
                value={phone}
                onChange={(e) => setPhone(e.target.value)}
              />
            </label>
            <Button variant="secondary" disabled={send.isPending} onClick={() => send.mutate()}>
              {DASHBOARD_TEXTS.sendCode}
            </Button>
            {send.data && <p role="status">{send.data.message}</p>}
            <FormError message={send.error ? messageOf(send.error) : null} />
            {send.data && (
              <>
                <label className="dash-field">
                  {DASHBOARD_TEXTS.codeLabel}
                  <input
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    value={code}
                    onChange={(e) => setCode(e.target.value)}
                  />
                </label>
                <label className="dash-field">
                  {DASHBOARD_TEXTS.nameLabel}
                  <span className="dash-hint">{DASHBOARD_TEXTS.nameHint}</span>
                  <input
                    autoComplete="name"
                    value={fullName}
                    onChange={(e) => setFullName(e.target.value)}
                  />
                </label>
                <Button disabled={accept.isPending} onClick={() => accept.mutate()}>
                  {accept.isPending ? DASHBOARD_TEXTS.working : DASHBOARD_TEXTS.joinButton}
                </Button>
                <FormError message={accept.error ? messageOf(accept.error) : null} />
              </>
            )}
          </section>
        )}
      </Screen>
    </div>
  );
}
