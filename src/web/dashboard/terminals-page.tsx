import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { ZDashboardOk } from '../../domain/schemas/dashboard';
import {
  ZDashboardTerminalResponse,
  type TDashboardTerminal,
  type TDashboardTerminalAddRequest,
} from '../../domain/schemas/dashboard-terminals';
import { Button } from '../ui/button';
import { FormError } from '../ui/form-error';
import { formatDateTime } from '../ui/format-date';
import { dashboardCall, messageOf } from './api';
import { useKeyedMutation } from './keyed-mutation';
import { dashboardKeys, dashboardQueries } from './queries';
import { Screen } from './screen';

/** Where the chip terminal is the merchant's Paystack Terminals: the list, register, remove. */
export function TerminalsPage() {
  const terminals = useQuery(dashboardQueries.terminals());
  const [said, setSaid] = useState<string | null>(null);
  return (
    <Screen title={DASHBOARD_TEXTS.terminalsTitle}>
      <FormError message={terminals.error ? messageOf(terminals.error) : null} />
      {terminals.data && !terminals.data.pushed ? (
        <section className="dash-card">
          <p>{DASHBOARD_TEXTS.terminalsNotPushed}</p>
        </section>
      ) : null}
      {terminals.data?.pushed ? (
        <>
          <TerminalList terminals={terminals.data.terminals} onSaid={setSaid} />
          <AddTerminal onSaid={setSaid} />
        </>
      ) : null}
      {terminals.isPending ? <p role="status">{DASHBOARD_TEXTS.loading}</p> : null}
      <p role="status" className="dash-hint">
        {said ?? ''}
      </p>
    </Screen>
  );
}

type TListProps = {
  terminals: readonly TDashboardTerminal[];
  onSaid(text: string): void;
};

/** The registered terminals, each with its Remove button. */
function TerminalList({ terminals, onSaid }: TListProps) {
  const remove = useKeyedMutation(
    (terminal: TDashboardTerminal, key: string) =>
      dashboardCall(`/terminals/${encodeURIComponent(terminal.id)}`, ZDashboardOk, {
        method: 'DELETE',
        key,
      }).then(() => terminal),
    [dashboardKeys.terminals, dashboardKeys.audit],
  );
  return (
    <section className="dash-card" aria-labelledby="terminals-list-title">
      <h2 id="terminals-list-title">{DASHBOARD_TEXTS.terminalsListTitle}</h2>
      <p className="dash-hint">{DASHBOARD_TEXTS.terminalsLead}</p>
      {terminals.length === 0 ? <p>{DASHBOARD_TEXTS.terminalsNone}</p> : null}
      <ul className="dash-list">
        {terminals.map((terminal) => (
          <li key={terminal.id} className="dash-row">
            <span>
              <strong>{terminal.name}</strong>
              <span className="dash-muted">
                {' '}
                {terminal.terminalId} · {formatDateTime(terminal.createdAt)}
              </span>
            </span>
            <Button
              variant="secondary"
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate(terminal, {
                  onSuccess: (gone) => onSaid(DASHBOARD_TEXTS.terminalRemoved(gone.name)),
                })
              }
            >
              {DASHBOARD_TEXTS.terminalRemove(terminal.name)}
            </Button>
          </li>
        ))}
      </ul>
      <FormError message={remove.error ? messageOf(remove.error) : null} />
    </section>
  );
}

/** Registers a terminal by its Paystack id and the name payers see. */
function AddTerminal({ onSaid }: { onSaid(text: string): void }) {
  const [terminalId, setTerminalId] = useState('');
  const [name, setName] = useState('');
  const add = useKeyedMutation(
    (asked: TDashboardTerminalAddRequest, key: string) =>
      dashboardCall('/terminals', ZDashboardTerminalResponse, {
        method: 'POST',
        body: asked,
        key,
      }),
    [dashboardKeys.terminals, dashboardKeys.audit],
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(
      { terminalId: terminalId.trim(), name: name.trim() },
      {
        onSuccess: ({ terminal }) => {
          setTerminalId('');
          setName('');
          onSaid(DASHBOARD_TEXTS.terminalAdded(terminal.name));
        },
      },
    );
  };
  return (
    <form className="dash-card" onSubmit={submit} aria-labelledby="terminal-add-title">
      <h2 id="terminal-add-title">{DASHBOARD_TEXTS.terminalAddTitle}</h2>
      <label className="dash-field">
        {DASHBOARD_TEXTS.terminalIdLabel}
        <input
          required
          maxLength={64}
          pattern="[A-Za-z0-9_\-]+"
          autoComplete="off"
          aria-describedby="terminal-id-hint"
          value={terminalId}
          onChange={(e) => setTerminalId(e.target.value)}
        />
      </label>
      <p id="terminal-id-hint" className="dash-hint">
        {DASHBOARD_TEXTS.terminalIdHint}
      </p>
      <label className="dash-field">
        {DASHBOARD_TEXTS.terminalNameLabel}
        <input
          required
          maxLength={60}
          autoComplete="off"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <Button type="submit" disabled={add.isPending} aria-busy={add.isPending}>
        {DASHBOARD_TEXTS.terminalAdd}
      </Button>
      <FormError message={add.error ? messageOf(add.error) : null} />
    </form>
  );
}
