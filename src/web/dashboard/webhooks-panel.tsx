import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import {
  ZDashboardOk,
  ZDashboardWebhookCreatedResponse,
  ZDashboardWebhookResponse,
  ZWebhookSecretResponse,
  type TDashboardWebhook,
} from '../../domain/schemas/dashboard';
import { Button } from '../ui/button';
import { CopyRow } from '../ui/copy-row';
import { FormError } from '../ui/form-error';
import { formatDateTime } from '../ui/format-date';
import { dashboardCall, messageOf } from './api';
import { dashboardKeys, dashboardQueries } from './queries';
import { useKeyedMutation } from './keyed-mutation';
import { WebhookForm, type TWebhookFields } from './webhook-form';

/** A signing secret to show this once: a new webhook's, or one just rotated. */
type TShownSecret = { url: string; secret: string; previousValidUntil: string | null };

const webhookPath = (webhookId: string, action = '') =>
  `/webhooks/${encodeURIComponent(webhookId)}${action}`;

/**
 * The merchant's webhook endpoints (docs/dashboard.md "Developers"): add one, change its URL and
 * events, turn it off and on, rotate its signing secret, delete it. A signing secret is shown
 * once, in a panel that says so; what each act did is announced.
 */
export function WebhooksPanel() {
  const webhooks = useQuery(dashboardQueries.webhooks());
  const keys = useQuery(dashboardQueries.keys());
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState<TShownSecret | null>(null);
  const [said, setSaid] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const clientIds = keys.data?.keys.map((key) => key.clientId);
  const list = webhooks.data?.webhooks ?? [];
  const showSecret = (secret: TShownSecret) => {
    setShown(secret);
    setAdding(false);
  };
  return (
    <section className="dash-card" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title" ref={headingRef} tabIndex={-1}>
        {DASHBOARD_TEXTS.webhooksTitle}
      </h2>
      <p className="dash-muted">{DASHBOARD_TEXTS.webhooksLead}</p>
      <FormError message={webhooks.error ? messageOf(webhooks.error) : null} />
      {shown && (
        <SecretPanel
          shown={shown}
          onDone={() => {
            setShown(null);
            headingRef.current?.focus();
          }}
        />
      )}
      {webhooks.isSuccess && list.length === 0 && <p>{DASHBOARD_TEXTS.noWebhooks}</p>}
      <ul className="dash-list">
        {list.map((hook) => (
          <WebhookRow
            key={hook.webhookId}
            hook={hook}
            showKey={(clientIds?.length ?? 0) > 1}
            onSecret={showSecret}
            onSaid={setSaid}
            onDeleted={() => headingRef.current?.focus()}
          />
        ))}
      </ul>
      {adding ? (
        <AddWebhook
          clientIds={clientIds}
          onAdded={(added) => {
            setSaid(DASHBOARD_TEXTS.webhookAdded);
            showSecret({ url: added.url, secret: added.secret, previousValidUntil: null });
          }}
          onCancel={() => {
            setAdding(false);
            addRef.current?.focus();
          }}
        />
      ) : (
        <div className="dash-actions">
          <Button ref={addRef} variant="secondary" onClick={() => setAdding(true)}>
            {DASHBOARD_TEXTS.addWebhook}
          </Button>
        </div>
      )}
      <p role="status" className="dash-muted">
        {said}
      </p>
    </section>
  );
}

/** The form of a new webhook: which API key it is for when there are several, and its fields. */
function AddWebhook({
  clientIds,
  onAdded,
  onCancel,
}: {
  /** The merchant's API keys; undefined while they are read. */
  clientIds: string[] | undefined;
  onAdded: (added: { url: string; secret: string }) => void;
  onCancel: () => void;
}) {
  const [picked, setPicked] = useState('');
  const add = useKeyedMutation(
    (body: TWebhookFields & { clientId: string }, key: string) =>
      dashboardCall('/webhooks', ZDashboardWebhookCreatedResponse, { method: 'POST', key, body }),
    [dashboardKeys.webhooks],
  );
  if (!clientIds) return <p>{DASHBOARD_TEXTS.loading}</p>;
  const clientId = picked || clientIds[0];
  if (!clientId) return <p>{DASHBOARD_TEXTS.noKeysForWebhooks}</p>;
  return (
    <WebhookForm
      title={DASHBOARD_TEXTS.addWebhook}
      initial={{ url: '', events: null }}
      submitLabel={DASHBOARD_TEXTS.webhookAddButton}
      busy={add.isPending}
      failure={add.error}
      extraFields={
        clientIds.length > 1 && (
          <label className="dash-field">
            {DASHBOARD_TEXTS.webhookKeyLabel}
            <select value={clientId} onChange={(e) => setPicked(e.target.value)}>
              {clientIds.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
          </label>
        )
      }
      onSubmit={(fields) =>
        add.mutate(
          { clientId, ...fields },
          { onSuccess: (answer) => onAdded({ url: answer.webhook.url, secret: answer.secret }) },
        )
      }
      onCancel={onCancel}
    />
  );
}

/** What may be done to a webhook: change, turn off or on, rotate its secret, delete; each says what it did. */
function useWebhookActs(
  hook: TDashboardWebhook,
  onSecret: (shown: TShownSecret) => void,
  onSaid: (said: string) => void,
) {
  const path = (action = '') => webhookPath(hook.webhookId, action);
  const change = useKeyedMutation(
    (body: TWebhookFields, key: string) =>
      dashboardCall(path(), ZDashboardWebhookResponse, { method: 'PATCH', key, body }),
    [dashboardKeys.webhooks],
  );
  const disable = useKeyedMutation(
    (_: string, key: string) =>
      dashboardCall(path('/disable'), ZDashboardOk, { method: 'POST', key }),
    [dashboardKeys.webhooks, dashboardKeys.deliveries],
  );
  const remove = useKeyedMutation(
    (_: string, key: string) => dashboardCall(path(), ZDashboardOk, { method: 'DELETE', key }),
    [dashboardKeys.webhooks, dashboardKeys.deliveries],
  );
  const enable = useKeyedMutation(
    (_: string, key: string) =>
      dashboardCall(path('/enable'), ZDashboardOk, { method: 'POST', key }),
    [dashboardKeys.webhooks],
  );
  // A retry after a lost answer is the same rotation (its key): rotated twice, the secret the
  // merchant's receiver holds would stop signing at once.
  const rotate = useKeyedMutation(
    (_: string, key: string) =>
      dashboardCall(path('/rotate-secret'), ZWebhookSecretResponse, { method: 'POST', key }),
    [],
  );
  const enableAgain = () =>
    enable.mutate(hook.webhookId, { onSuccess: () => onSaid(DASHBOARD_TEXTS.webhookEnabled) });
  const rotateSecret = () =>
    rotate.mutate(hook.webhookId, {
      onSuccess: (answer) =>
        onSecret({
          url: hook.url,
          secret: answer.secret,
          previousValidUntil: answer.previousSecretValidUntil,
        }),
    });
  const busy = disable.isPending || remove.isPending || enable.isPending || rotate.isPending;
  const failure = disable.error ?? remove.error ?? enable.error ?? rotate.error;
  return { change, disable, remove, enable, rotate, enableAgain, rotateSecret, busy, failure };
}

type TWebhookActs = ReturnType<typeof useWebhookActs>;

/**
 * The row's mode (its facts, its form, or the delete question), and the button a closed form or
 * question gives the focus back to, once the row draws it again.
 */
function useRowMode() {
  const [mode, setMode] = useState<'view' | 'edit' | 'delete'>('view');
  const returnTo = useRef<RefObject<HTMLButtonElement | null> | null>(null);
  useEffect(() => {
    if (mode !== 'view') return;
    returnTo.current?.current?.focus();
    returnTo.current = null;
  }, [mode]);
  const back = (to: RefObject<HTMLButtonElement | null>) => {
    returnTo.current = to;
    setMode('view');
  };
  return { mode, setMode, back };
}

/**
 * One webhook: its URL, status and events, and what may be done to it. Edit opens the form in
 * its place, prefilled; Delete asks first, in its place.
 */
function WebhookRow({
  hook,
  showKey,
  onSecret,
  onSaid,
  onDeleted,
}: {
  hook: TDashboardWebhook;
  showKey: boolean;
  onSecret: (shown: TShownSecret) => void;
  onSaid: (said: string) => void;
  onDeleted: () => void;
}) {
  const id = useId();
  const { mode, setMode, back } = useRowMode();
  const editRef = useRef<HTMLButtonElement>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const acts = useWebhookActs(hook, onSecret, onSaid);
  const { change, remove, failure } = acts;

  return (
    <li className="dash-row">
      <strong id={`${id}-url`} className="dash-break">
        {hook.url}
      </strong>
      <span className="dash-row-facts">
        <span className={`dash-status ${hook.status}`}>{hook.status}</span>
        {hook.disabledBy && (
          <span className="dash-muted">{DASHBOARD_TEXTS.webhookDisabledBy[hook.disabledBy]}</span>
        )}
      </span>
      <span className="dash-muted dash-break">{DASHBOARD_TEXTS.webhookEvents(hook.events)}</span>
      {showKey && <span className="dash-muted">{DASHBOARD_TEXTS.webhookKey(hook.clientId)}</span>}
      {mode === 'edit' && (
        <WebhookForm
          title={DASHBOARD_TEXTS.changeWebhookTitle}
          initial={{ url: hook.url, events: hook.events }}
          submitLabel={DASHBOARD_TEXTS.webhookSaveButton}
          busy={change.isPending}
          failure={change.error}
          onSubmit={(fields) =>
            change.mutate(fields, {
              onSuccess: () => {
                onSaid(DASHBOARD_TEXTS.webhookChanged);
                back(editRef);
              },
            })
          }
          onCancel={() => back(editRef)}
        />
      )}
      {mode === 'delete' && (
        <DeleteConfirm
          busy={remove.isPending}
          onConfirm={() =>
            remove.mutate(hook.webhookId, {
              onSuccess: () => {
                onSaid(DASHBOARD_TEXTS.webhookDeleted);
                onDeleted();
              },
            })
          }
          onBack={() => back(deleteRef)}
        />
      )}
      {mode === 'view' && (
        <WebhookActions
          labelledBy={`${id}-url`}
          hook={hook}
          acts={acts}
          editRef={editRef}
          deleteRef={deleteRef}
          onEdit={() => setMode('edit')}
          onDelete={() => setMode('delete')}
          onSaid={onSaid}
        />
      )}
      <FormError message={failure ? messageOf(failure) : null} />
    </li>
  );
}

/** The row's buttons: edit, turn off (or on), rotate the secret, delete. */
function WebhookActions({
  labelledBy,
  hook,
  acts,
  editRef,
  deleteRef,
  onEdit,
  onDelete,
  onSaid,
}: {
  labelledBy: string;
  hook: TDashboardWebhook;
  acts: TWebhookActs;
  editRef: RefObject<HTMLButtonElement | null>;
  deleteRef: RefObject<HTMLButtonElement | null>;
  onEdit: () => void;
  onDelete: () => void;
  onSaid: (said: string) => void;
}) {
  const { disable, enable, rotate, busy } = acts;
  return (
    <span className="dash-actions" role="group" aria-labelledby={labelledBy}>
      <Button ref={editRef} variant="secondary" disabled={busy} onClick={onEdit}>
        {DASHBOARD_TEXTS.webhookEdit}
      </Button>
      {hook.status === 'active' ? (
        <Button
          variant="secondary"
          disabled={busy}
          onClick={() =>
            disable.mutate(hook.webhookId, {
              onSuccess: () => onSaid(DASHBOARD_TEXTS.webhookDisabled),
            })
          }
        >
          {disable.isPending ? DASHBOARD_TEXTS.working : DASHBOARD_TEXTS.webhookDisable}
        </Button>
      ) : (
        <Button variant="secondary" disabled={busy} onClick={acts.enableAgain}>
          {enable.isPending ? DASHBOARD_TEXTS.working : DASHBOARD_TEXTS.enable}
        </Button>
      )}
      <Button variant="secondary" disabled={busy} onClick={acts.rotateSecret}>
        {rotate.isPending ? DASHBOARD_TEXTS.working : DASHBOARD_TEXTS.rotateWebhookSecret}
      </Button>
      <Button ref={deleteRef} variant="secondary" disabled={busy} onClick={onDelete}>
        {DASHBOARD_TEXTS.webhookDelete}
      </Button>
    </span>
  );
}

/** Delete, asked in the row: the question, then the act or the way back (focus on the act). */
function DeleteConfirm({
  busy,
  onConfirm,
  onBack,
}: {
  busy: boolean;
  onConfirm: () => void;
  onBack: () => void;
}) {
  const id = useId();
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => confirmRef.current?.focus(), []);
  return (
    <div role="group" aria-labelledby={`${id}-ask`} className="dash-confirm">
      <p id={`${id}-ask`}>{DASHBOARD_TEXTS.webhookDeleteAsk}</p>
      <div className="dash-actions">
        <Button ref={confirmRef} disabled={busy} onClick={onConfirm}>
          {busy ? DASHBOARD_TEXTS.working : DASHBOARD_TEXTS.webhookDeleteConfirm}
        </Button>
        <Button variant="secondary" disabled={busy} onClick={onBack}>
          {DASHBOARD_TEXTS.webhookDeleteBack}
        </Button>
      </div>
    </div>
  );
}

/**
 * A signing secret, this once: the panel says it will not be shown again, offers a copy, and
 * takes the focus so a screen reader reads it at once.
 */
function SecretPanel({ shown, onDone }: { shown: TShownSecret; onDone: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), [shown]);
  return (
    <section className="dash-secret" aria-labelledby="webhook-secret-title">
      <h3 id="webhook-secret-title" ref={headingRef} tabIndex={-1}>
        {DASHBOARD_TEXTS.secretTitle}
      </h3>
      <p className="dash-break">{DASHBOARD_TEXTS.secretOf(shown.url)}</p>
      <p>
        <strong>{DASHBOARD_TEXTS.secretOnce}</strong>
      </p>
      {shown.previousValidUntil && (
        <p className="dash-muted">
          {DASHBOARD_TEXTS.secretPrevious(formatDateTime(shown.previousValidUntil))}
        </p>
      )}
      <dl className="copy-details">
        <CopyRow label={DASHBOARD_TEXTS.secretLabel} value={shown.secret} />
      </dl>
      <div className="dash-actions">
        <Button variant="secondary" onClick={onDone}>
          {DASHBOARD_TEXTS.secretDone}
        </Button>
      </div>
    </section>
  );
}
