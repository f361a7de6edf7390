import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { CONSENT_EXPIRY_MS, DATA_CATEGORIES } from '../../../domain/constants';
import {
  capabilitiesMissing,
  consentAsks,
  type TCapabilitiesOn,
} from '../../../domain/capabilities';
import { isConsentAvailable } from '../../../domain/consent-availability';
import type { TConsent, TDataSharing, TPayment } from '../../../domain/schemas/consent';
import type {
  TCreateConsentRequest,
  TMerchantConsentResponse,
  TMerchantConsentsQuery,
  TMerchantConsentsResponse,
} from '../../../domain/schemas/merchant-api';
import { randomId } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import type { TEventBus } from '../../events/event-bus';
import { apiClients, consents, dataSharingItems, merchants, payments } from '../../db/schema';
import { AppError } from '../../app-error';
import { capabilityOff } from '../../providers/off';
import { decodeListCursor, encodeListCursor } from '../list-cursor';
import {
  merchantConsentDetails,
  type TMerchantConsentDetails,
} from '../merchants/merchant-consent-details';
import {
  fingerprintOf,
  runIdempotent,
  runIdempotentStatement,
  type TIdempotencyRequest,
} from '../idempotency';
import { isUniqueViolation } from '../../db/database-errors';
import { jsonRow, rowOfJson } from '../../db/json-rows';
import { preparedQuery } from '../../db/prepared-queries';
import { eventOf } from '../../events/database-event-bus';
import type { TAuthenticatedClient } from '../merchants/merchant-clients';
import {
  consentWrites,
  insertConsent,
  ownFormCondition,
  type TNewConsentRows,
} from './consent-inserts';

type TConsentRow = typeof consents.$inferSelect;
type TPaymentRow = typeof payments.$inferSelect;
type TMerchantRow = typeof merchants.$inferSelect;
type TDataItemRow = typeof dataSharingItems.$inferSelect;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export type TCreateConsentContext = {
  clientId: string;
  merchantId: string;
  /**
   * What the client's authentication read of it and its merchant (merchant-clients.ts), so the
   * creation reads neither again; read here when absent (the demo seed).
   */
  authenticated?: Pick<TAuthenticatedClient, 'walletBankName' | 'allowedOrigins'>;
  /** Idempotency-Key header: a retry with the same key and body answers the first consent. */
  idempotencyKey?: string | undefined;
  now?: Date;
  /** Where 'consent.created' is published once the consent is committed (not on a replay). */
  events?: TEventBus;
  /** What this server can do: a consent that needs a capability that is off is refused. */
  capabilities: TCapabilitiesOn;
};

/** Where a client's Idempotency-Keys of consent creation live. */
export const consentCreationScope = (clientId: string) => `consents.create:${clientId}`;

/** The merchant a new consent is for, when its client's authentication did not read it. */
const prepareMerchant = (db: TDb) =>
  db
    .select({ walletBankName: merchants.walletBankName })
    .from(merchants)
    .where(eq(merchants.id, sql.placeholder('merchantId')))
    .prepare('consent_merchant');

type TCreated = { consentId: string; expiresAt: string };

/**
 * Creates a consent, its payments and data-sharing items, its first audit event and its
 * idempotency key at once: either all of it is written or none. A consent that passes its checks
 * is one statement with its key and its bus notice (runIdempotentStatement); an expired one, or
 * one whose form check failed there, goes through runIdempotent, which answers a retry of an
 * earlier consent before any check, as it always did.
 */
export async function createConsent(
  db: TDb,
  input: TCreateConsentRequest,
  ctx: TCreateConsentContext,
): Promise<TCreated & { created: boolean }> {
  const now = ctx.now ?? new Date();
  const expiresAt = input.expiresAt
    ? new Date(input.expiresAt)
    : new Date(now.getTime() + CONSENT_EXPIRY_MS); // spec §9: 24 h
  const merchant = {
    id: ctx.merchantId,
    walletBankName: await walletBankNameOf(db, ctx),
  };
  const missing = capabilitiesMissing(consentAsks(input), ctx.capabilities);
  if (missing.length > 0) throw capabilityOff(missing);
  await assertReturnOrigin(db, ctx, input.returnUrl);
  const byReference = input.reference
    ? { reference: input.reference, fingerprint: fingerprintOf(input) }
    : null;
  if (byReference) {
    const first = await consentOfReference(db, ctx.clientId, byReference);
    if (first) return { ...first, created: false };
  }
  const idempotency = ctx.idempotencyKey
    ? { scope: consentCreationScope(ctx.clientId), key: ctx.idempotencyKey, request: input }
    : undefined;
  const rows: TNewConsentRows = {
    merchant,
    clientId: ctx.clientId,
    expiresAt,
    actor: `client:${ctx.clientId}`,
    referenceFingerprint: byReference?.fingerprint ?? null,
  };
  const expired = expiresAt.getTime() <= now.getTime();

  let outcome: TCreation;
  try {
    outcome =
      (expired ? null : await createInOneStatement(db, input, rows, idempotency, ctx)) ??
      (await createInTransaction(db, input, rows, idempotency, expired));
  } catch (error) {
    // Two creates with one reference at once: the index let one in, the other answers it.
    const first =
      byReference && isUniqueViolation(error)
        ? await consentOfReference(db, ctx.clientId, byReference)
        : null;
    if (!first) throw error;
    return { ...first, created: false };
  }
  const { result, replayed, notified } = outcome;
  if (!replayed && !notified) {
    await ctx.events?.publish(createdEvent(result.consentId, ctx));
  }
  return { ...result, created: !replayed };
}

const createdEvent = (consentId: string, ctx: TCreateConsentContext) => ({
  type: 'consent.created' as const,
  data: { consentId, clientId: ctx.clientId, merchantId: ctx.merchantId },
});

/** A creation's answer; `notified` when its bus notice went with its statement. */
type TCreation = { result: TCreated; replayed: boolean; notified: boolean };

/**
 * The consent, its key with its answer, and its bus notice when the bus is the database's, as one
 * statement (bench/README.md "Statements a payment"). The form check is made in it: a foreign
 * form claims no key and writes nothing, and answers null, so that createInTransaction answers
 * it (a retry of an earlier consent, or the refusal).
 */
async function createInOneStatement(
  db: TDb,
  input: TCreateConsentRequest,
  rows: TNewConsentRows,
  idempotency: TIdempotencyRequest | undefined,
  ctx: TCreateConsentContext,
): Promise<TCreation | null> {
  const consentId = randomId('cns');
  const answer: TCreated = { consentId, expiresAt: rows.expiresAt.toISOString() };
  // Sent with the consent, PostgreSQL delivers it once the consent is committed, never before.
  const channel = (await ctx.events?.notifyChannel?.().catch(() => null)) ?? null;
  const notice = channel
    ? sql`, told AS (SELECT pg_notify(${channel}, ${JSON.stringify(
        eventOf(createdEvent(consentId, ctx)),
      )}) FROM made)`
    : sql``;
  const written = await runIdempotentStatement<TCreated, { told: number }>(
    db,
    idempotency,
    answer,
    {
      allowed: ownFormCondition(input.formId, rows.merchant.id),
      writes: (go) => sql`${consentWrites(consentId, input, rows, go)} ${notice}`,
      answers: channel ? sql`(SELECT count(*)::int FROM told) AS told` : sql`0 AS told`,
    },
  );
  if (written.outcome === 'refused') return null;
  if (written.outcome === 'replayed') {
    return { result: written.result, replayed: true, notified: false };
  }
  return { result: answer, replayed: false, notified: written.row.told > 0 };
}

/**
 * The consent through runIdempotent, whose claim comes before every check: a retry of a consent
 * created before its expiry passed, or before its form became another merchant's, still answers
 * it; anything else is refused.
 */
async function createInTransaction(
  db: TDb,
  input: TCreateConsentRequest,
  rows: TNewConsentRows,
  idempotency: TIdempotencyRequest | undefined,
  expired: boolean,
): Promise<TCreation> {
  const done = await runIdempotent(db, idempotency, async (tx) => {
    if (expired) throw new AppError('VALIDATION_FAILED', 'expiresAt: must be in the future');
    const consentId = await insertConsent(tx, input, rows);
    return { consentId, expiresAt: rows.expiresAt.toISOString() };
  });
  return { ...done, notified: false };
}

/** The bank of the merchant's wallet, as the client's authentication read it or read now. */
async function walletBankNameOf(db: TDb, ctx: TCreateConsentContext): Promise<string | null> {
  if (ctx.authenticated) return ctx.authenticated.walletBankName;
  const [merchant] = await preparedQuery(db, 'consent_merchant', prepareMerchant).execute({
    merchantId: ctx.merchantId,
  });
  if (!merchant) throw new AppError('INVALID_CLIENT_CREDENTIALS');
  return merchant.walletBankName;
}

/**
 * The consent a client created with this reference, when the same request made it (an
 * idempotent retry); another request with the reference is refused; null when none has it.
 */
async function consentOfReference(
  db: TDb,
  clientId: string,
  { reference, fingerprint }: { reference: string; fingerprint: string },
): Promise<{ consentId: string; expiresAt: string } | null> {
  const [first] = await db
    .select({
      id: consents.id,
      expiresAt: consents.expiresAt,
      fingerprint: consents.referenceFingerprint,
    })
    .from(consents)
    .where(and(eq(consents.clientId, clientId), eq(consents.reference, reference)));
  if (!first) return null;
  if (first.fingerprint !== fingerprint) throw new AppError('REFERENCE_REUSED');
  return { consentId: first.id, expiresAt: first.expiresAt.toISOString() };
}

/** A return URL must be on an origin the client registered (its embedding origins). */
async function assertReturnOrigin(
  db: TDb,
  ctx: TCreateConsentContext,
  returnUrl: string | undefined,
) {
  if (returnUrl === undefined) return;
  const origins = ctx.authenticated
    ? ctx.authenticated.allowedOrigins
    : (
        await db
          .select({ origins: apiClients.allowedOrigins })
          .from(apiClients)
          .where(eq(apiClients.clientId, ctx.clientId))
      )[0]?.origins;
  if (!origins?.includes(new URL(returnUrl).origin)) {
    throw new AppError(
      'VALIDATION_FAILED',
      'returnUrl: its origin is not registered for this client (npm run client:origins)',
    );
  }
}

function toDataSharing(rows: TDataItemRow[]): TDataSharing | null {
  if (rows.length === 0) return null;
  const result: TDataSharing = {};
  for (const category of DATA_CATEGORIES) {
    const mine = rows.filter((r) => r.category === category);
    if (mine.length === 0) continue;
    const named = mine.flatMap((r) => (r.item === null ? [] : [r.item]));
    result[category] = named.length > 0 ? named : true;
  }
  return result;
}

function toPayment(row: TPaymentRow): TPayment {
  return {
    paymentId: row.id,
    type: row.type,
    status: row.status,
    executedAt: iso(row.executedAt),
    amount: row.amount,
    narration: row.narration,
    dueDate: iso(row.dueDate),
    startDate: iso(row.startDate),
    endDate: iso(row.endDate),
    frequency: row.frequency,
    interval: row.interval,
    amountType: row.amountType,
    paypointId: row.paypointId,
    paypointDetails: row.paypointLocationName
      ? { location: { name: row.paypointLocationName } }
      : null,
    shieldWallet: row.shieldWalletBankName ? { bankName: row.shieldWalletBankName } : null,
    origin: row.origin ?? null,
  };
}

function toConsent(
  row: TConsentRow,
  merchant: TMerchantRow,
  paymentRows: TPaymentRow[],
  itemRows: TDataItemRow[],
): TConsent {
  return {
    consentId: row.id,
    status: row.status,
    grantedAt: iso(row.grantedAt),
    expiresAt: row.expiresAt.toISOString(),
    counterparty: {
      name: merchant.name,
      image: merchant.image,
      tag: merchant.tag,
      type: merchant.type,
      merchantId: merchant.id,
      merchantColours: {
        primaryColour: merchant.primaryColour,
        primaryText: merchant.primaryText,
        secondaryColour: merchant.secondaryColour,
        secondaryText: merchant.secondaryText,
      },
    },
    party: row.partyImage ? { image: row.partyImage } : null,
    actOnBehalfOf: row.actOnBehalfOf ?? null,
    payments: paymentRows.map(toPayment),
    dataSharing: toDataSharing(itemRows),
    formId: row.formId,
    formResponseId: row.formResponseId,
    formUpdateToken: row.formUpdateToken,
    formCompletion: row.formTemplateValues
      ? { templateLiteralValues: row.formTemplateValues }
      : null,
    requirements: { requiresAuth: row.requiresAuth, requiresAccount: row.requiresAccount },
    attestDiscoveryId: row.attestDiscoveryId,
    attestAuthAppId: row.authAppId,
    authAppId: row.authAppId,
  };
}

/** What a consent read joins to the consent: merchant, client origins, payments, items. */
const consentReadWith = {
  merchant: true,
  client: { columns: { allowedOrigins: true } },
  payments: { orderBy: asc(payments.position) },
  dataSharingItems: { orderBy: asc(dataSharingItems.id) },
} as const;

/** The consent read as one prepared query. */
const prepareConsentRead = (db: TDb) =>
  db.query.consents
    .findFirst({ where: eq(consents.id, sql.placeholder('consentId')), with: consentReadWith })
    .prepare('consent_read');

type TConsentReadRow = NonNullable<
  Awaited<ReturnType<ReturnType<typeof prepareConsentRead>['execute']>>
>;

function loadedOf(row: TConsentReadRow): TLoadedConsent {
  return {
    consent: toConsent(row, row.merchant, row.payments, row.dataSharingItems),
    clientId: row.clientId,
    embedOrigins: row.client.allowedOrigins,
    grantedBy: row.grantedBy,
    revokedAt: iso(row.revokedAt),
    pausedAt: iso(row.pausedAt),
    dataSharingExpiresAt: iso(row.dataSharingExpiresAt),
    dataSharingEndedAt: iso(row.dataSharingEndedAt),
    reference: row.reference,
    metadata: row.metadata ?? {},
    returnUrl: row.returnUrl,
  };
}

export type TLoadedConsent = {
  consent: TConsent;
  /** The client that owns the consent, and the origins it registered for embedding. */
  clientId: string;
  embedOrigins: string[];
  /** The signed-in payer who granted it, and when they revoked it (docs/payer-consents.md). */
  grantedBy: string | null;
  revokedAt: string | null;
  /** Since when its payer has paused its future payments; null while they run. */
  pausedAt: string | null;
  /** Data sharing's end unless confirmed again, and when the expiry job ended it. */
  dataSharingExpiresAt: string | null;
  dataSharingEndedAt: string | null;
  /** The merchant's own reference, metadata and return address (merchant-api.ts). */
  reference: string | null;
  metadata: Record<string, string>;
  returnUrl: string | null;
};

/** Loads a consent with everything it asks for, whatever its state; null when unknown. */
export async function loadConsent(db: TDb, consentId: string): Promise<TLoadedConsent | null> {
  const read = preparedQuery(db, 'consent_read', prepareConsentRead);
  const row = await read.execute({ consentId });
  return row ? loadedOf(row) : null;
}

/** loadConsent of several consents in one query, in the order of `consentIds` (null when unknown). */
async function loadConsents(db: TDb, consentIds: string[]): Promise<(TLoadedConsent | null)[]> {
  if (consentIds.length === 0) return [];
  const rows = await db.query.consents.findMany({
    where: inArray(consents.id, consentIds),
    with: consentReadWith,
  });
  const byId = new Map(rows.map((row) => [row.id, loadedOf(row)]));
  return consentIds.map((id) => byId.get(id) ?? null);
}

/** The consent's payments, apart from any `payments` of the query that reads its consent. */
const ownPayments = alias(payments, 'consent_payments');

/*
 * Each part of a consent's JSON is an SQL of its own: a select from one table writes the columns
 * at its fields' top level without their table's name, which inside these subqueries would name
 * the subquery's own table.
 */
const merchantOfConsent = sql`(select ${jsonRow(merchants)} from ${merchants}
  where ${merchants.id} = ${consents.merchantId})`;
const paymentsOfConsent = sql`(select coalesce(json_agg(${jsonRow(ownPayments)}
  order by ${ownPayments.position}), '[]') from ${payments} ${ownPayments}
  where ${ownPayments.consentId} = ${consents.id})`;
const itemsOfConsent = sql`(select coalesce(json_agg(${jsonRow(dataSharingItems)}
  order by ${dataSharingItems.id}), '[]') from ${dataSharingItems}
  where ${dataSharingItems.consentId} = ${consents.id})`;

/**
 * The consent of the query's `consents` row, with its merchant, payments and data-sharing items,
 * as one JSON value: a statement that reads the consent beside other rows (the completion's lock,
 * payments/attempts/completion.ts) reads what loadConsent reads, with no statement of its own.
 * consentOfJson reads it back.
 */
export const consentAsJson: SQL = sql`json_build_array(${jsonRow(consents)}, ${merchantOfConsent},
  ${paymentsOfConsent}, ${itemsOfConsent})`;

/** The consent consentAsJson read, as loadConsent answers it. */
export function consentOfJson(json: unknown): TConsent {
  const [row, merchant, paymentRows, itemRows] = json as [
    unknown[],
    unknown[],
    unknown[][],
    unknown[][],
  ];
  return toConsent(
    rowOfJson(consents, row),
    rowOfJson(merchants, merchant),
    paymentRows.map((values) => rowOfJson(payments, values)),
    itemRows.map((values) => rowOfJson(dataSharingItems, values)),
  );
}

/**
 * The consent as the page may see it (spec §7 GET /api/consent/{id}?clientId=): unknown,
 * expired or uncollectable consents are not found; another client's consent is forbidden.
 */
export async function readConsentForClient(
  db: TDb,
  consentId: string,
  clientId: string,
  now: Date = new Date(),
): Promise<TLoadedConsent> {
  return readableByClient(await loadConsent(db, consentId), clientId, (found) =>
    isConsentAvailable(found.consent, now),
  );
}

/** The rule of readConsentForClient, for a consent already loaded (or null when unknown). */
export function readableByClient<T extends { clientId: string }>(
  found: T | null,
  clientId: string,
  isAvailable: (found: T) => boolean,
): T {
  if (!found || !isAvailable(found)) throw new AppError('CONSENT_NOT_FOUND');
  if (found.clientId !== clientId) throw new AppError('CONSENT_FORBIDDEN');
  return found;
}

type TMerchantConsent = TMerchantConsentResponse['consent'];

/** A consent as its merchant reads it; another merchant's consent reads as absent. */
function merchantView(
  found: TLoadedConsent | null,
  merchantId: string,
  details: TMerchantConsentDetails | undefined,
): TMerchantConsent {
  // Its id tells another merchant nothing.
  if (!found || !details || found.consent.counterparty.merchantId !== merchantId) {
    throw new AppError('CONSENT_NOT_FOUND');
  }
  return {
    ...found.consent,
    revokedAt: found.revokedAt,
    pausedAt: found.pausedAt,
    dataSharingExpiresAt: found.dataSharingExpiresAt,
    dataSharingEndedAt: found.dataSharingEndedAt,
    ...details,
    reference: found.reference,
    metadata: found.metadata,
    returnUrl: found.returnUrl,
  };
}

/**
 * GET /api/v1/consents/{id}: one of the merchant's consents, whatever its state or expiry, with
 * the mandates of the accounts chosen for its future payments and its form response.
 */
export async function readMerchantConsent(
  db: TDb,
  merchantId: string,
  consentId: string,
): Promise<TMerchantConsent> {
  const [found, [details]] = await Promise.all([
    loadConsent(db, consentId),
    merchantConsentDetails(db, [consentId]),
  ]);
  return merchantView(found, merchantId, details);
}

/**
 * GET /api/v1/consents: the merchant's consents newest first, of one status when asked, each as
 * its single read answers it. The order is the creation time to the millisecond (what a cursor
 * carries), then the id.
 */
export async function listMerchantConsents(
  db: TDb,
  merchantId: string,
  query: TMerchantConsentsQuery,
): Promise<Omit<TMerchantConsentsResponse, 'success'>> {
  const after = query.cursor ? decodeListCursor(query.cursor) : null;
  const created = sql<Date>`date_trunc('milliseconds', ${consents.createdAt})`;
  const rows = await db
    .select({ id: consents.id, createdAt: created.mapWith(consents.createdAt) })
    .from(consents)
    .where(
      and(
        eq(consents.merchantId, merchantId),
        query.status ? eq(consents.status, query.status) : undefined,
        query.reference ? eq(consents.reference, query.reference) : undefined,
        after ? sql`(${created}, ${consents.id}) < (${after.at}, ${after.id})` : undefined,
      ),
    )
    .orderBy(desc(created), desc(consents.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const ids = page.map((row) => row.id);
  const [loaded, details] = await Promise.all([
    loadConsents(db, ids),
    merchantConsentDetails(db, ids),
  ]);
  const read = page.map((_, i) => merchantView(loaded[i] ?? null, merchantId, details[i]));
  const last = page.at(-1);
  return {
    consents: read,
    nextCursor:
      rows.length > query.limit && last ? encodeListCursor(last.createdAt, last.id) : null,
  };
}
