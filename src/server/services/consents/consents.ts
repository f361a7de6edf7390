import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
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
import {
  apiClients,
  consents,
  dataSharingItems,
  forms,
  merchants,
  payments,
} from '../../db/schema';
import { AppError } from '../../app-error';
import { capabilityOff } from '../../providers/off';
import { decodeListCursor, encodeListCursor } from '../list-cursor';
import {
  merchantConsentDetails,
  type TMerchantConsentDetails,
} from '../merchants/merchant-consent-details';
import { fingerprintOf, runIdempotent } from '../idempotency';
import { isUniqueViolation } from '../../db/database-errors';
import { placeholdersFor, preparedQuery } from '../../db/prepared-queries';
import { insertConsentEvent } from './consent-changes';

type TConsentRow = typeof consents.$inferSelect;
type TPaymentRow = typeof payments.$inferSelect;
type TMerchantRow = typeof merchants.$inferSelect;
type TDataItemRow = typeof dataSharingItems.$inferSelect;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
const dateOrNull = (s: string | undefined): Date | null => (s ? new Date(s) : null);

export type TCreateConsentContext = {
  clientId: string;
  merchantId: string;
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

/** The merchant a new consent is for: prepared once. */
const prepareMerchant = (db: TDb) =>
  db
    .select()
    .from(merchants)
    .where(eq(merchants.id, sql.placeholder('merchantId')))
    .prepare('consent_merchant');

/**
 * Creates a consent, its payments and data-sharing items, its first audit event and its
 * idempotency key in one transaction: either all of it is written or none.
 */
export async function createConsent(
  db: TDb,
  input: TCreateConsentRequest,
  ctx: TCreateConsentContext,
): Promise<{ consentId: string; expiresAt: string; created: boolean }> {
  const now = ctx.now ?? new Date();
  const expiresAt = input.expiresAt
    ? new Date(input.expiresAt)
    : new Date(now.getTime() + CONSENT_EXPIRY_MS); // spec §9: 24 h
  const [merchant] = await preparedQuery(db, 'consent_merchant', prepareMerchant).execute({
    merchantId: ctx.merchantId,
  });
  if (!merchant) throw new AppError('INVALID_CLIENT_CREDENTIALS');
  const missing = capabilitiesMissing(consentAsks(input), ctx.capabilities);
  if (missing.length > 0) throw capabilityOff(missing);
  await assertReturnOrigin(db, ctx.clientId, input.returnUrl);
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

  let outcome: Awaited<ReturnType<typeof runIdempotent<{ consentId: string; expiresAt: string }>>>;
  try {
    outcome = await runIdempotent(db, idempotency, async (tx) => {
      // Checked inside: a retry of a consent created before its expiry passed still answers it.
      if (expiresAt.getTime() <= now.getTime()) {
        throw new AppError('VALIDATION_FAILED', 'expiresAt: must be in the future');
      }
      const consentId = await insertConsent(tx, input, {
        merchant,
        clientId: ctx.clientId,
        expiresAt,
        actor: `client:${ctx.clientId}`,
        referenceFingerprint: byReference?.fingerprint ?? null,
      });
      return { consentId, expiresAt: expiresAt.toISOString() };
    });
  } catch (error) {
    // Two creates with one reference at once: the index let one in, the other answers it.
    const first =
      byReference && isUniqueViolation(error)
        ? await consentOfReference(db, ctx.clientId, byReference)
        : null;
    if (!first) throw error;
    return { ...first, created: false };
  }
  const { result, replayed } = outcome;
  if (!replayed) {
    await ctx.events?.publish({
      type: 'consent.created',
      data: { consentId: result.consentId, clientId: ctx.clientId, merchantId: ctx.merchantId },
    });
  }
  return { ...result, created: !replayed };
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
async function assertReturnOrigin(db: TDb, clientId: string, returnUrl: string | undefined) {
  if (returnUrl === undefined) return;
  const [client] = await db
    .select({ origins: apiClients.allowedOrigins })
    .from(apiClients)
    .where(eq(apiClients.clientId, clientId));
  if (!client?.origins.includes(new URL(returnUrl).origin)) {
    throw new AppError(
      'VALIDATION_FAILED',
      'returnUrl: its origin is not registered for this client (npm run client:origins)',
    );
  }
}

/** Who a new consent is for and from, and what its first audit event records. */
export type TNewConsentRows = {
  merchant: Pick<TMerchantRow, 'id' | 'walletBankName'>;
  clientId: string;
  expiresAt: Date;
  /** The audit actor of 'consent.created', e.g. `client:cli_…` or `payer:usr_…`. */
  actor: string;
  /** More for the 'consent.created' audit row (docs/payment-requests.md: who was asked). */
  createdData?: Record<string, unknown>;
  /** The fingerprint of the merchant's request, kept with its reference. */
  referenceFingerprint?: string | null;
};

/**
 * A consent names a form of its own merchant (docs/forms.md): another merchant's form is refused
 * (400 naming formId), so a merchant can neither show nor collect answers to a form not its own.
 * An id no form has yet is let through: the consent shows the form once it is made.
 */
async function assertOwnForm(tx: TDb, formId: string | undefined, merchantId: string) {
  if (formId === undefined) return;
  const [form] = await tx
    .select({ merchantId: forms.merchantId })
    .from(forms)
    .where(eq(forms.id, formId));
  if (form && form.merchantId !== merchantId) {
    throw new AppError('VALIDATION_FAILED', 'formId: not a form of this merchant');
  }
}

const CONSENT_INSERT_COLUMNS = [
  'id',
  'merchantId',
  'clientId',
  'expiresAt',
  'actOnBehalfOf',
  'formId',
  'formTemplateValues',
  'requiresAuth',
  'requiresAccount',
  'authAppId',
  'originalRequestId',
  'reference',
  'referenceFingerprint',
  'metadata',
  'returnUrl',
] as const satisfies readonly (keyof typeof consents.$inferInsert)[];

const PAYMENT_INSERT_COLUMNS = [
  'id',
  'consentId',
  'position',
  'type',
  'amount',
  'narration',
  'amountType',
  'dueDate',
  'startDate',
  'endDate',
  'frequency',
  'interval',
  'paypointId',
  'paypointLocationName',
  'shieldWalletBankName',
] as const satisfies readonly (keyof typeof payments.$inferInsert)[];

const prepareConsentInsert = (db: TDb) =>
  db.insert(consents).values(placeholdersFor(CONSENT_INSERT_COLUMNS)).prepare('consent_insert');

const preparePaymentInsert = (db: TDb) =>
  db.insert(payments).values(placeholdersFor(PAYMENT_INSERT_COLUMNS)).prepare('payment_insert');

/**
 * Writes a consent, its payments and data-sharing items and its 'consent.created' audit event
 * inside the caller's transaction; answers its new id.
 */
export async function insertConsent(
  tx: TDb,
  input: TCreateConsentRequest,
  rows: TNewConsentRows,
): Promise<string> {
  await assertOwnForm(tx, input.formId, rows.merchant.id);
  const consentId = randomId('cns');
  await preparedQuery(tx, 'consent_insert', prepareConsentInsert).execute({
    id: consentId,
    merchantId: rows.merchant.id,
    clientId: rows.clientId,
    expiresAt: rows.expiresAt,
    actOnBehalfOf: input.actOnBehalfOf ?? null,
    formId: input.formId ?? null,
    formTemplateValues: input.formCompletion?.templateLiteralValues ?? null,
    requiresAuth: input.requirements.requiresAuth,
    requiresAccount: input.requirements.requiresAccount,
    authAppId: input.authAppId ?? null,
    originalRequestId: input.originalRequestId ?? null,
    reference: input.reference ?? null,
    referenceFingerprint: rows.referenceFingerprint ?? null,
    metadata: input.metadata ?? null,
    returnUrl: input.returnUrl ?? null,
  });
  const paymentRows = input.payments.map((p, position) => ({
    id: randomId('pay'),
    consentId,
    position,
    type: p.type,
    amount: p.amount,
    narration: p.narration,
    amountType: p.type === 'future' ? p.amountType : ('fixed' as const),
    dueDate: p.type === 'future' ? dateOrNull(p.dueDate) : null,
    startDate: p.type === 'future' ? dateOrNull(p.startDate) : null,
    endDate: p.type === 'future' ? dateOrNull(p.endDate) : null,
    frequency: p.type === 'future' ? (p.frequency ?? null) : null,
    interval: p.type === 'future' ? (p.interval ?? null) : null,
    paypointId: p.paypointId ?? null,
    paypointLocationName: p.paypointLocationName ?? null,
    // Immediate payments are collected into the merchant's wallet (spec §3 shieldWallet).
    shieldWalletBankName: p.type === 'immediate' ? rows.merchant.walletBankName : null,
  }));
  // Most consents ask one payment: its row by a prepared query; several in one statement.
  const [only] = paymentRows;
  if (only && paymentRows.length === 1) {
    await preparedQuery(tx, 'payment_insert', preparePaymentInsert).execute(only);
  } else if (paymentRows.length > 0) {
    await tx.insert(payments).values(paymentRows);
  }
  const items = dataSharingRows(consentId, input.dataSharing);
  if (items.length > 0) await tx.insert(dataSharingItems).values(items);
  await insertConsentEvent(tx, {
    consentId,
    type: 'consent.created',
    actor: rows.actor,
    data: { payments: input.payments.length, dataItems: items.length, ...rows.createdData },
  });
  return consentId;
}

function dataSharingRows(
  consentId: string,
  dataSharing: TDataSharing | undefined,
): Array<typeof dataSharingItems.$inferInsert> {
  if (!dataSharing) return [];
  return DATA_CATEGORIES.flatMap((category): Array<typeof dataSharingItems.$inferInsert> => {
    const value = dataSharing[category];
    if (value === undefined || value === false) return [];
    if (value === true) return [{ consentId, category, item: null }];
    return value.map((item) => ({ consentId, category, item }));
  });
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
