import { DATA_CATEGORIES } from '../../../domain/constants';
import type { TPaymentOrigin } from '../../../domain/schemas/consent';
import type { TDatabase, TRawStatement } from '../../db/database';

/*
 * The page's consent read (GET /api/consent/{id}) as the database writes it: the answer's JSON
 * text, built by the query, with what the route still has to decide on beside it. Node neither
 * maps rows into objects nor checks and serialises them: on PostgreSQL that work cost more of
 * the server's CPU than the query itself.
 *
 * The text is the answer ZConsentReadResponse describes, the same JSON loadConsent's objects
 * serialise to, each origin as whoever holds the link sees it (originForLink;
 * routes/consents.test.ts compares them field by field): the keys in the schema's
 * order, timestamps as toISOString() writes them (milliseconds, truncated as Date truncates
 * microseconds), `x ? {…} : null` for the optional objects, data sharing as toDataSharing
 * groups it.
 */

export type TConsentReadAnswer = {
  /** The client that owns the consent: only it may read it. */
  readonly clientId: string;
  /** expiresAt in milliseconds since the epoch. */
  readonly expiresAtMs: number;
  /** Every immediate payment has a shield wallet to collect into (spec §5 last rule). */
  readonly collectable: boolean;
  /** `{"success":true,"consent":{…},"embedOrigins":[…],"returnUrl":…}`. */
  readonly body: string;
};

// Written into the text once: they are fixed identifiers, never input.
const categories = DATA_CATEGORIES.map((category) => {
  if (!/^[A-Za-z]+$/.test(category)) throw new Error(`Not a data category: ${category}`);
  return `'${category}'`;
}).join(', ');

/** A timestamp as Date.prototype.toISOString writes it. */
const isoText = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The merchant and the client are subqueries, each one lookup by its key for each consent found:
 * joined, PostgreSQL's plan for ten ids hashed the whole of both tables on every execution.
 */
export const CONSENT_READ_STATEMENT: TRawStatement = {
  name: 'consent_read_answer',
  text: `
select
  c.id,
  c.client_id,
  (extract(epoch from c.expires_at) * 1000)::float8,
  coalesce(p.collectable, true),
  json_build_object(
    'success', true,
    'consent', json_build_object(
      'consentId', c.id,
      'status', c.status,
      'grantedAt', ${isoText('c.granted_at')},
      'expiresAt', ${isoText('c.expires_at')},
      'counterparty', (select json_build_object(
        'name', m.name,
        'image', m.image,
        'tag', m.tag,
        'type', m.type,
        'merchantId', m.id,
        'merchantColours', json_build_object(
          'primaryColour', m.primary_colour,
          'primaryText', m.primary_text,
          'secondaryColour', m.secondary_colour,
          'secondaryText', m.secondary_text))
        from merchants m where m.id = c.merchant_id),
      'party', case when c.party_image <> '' then json_build_object('image', c.party_image) end,
      'actOnBehalfOf', nullif(c.act_on_behalf_of, 'null'),
      'payments', coalesce(p.list, '[]'),
      'dataSharing', d.sharing,
      'formId', c.form_id,
      'formResponseId', c.form_response_id,
      'formUpdateToken', c.form_update_token,
      'formCompletion', case when nullif(c.form_template_values, 'null') is not null
        then json_build_object('templateLiteralValues', c.form_template_values) end,
      'requirements', json_build_object(
        'requiresAuth', c.requires_auth,
        'requiresAccount', c.requires_account),
      'attestDiscoveryId', c.attest_discovery_id,
      'attestAuthAppId', c.auth_app_id,
      'authAppId', c.auth_app_id),
    'embedOrigins', (select a.allowed_origins from api_clients a where a.client_id = c.client_id),
    'returnUrl', c.return_url
  )::text,
  coalesce(p.has_origin, false)
from consents c
left join lateral (
  select
    json_agg(json_build_object(
      'paymentId', x.id,
      'type', x.type,
      'status', x.status,
      'executedAt', ${isoText('x.executed_at')},
      'amount', x.amount,
      'narration', x.narration,
      'dueDate', ${isoText('x.due_date')},
      'startDate', ${isoText('x.start_date')},
      'endDate', ${isoText('x.end_date')},
      'frequency', x.frequency,
      'interval', x.interval,
      'amountType', x.amount_type,
      'paypointId', x.paypoint_id,
      'paypointDetails', case when x.paypoint_location_name <> ''
        then json_build_object('location', json_build_object('name', x.paypoint_location_name)) end,
      'shieldWallet', case when x.shield_wallet_bank_name <> ''
        then json_build_object('bankName', x.shield_wallet_bank_name) end,
      'origin', nullif(x.origin, 'null')) order by x.position) as list,
    bool_and(x.type <> 'immediate' or coalesce(x.shield_wallet_bank_name, '') <> '') as collectable,
    bool_or(nullif(x.origin, 'null') is not null) as has_origin
  from payments x
  where x.consent_id = c.id
) p on true
left join lateral (
  -- A category with named items lists them; one asked for as a whole (item null) is true.
  select json_object_agg(g.category, coalesce(g.named, 'true')
    order by array_position(array[${categories}], g.category)) as sharing
  from (
    select y.category, json_agg(y.item order by y.id) filter (where y.item is not null) as named
    from data_sharing_items y
    where y.consent_id = c.id and y.category in (${categories})
    group by y.category
  ) g
) d on true
where c.id = any($1::text[])`,
};

/**
 * A payment's origin as the consent read shows it (docs/payments.md "Who reads a payment"): how
 * it was paid and what the page offers after it, which choose the page's screen
 * (src/domain/consent-screen.ts: the prompt to link the account or save the card, 'Saved bank
 * account' on Consent Granted). The read is anyone's who holds the link, and the link is every
 * paying page's: the bank, account and card the money came from are read from the payment
 * (GET /api/payments/{paymentId}), by its payer alone. The keys keep the schema's order.
 */
export function originForLink(origin: TPaymentOrigin): TPaymentOrigin {
  return {
    paymentMethod: origin.paymentMethod,
    // A saved account's debit names its linked account: 'bankId' says so, its value is the payer's.
    ...('bankId' in origin ? { bankId: null } : {}),
    ...(origin.shouldPromptCardLinking === undefined
      ? {}
      : { shouldPromptCardLinking: origin.shouldPromptCardLinking }),
    ...(origin.shouldPromptBankAccountLinking === undefined
      ? {}
      : { shouldPromptBankAccountLinking: origin.shouldPromptBankAccountLinking }),
  };
}

/**
 * The answer with each payment's origin as the link sees it (originForLink). Only an answer with
 * a paid payment comes here; the others go out as the database wrote them.
 */
function linkOrigins(body: string): string {
  const answer = JSON.parse(body) as { consent: { payments: Array<{ origin: unknown }> } };
  for (const payment of answer.consent.payments) {
    if (payment.origin) payment.origin = originForLink(payment.origin as TPaymentOrigin);
  }
  return JSON.stringify(answer);
}

/**
 * Ids one query asks for, always: fewer are padded with repeats of the first. PostgreSQL plans
 * `= any($1)` for 10 elements whatever the array holds, so a prepared statement asked for one id
 * looks ten times cheaper planned for its value than its cached plan does, and was planned again
 * on every execution (three times the CPU of the query itself). Asked for ten, the cached plan
 * costs what a fresh one would, and PostgreSQL keeps it after its fifth execution.
 */
export const CONSENT_READ_BATCH_SIZE = 10;

/** The answers for up to CONSENT_READ_BATCH_SIZE consents, by id; an unknown id is left out. */
export async function readConsentAnswers(
  database: Pick<TDatabase, 'rows'>,
  consentIds: string[],
): Promise<Map<string, TConsentReadAnswer>> {
  const ids = Array.from(
    { length: CONSENT_READ_BATCH_SIZE },
    (_, i) => consentIds[i] ?? consentIds[0],
  );
  const rows = await database.rows(CONSENT_READ_STATEMENT, [ids]);
  return new Map(
    rows.map((row) => [
      row[0] as string,
      {
        clientId: row[1] as string,
        expiresAtMs: row[2] as number,
        collectable: row[3] as boolean,
        body: row[5] ? linkOrigins(row[4] as string) : (row[4] as string),
      },
    ]),
  );
}

/**
 * Batch queries a process keeps in flight at once: reads that arrive while they are out wait for
 * the next, so the busier the server, the more reads each round trip carries.
 */
export const CONSENT_READ_QUERIES_IN_FLIGHT = 2;

/**
 * Reads that arrive together share one query: each read joins the open batch, and the batch is
 * sent once the event loop's current turn of I/O is handled (setImmediate) and fewer than
 * CONSENT_READ_QUERIES_IN_FLIGHT batch queries are out; until then it stays open, and reads that
 * arrive meanwhile join it. A batch's query is sent after every read in it began, so it sees every
 * change committed before any of them: nothing is older than a query of its own would be. The
 * fixed cost of a round trip to the database (the driver's, the socket's and the database's) was
 * most of a read's on PostgreSQL; under load it is now shared by many reads, and an idle server
 * answers a lone read as soon as before.
 */
export function batchedConsentAnswers(
  database: Pick<TDatabase, 'rows'>,
  queriesInFlight = CONSENT_READ_QUERIES_IN_FLIGHT,
): (consentId: string) => Promise<TConsentReadAnswer | null> {
  type TWaiter = (answers: Map<string, TConsentReadAnswer> | Error) => void;
  type TBatch = Map<string, TWaiter[]>;
  // The batch reads join; ready once its turn's I/O is handled.
  let open: TBatch | null = null;
  let openReady = false;
  // Batches that reached CONSENT_READ_BATCH_SIZE ids, waiting for a query slot.
  const full: TBatch[] = [];
  let inFlight = 0;

  const send = (ids: TBatch) => {
    inFlight += 1;
    readConsentAnswers(database, [...ids.keys()])
      .then(
        (answers) => ids.forEach((waiters) => waiters.forEach((waiter) => waiter(answers))),
        (error: Error) => ids.forEach((waiters) => waiters.forEach((waiter) => waiter(error))),
      )
      .finally(() => {
        inFlight -= 1;
        pump();
      });
  };
  const pump = () => {
    while (inFlight < queriesInFlight) {
      let next = full.shift();
      if (!next && open && openReady) {
        next = open;
        open = null;
      }
      if (!next) return;
      send(next);
    }
  };

  return (consentId) =>
    new Promise((resolve, reject) => {
      if (open && open.size >= CONSENT_READ_BATCH_SIZE && !open.has(consentId)) {
        full.push(open);
        open = null;
      }
      if (!open) {
        const batch: TBatch = new Map();
        open = batch;
        openReady = false;
        setImmediate(() => {
          if (open === batch) openReady = true;
          pump();
        });
      }
      const waiter: TWaiter = (answers) =>
        answers instanceof Error ? reject(answers) : resolve(answers.get(consentId) ?? null);
      const waiters = open.get(consentId);
      if (waiters) waiters.push(waiter);
      else open.set(consentId, [waiter]);
    });
}
