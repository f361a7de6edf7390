import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { ZCodeSentResponse, ZDashboardOk } from '../../domain/schemas/dashboard';
import { Button } from '../ui/button';
import { FormError } from '../ui/form-error';
import { dashboardCall, messageOf } from './api';
import { makePasskey, signIn } from './passkeys';
import { Screen } from './screen';

/** Sign-in with a passkey; a lost one is replaced after an SMS code to the number. */
export function SignInPage() {
  const [, navigate] = useLocation();
  const [recovering, setRecovering] = useState(false);
  const passkey = useMutation({ mutationFn: signIn, onSuccess: () => navigate('/') });
  return (
    <div className="dash-page">
      <Screen title={DASHBOARD_TEXTS.signInTitle}>
        <section className="dash-card">
          <p>{DASHBOARD_TEXTS.signInLead}</p>
          <Button disabled={passkey.isPending} onClick={() => passkey.mutate()}>
            {passkey.isPending ? DASHBOARD_TEXTS.working : DASHBOARD_TEXTS.signInButton}
          </Button>
          <FormError message={passkey.error ? messageOf(passkey.error) : null} />
          {!recovering && (
            <Button variant="link" onClick={() => setRecovering(true)}>
              {DASHBOARD_TEXTS.lostPasskey}
            </Button>
          )}
        </section>
        {recovering && <Recovery onDone={() => navigate('/')} />}
      </Screen>
    </div>
  );
}

function Recovery({ onDone }: { onDone: () => void }) {
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const send = useMutation({
    mutationFn: () =>
      dashboardCall('/recovery/code', ZCodeSentResponse, { method: 'POST', body: { phone } }),
  });
  const verify = useMutation({
    mutationFn: async () => {
      await dashboardCall('/recovery', ZDashboardOk, { method: 'POST', body: { phone, code } });
      await makePasskey();
    },
    onSuccess: onDone,
  });
  return (
    <section className="dash-card" aria-labelledby="recovery-title">
      <h2 id="recovery-title">{DASHBOARD_TEXTS.recoveryTitle}</h2>
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
          <Button disabled={verify.isPending} onClick={() => verify.mutate()}>
            {DASHBOARD_TEXTS.verifyAndMakePasskey}
          </Button>
          <FormError message={verify.error ? messageOf(verify.error) : null} />
        </>
      )}
    </section>
  );
}
