import { Fragment, useId, useState, type FormEvent, type ReactNode } from 'react';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import {
  WEBHOOK_EVENT_TYPES,
  ZWebhookEvents,
  ZWebhookUrl,
  type TWebhookEventType,
} from '../../domain/schemas/webhooks';
import { isApiError } from '../api/api-error';
import { Button } from '../ui/button';
import { FormError } from '../ui/form-error';
import { messageOf } from './api';

/** An event's type that a narrow screen breaks after a dot or an underscore, not mid-word. */
const breakable = (type: string) =>
  type.split(/(?<=[._])/).map((part, i) => (
    <Fragment key={part}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));

/** What the form asks of a webhook: its URL, and the events it is sent (null: every event). */
export type TWebhookFields = { url: string; events: TWebhookEventType[] | null };

/**
 * A webhook's URL and events, for a new one or prefilled with one's own (docs/dashboard.md
 * "Developers"). The domain's schemas check the fields before they are sent; a field that is
 * wrong says so beside itself, announced, and where the server refuses the URL (not https, not
 * public) it says so beside the URL too. Anything else is said under the form.
 */
export function WebhookForm({
  title,
  initial,
  submitLabel,
  busy,
  failure,
  extraFields,
  onSubmit,
  onCancel,
}: {
  title: string;
  initial: TWebhookFields;
  submitLabel: string;
  busy: boolean;
  failure: unknown;
  /** Fields asked before the URL (the API key a new webhook is for). */
  extraFields?: ReactNode;
  onSubmit: (fields: TWebhookFields) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [url, setUrl] = useState(initial.url);
  const [every, setEvery] = useState(initial.events === null);
  const [chosen, setChosen] = useState<TWebhookEventType[]>(initial.events ?? []);
  const [urlInvalid, setUrlInvalid] = useState(false);
  const [eventsInvalid, setEventsInvalid] = useState(false);
  const refused = isApiError(failure, 'WEBHOOK_URL_REFUSED');
  const urlError = urlInvalid
    ? DASHBOARD_TEXTS.webhookUrlInvalid
    : refused
      ? DASHBOARD_TEXTS.webhookUrlRefused
      : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsedUrl = ZWebhookUrl.safeParse(url.trim());
    // Ticked in the list's order, whatever order they were ticked in.
    const events = every ? null : WEBHOOK_EVENT_TYPES.filter((type) => chosen.includes(type));
    const eventsOk = events === null || ZWebhookEvents.safeParse(events).success;
    setUrlInvalid(!parsedUrl.success);
    setEventsInvalid(!eventsOk);
    if (!parsedUrl.success || !eventsOk) return;
    onSubmit({ url: parsedUrl.data, events });
  };
  const toggle = (type: TWebhookEventType, on: boolean) => {
    setChosen((list) => (on ? [...list, type] : list.filter((t) => t !== type)));
    if (on) setEventsInvalid(false);
  };

  return (
    <form
      className="dash-webhook-form"
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      noValidate
    >
      <h3 id={`${id}-title`}>{title}</h3>
      {extraFields}
      <WebhookUrlField
        id={id}
        url={url}
        urlError={urlError}
        onChange={(value) => {
          setUrl(value);
          setUrlInvalid(false);
        }}
      />
      <WebhookEventsFieldset
        id={id}
        every={every}
        chosen={chosen}
        eventsInvalid={eventsInvalid}
        onEvery={setEvery}
        onToggle={toggle}
      />
      <div className="dash-actions">
        <Button type="submit" disabled={busy}>
          {busy ? DASHBOARD_TEXTS.working : submitLabel}
        </Button>
        <Button variant="secondary" disabled={busy} onClick={onCancel}>
          {DASHBOARD_TEXTS.webhookCancel}
        </Button>
      </div>
      <FormError message={failure && !refused ? messageOf(failure) : null} />
    </form>
  );
}

/** The webhook's URL, its hint, and what is wrong with it, announced. */
function WebhookUrlField({
  id,
  url,
  urlError,
  onChange,
}: {
  id: string;
  url: string;
  urlError: string | null;
  onChange: (url: string) => void;
}) {
  return (
    <>
      <label className="dash-field">
        {DASHBOARD_TEXTS.webhookUrlLabel}
        <input
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          required
          maxLength={2_000}
          aria-invalid={urlError !== null}
          aria-describedby={urlError ? `${id}-url-hint ${id}-url-error` : `${id}-url-hint`}
          value={url}
          onChange={(e) => onChange(e.target.value)}
        />
        <span id={`${id}-url-hint`} className="dash-hint">
          {DASHBOARD_TEXTS.webhookUrlHint}
        </span>
      </label>
      {urlError && (
        <p id={`${id}-url-error`} className="form-error" role="alert">
          {urlError}
        </p>
      )}
    </>
  );
}

/** Every event, or the events ticked from the list; none ticked is said under the list. */
function WebhookEventsFieldset({
  id,
  every,
  chosen,
  eventsInvalid,
  onEvery,
  onToggle,
}: {
  id: string;
  every: boolean;
  chosen: TWebhookEventType[];
  eventsInvalid: boolean;
  onEvery: (every: boolean) => void;
  onToggle: (type: TWebhookEventType, on: boolean) => void;
}) {
  return (
    <fieldset
      className="dash-fieldset"
      aria-describedby={eventsInvalid ? `${id}-events-error` : undefined}
    >
      <legend>{DASHBOARD_TEXTS.webhookEventsLegend}</legend>
      <label className="dash-check">
        <input type="radio" name={`${id}-scope`} checked={every} onChange={() => onEvery(true)} />
        {DASHBOARD_TEXTS.webhookEveryEvent}
      </label>
      <label className="dash-check">
        <input type="radio" name={`${id}-scope`} checked={!every} onChange={() => onEvery(false)} />
        {DASHBOARD_TEXTS.webhookChosenEvents}
      </label>
      {!every && (
        <fieldset className="dash-fieldset dash-checks">
          <legend>{DASHBOARD_TEXTS.webhookEventsChoose}</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="dash-check">
              <input
                type="checkbox"
                checked={chosen.includes(type)}
                aria-invalid={eventsInvalid}
                onChange={(e) => onToggle(type, e.target.checked)}
              />
              <code>{breakable(type)}</code>
            </label>
          ))}
        </fieldset>
      )}
      {eventsInvalid && (
        <p id={`${id}-events-error`} className="form-error" role="alert">
          {DASHBOARD_TEXTS.webhookEventsRequired}
        </p>
      )}
    </fieldset>
  );
}
