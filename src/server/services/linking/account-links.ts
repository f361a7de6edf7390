import { randomInt } from 'node:crypto';
import { and, eq, gt, inArray, isNotNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  ACCOUNT_LINKED_MESSAGE,
  AUTH_PARAMS_LINK_TTL_MS,
  AUTH_PARAMS_MAX_TRIES,
  AUTH_PARAMS_PENDING_MESSAGE,
  BANK_PAGE_MANDATE_PENDING_MESSAGE,
  BANK_PAGE_MANDATE_TTL_MS,
  ONE_TIME_ACCOUNT_TTL_MS,
  PAPER_MANDATE_PENDING_MESSAGE,
  PAPER_MANDATE_TTL_MS,
  TEST_CARD_CHARGE_MAX_KOBO,
  TEST_CARD_CHARGE_MIN_KOBO,
} from '../../../domain/constants';
import { isFromAccount, sameHolderName } from '../../../domain/account-ownership';
import { ERROR_CATALOGUE, formatErrorMessage, type TErrorCode } from '../../../domain/errors';
import { keptTermsOf, type TMandateTerms } from '../../../domain/mandate-terms';
import { countNoun } from '../../../domain/plural';
import {
  ACCOUNT_LINK_PROGRESS_EVENT,
  type TAccountLink,
  type TAccountLinkProgressEvent,
  type TAltServiceConfirmRequest,
  type TAltServiceConfirmResponse,
  type TConfirmAccountLinkPaymentResponse,
  type TLinkFromPaymentRequest,
  type TLinkFromPaymentResponse,
  type TPayInDetails,
  type MANDATE_STATES,
  mandateTypeOf,
} from '../../../domain/schemas/account-link';
import { capabilitiesOn, type TAppContext } from '../../context';
import { linkWaysOn, type TCapabilitiesOn } from '../../../domain/capabilities';
import { randomId } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import { accountLinks, payerAccounts, payers, paymentAttempts, payments } from '../../db/schema';
import { appendEvent, eventStreams } from '../../events/event-log';
import type {
  TBank,
  TBankIntegration,
  TDebitMandates,
  TProviderNotice,
  TTransferNoticeAnswer,
  TTransferSender,
} from '../../providers/payments';
import type { TBanksPort, TMandateSetupPort, TTransfersInPort } from '../../providers/payments';
import { AppError } from '../app-error';
import { accountPageUrl } from '../page-urls';
import { ownedByPage } from '../payments/charge-owners';
import { book, ledgerAccount } from '../payments/ledger';
import { debitProviderOfNewLinks } from '../payments/mandate-debits';
import { isUniqueViolation } from '../../db/database-errors';
import {
  answerHolderCheck,
  askAccountHolder,
  assertHolderMayBePayer,
  claimHolderCheck,
  keptHolder,
} from './account-holders';
import {
  keepOwnMandate,
  consentMandateTerms,
  linksByOwnMandate,
  mandatePayerOf,
  newMandatesPort,
  openOwnPaperMandate,
} from './own-mandates';
import { holderOfAccount, type TAccountHolder, type TOwnerLookups } from './account-owners';
import { assertAccountUnderPayersBvn, heldUnderPayersBvn, payersBvnHash } from './bvn-ownership';
import { isOff, usable, type TOffPort } from '../../providers/off';

/*
 * Linking a payer's bank account (spec §2 "Account-linking panel", §4, §7; docs/accounts.md):
 * each attempt is an account link whose mandate is authorised by a test transfer, the alternate
 * service's auth parameters, or a signed paper form, as the bank's integrations allow. Every
 * change of a link's state is one UPDATE … WHERE state IN (…) RETURNING, in the transaction of
 * its progress event and ledger entries; an expired link is moved to `expired` when next touched.
 */

type TLinkContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config'>;
export type TLinkRow = typeof accountLinks.$inferSelect;

/**
 * The mandates port of the provider that keeps `link`'s mandate: the one the link names (its
 * own form's, or its OTP's: own-mandates.ts), whatever MANDATE_PROVIDER says now; a link that
 * names none is new work's. A provider this server no longer runs: ProviderNotConfigured.
 */
function mandatesOfLink(
  providers: TLinkContext['providers'],
  link: Pick<TLinkRow, 'mandateProvider'>,
): TMandateSetupPort {
  return link.mandateProvider
    ? providers.registry.portOf(link.mandateProvider, 'mandates')
    : usable(providers.payments.mandates);
}
type TMandateState = (typeof MANDATE_STATES)[number];
type TLinkRoute = TLinkRow['route'];
/** The routes this service opens; card links are made by the card flow. */
type TMandateRoute = Exclude<TLinkRoute, 'card'>;

/** Link ids name the one-time account of a test transfer, so the bank's notice finds its link. */
const LINK_ID_PREFIX = 'alk';

export const isAccountLinkReference = (reference: string): boolean =>
  reference.startsWith(`${LINK_ID_PREFIX}_`);

/** A new link's id: 16 random bytes, so the id alone admits whoever holds it to a paper form. */
export const newLinkId = (): string => randomId(LINK_ID_PREFIX, 16);

export const OPEN_STATES = ['created', 'awaiting_authorisation'] as const satisfies TMandateState[];

/**
 * The mandate's transitions (spec §4 panel; docs/accounts.md "Mandate states"). A link is
 * created `created`, or `awaiting_authorisation` when the bank already has the payer's part (a
 * paper mandate).
 */
export const MANDATE_TRANSITIONS = {
  /** 'I've made the transfer' before the test transfer arrived: the bank is now awaited. */
  transferClaimed: { from: ['created'], to: 'awaiting_authorisation' },
  /** The test transfer arrived, the auth parameters were right, or the bank approved the form. */
  activate: { from: OPEN_STATES, to: 'active' },
  /** Its expiry passed first (seen when the link is next touched). */
  expire: { from: OPEN_STATES, to: 'expired' },
  /** The fifth wrong auth parameters, a provider that failed to open it, or a link made moot. */
  cancel: { from: OPEN_STATES, to: 'cancelled' },
} as const satisfies Record<string, { from: readonly TMandateState[]; to: TMandateState }>;

type TTransition = keyof typeof MANDATE_TRANSITIONS;

/** Whether a link still waits for its proof (created or awaiting authorisation). */
export const isOpen = (state: TMandateState) => (OPEN_STATES as readonly string[]).includes(state);

/** Moves a link along one edge in one statement: null when it was not in a `from` state. */
async function moveLink(
  db: TDb,
  linkId: string,
  edge: TTransition,
  now: Date,
  also?: SQL,
): Promise<TLinkRow | null> {
  const { from, to } = MANDATE_TRANSITIONS[edge];
  const [row] = await db
    .update(accountLinks)
    // Whatever a card link's test charge waited for ends with the edge.
    .set({
      state: to,
      chargeStage: null,
      updatedAt: now,
      // An active link records the BVN it was made under (docs/identity.md "The BVN").
      ...(to === 'active' ? { activatedAt: now, bvnHash: payersBvnHash } : {}),
    })
    .where(
      and(
        eq(accountLinks.id, linkId),
        inArray(accountLinks.state, [...from]),
        // Only an account held under the payer's verified BVN becomes theirs, checked as it moves.
        to === 'active' ? heldUnderPayersBvn : undefined,
        also,
      ),
    )
    .returning();
  return row ?? null;
}

export function emitProgress(tx: TDb, event: TAccountLinkProgressEvent): Promise<number> {
  return appendEvent(tx, {
    stream: eventStreams.accountLink(event.accountLinkId),
    type: ACCOUNT_LINK_PROGRESS_EVENT,
    data: event,
  });
}

/**
 * Activates an open, unexpired link inside `tx`, with its `completed` event. null when the link
 * was not open (any more). No other link of the account can be active: the one-live index lets
 * an account hold one open or active link.
 */
export async function activateLink(
  tx: TDb,
  linkId: string,
  now: Date,
  also?: SQL,
): Promise<TLinkRow | null> {
  const row = await moveLink(
    tx,
    linkId,
    'activate',
    now,
    and(gt(accountLinks.expiresAt, now), also),
  );
  if (row) await emitProgress(tx, { accountLinkId: linkId, status: 'completed' });
  return row;
}

/**
 * Why a new link of the account lost to the one-live index: the account is linked (409
 * ACCOUNT_ALREADY_LINKED) or another attempt is open (409 ACCOUNT_LINK_IN_PROGRESS). The index
 * decided; this read only names its reason.
 */
export async function liveLinkConflict(db: TDb, accountId: string): Promise<AppError> {
  const [active] = await db
    .select({ id: accountLinks.id })
    .from(accountLinks)
    .where(and(eq(accountLinks.accountId, accountId), eq(accountLinks.state, 'active')))
    .limit(1);
  return new AppError(active ? 'ACCOUNT_ALREADY_LINKED' : 'ACCOUNT_LINK_IN_PROGRESS');
}

/**
 * Ends a link the provider could not open, so the account is free for another attempt. False
 * when it was not open any more.
 */
export async function abandonLink(
  db: TDb,
  linkId: string,
  now: Date,
  message: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await moveLink(tx, linkId, 'cancel', now))) return false;
    await emitProgress(tx, { accountLinkId: linkId, status: 'failed', message });
    return true;
  });
}

async function readLink(db: TDb, linkId: string): Promise<TLinkRow | null> {
  const [row] = await db.select().from(accountLinks).where(eq(accountLinks.id, linkId));
  return row ?? null;
}

/**
 * Brings a link up to date before it is answered: past its expiry it becomes `expired`; a paper
 * mandate the bank approved meanwhile becomes `active` (docs/accounts.md "Paper mandates").
 */
export async function settleLink(ctx: TLinkContext, link: TLinkRow): Promise<TLinkRow> {
  if (!isOpen(link.state)) return link;
  const now = ctx.clock.now();
  if (link.expiresAt.getTime() <= now.getTime()) {
    const expired = await ctx.db.transaction(async (tx) => {
      const row = await moveLink(tx, link.id, 'expire', now, lte(accountLinks.expiresAt, now));
      if (row) {
        await emitProgress(tx, {
          accountLinkId: link.id,
          status: 'failed',
          message: ERROR_CATALOGUE.ACCOUNT_LINK_EXPIRED.message,
        });
      }
      return row;
    });
    return expired ?? (await readLink(ctx.db, link.id)) ?? link;
  }
  if (link.route === 'paper') {
    const status = await mandatesOfLink(ctx.providers, link)
      .paperMandateStatus({
        // A provider's own form's mandate was set up with its own reference (own-mandates.ts).
        reference: link.mandateProvider ? (link.requestId ?? link.id) : link.id,
        issuedAt: link.createdAt,
        providerReference: link.providerReference,
      })
      // The bank not answering leaves the mandate where it stands; the next read asks again.
      .catch(() => 'pending' as const);
    if (status === 'approved') {
      await ctx.db.transaction((tx) => activateLink(tx, link.id, now));
      return (await readLink(ctx.db, link.id)) ?? link;
    }
  }
  const mandates = usable(ctx.providers.payments.debits).debitMandates;
  if (link.route === 'bank_page' && link.providerReference && mandates.kind === 'bank_page') {
    const status = await mandates
      .status(link.providerReference)
      // The provider not answering leaves the mandate where it stands; the next read asks again.
      .catch(() => ({ kind: 'pending' }) as const);
    if (status.kind === 'active') {
      await applyBankMandate(ctx, {
        providerReference: link.providerReference,
        authorization: status.authorization,
      });
      return (await readLink(ctx.db, link.id)) ?? link;
    }
  }
  return link;
}

/**
 * The bank confirmed a mandate the payer approved at its page (the provider's notice, or its
 * answer when asked): the authorisation is kept on the open link, and the link becomes active in
 * the same transaction if its account is held under the payer's BVN; while the provider's holder
 * check has not answered, it stays open and that answer activates it (answerAccountHolder).
 */
export async function applyBankMandate(
  ctx: Pick<TLinkContext, 'db' | 'clock'>,
  mandate: { providerReference: string; authorization: string },
): Promise<'applied' | 'unchanged' | 'ignored'> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [link] = await tx
      .update(accountLinks)
      .set({ debitAuthorization: mandate.authorization, updatedAt: now })
      .where(
        and(
          eq(accountLinks.providerReference, mandate.providerReference),
          eq(accountLinks.route, 'bank_page'),
          inArray(accountLinks.state, [...OPEN_STATES]),
        ),
      )
      .returning({ id: accountLinks.id });
    if (!link) {
      const [known] = await tx
        .select({ id: accountLinks.id })
        .from(accountLinks)
        .where(eq(accountLinks.providerReference, mandate.providerReference));
      return known ? 'unchanged' : 'ignored';
    }
    await activateLink(tx, link.id, now);
    return 'applied';
  });
}

/** Activates inside `tx` the account's open bank-page link whose mandate its bank confirmed. */
async function activateConfirmedMandates(tx: TDb, accountId: string, now: Date): Promise<void> {
  const confirmed = await tx
    .select({ id: accountLinks.id })
    .from(accountLinks)
    .where(
      and(
        eq(accountLinks.accountId, accountId),
        eq(accountLinks.route, 'bank_page'),
        inArray(accountLinks.state, [...OPEN_STATES]),
        isNotNull(accountLinks.debitAuthorization),
      ),
    );
  for (const { id } of confirmed) await activateLink(tx, id, now);
}

/**
 * The provider's answer to its check of an account's holder (notice 'account_holder'): a match
 * activates the account's link whose mandate the bank already confirmed; a refusal ends its open
 * links with ACCOUNT_NOT_YOURS's words. Both in the transaction that records the answer.
 */
export async function answerAccountHolder(
  ctx: Pick<TLinkContext, 'db' | 'clock'>,
  notice: Extract<TProviderNotice, { kind: 'account_holder' }>,
): Promise<'applied' | 'unchanged'> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const answered = await answerHolderCheck(tx, notice);
    if (!answered) return 'unchanged';
    if (notice.matches) {
      await activateConfirmedMandates(tx, answered.accountId, now);
      return 'applied';
    }
    const open = await tx
      .select({ id: accountLinks.id })
      .from(accountLinks)
      .where(
        and(
          eq(accountLinks.accountId, answered.accountId),
          inArray(accountLinks.state, [...OPEN_STATES]),
        ),
      );
    for (const { id } of open) {
      if (await moveLink(tx, id, 'cancel', now)) {
        await emitProgress(tx, {
          accountLinkId: id,
          status: 'failed',
          message: ERROR_CATALOGUE.ACCOUNT_NOT_YOURS.message,
        });
      }
    }
    return 'applied';
  });
}

/**
 * Asks the provider about the holder of a link's account once the link and its pending check are
 * written: an answer at once is recorded as its notice's would be. A provider that fails ends the
 * link (502 ACCOUNT_LINK_CREATE_FAILED), its check left pending for a notice of a question that
 * may have reached it. An account refused, at once or by a notice that came first, has had its
 * open links ended with the answer: 403 ACCOUNT_NOT_YOURS.
 */
async function proveHolderAtProvider(
  ctx: TLinkContext,
  payerId: string,
  linkId: string,
  account: { institutionCode: string; accountNumber: string },
): Promise<void> {
  let answer;
  try {
    answer = await askAccountHolder(ctx, payerId, account);
  } catch (error) {
    const failed = ERROR_CATALOGUE.ACCOUNT_LINK_CREATE_FAILED.message;
    await abandonLink(ctx.db, linkId, ctx.clock.now(), failed);
    throw error;
  }
  if (answer !== 'pending') {
    // The whole number fits as its own mask: the answer is about this very account.
    await answerAccountHolder(ctx, {
      kind: 'account_holder',
      payerId,
      institutionCode: account.institutionCode,
      accountNumberMask: account.accountNumber,
      matches: answer === 'matches',
    });
  }
  if ((await keptHolder(ctx.db, payerId, account))?.holderCheck === 'differs') {
    throw new AppError('ACCOUNT_NOT_YOURS');
  }
}

/**
 * How this account is linked, from what its bank offers (spec §2 panel steps): a test transfer
 * for the transaction service, auth parameters for the alternate service, a paper form for
 * NIBSS's; an account only a card can link goes to the card flow.
 */
function routeFor(
  offeredByBank: readonly TBankIntegration[],
  service: 'any' | 'alt',
  { mandates, on }: { mandates: TDebitMandates; on: TCapabilitiesOn },
): TMandateRoute {
  // Only the ways this server can serve (docs/going-live.md): the others are as if not offered.
  const offered = linkWaysOn(offeredByBank, on);
  if (service === 'alt') {
    if (offered.includes('altTransactionService')) return 'auth_params';
    throw new AppError('ACCOUNT_NOT_SUPPORTED');
  }
  // The transaction service's mandate, as its provider has it authorised.
  if (offered.includes('transactionService')) {
    return mandates.kind === 'bank_page' ? 'bank_page' : 'test_transfer';
  }
  // A bank that takes NIBSS's paper mandates has its alternate service's mandate on paper.
  if (offered.includes('nibssAlt')) return 'paper';
  if (offered.includes('altTransactionService')) return 'auth_params';
  if (offered.includes('card')) throw new AppError('ACCOUNT_LINKS_BY_CARD');
  throw new AppError('ACCOUNT_NOT_SUPPORTED');
}

const LINK_TTL_MS: Record<TMandateRoute, number> = {
  test_transfer: ONE_TIME_ACCOUNT_TTL_MS,
  auth_params: AUTH_PARAMS_LINK_TTL_MS,
  paper: PAPER_MANDATE_TTL_MS,
  bank_page: BANK_PAGE_MANDATE_TTL_MS,
};

type TFoundAccount = NonNullable<Awaited<ReturnType<TBanksPort['nameEnquiry']>>>;

/**
 * Asks the account's bank whether it holds the account (the provider's name enquiry): an unknown
 * bank is 400 naming `institutionCode`, an account it does not hold ACCOUNT_NOT_FOUND_AT_BANK,
 * and a bank that fails to answer `fault` (502).
 */
export async function findAccountAtBank(
  ctx: Pick<TLinkContext, 'providers'>,
  input: { accountNumber: string; institutionCode: string },
  fault: TErrorCode = 'ACCOUNT_LINK_CREATE_FAILED',
): Promise<{ bank: TBank; found: TFoundAccount }> {
  const { institutionCode, accountNumber } = input;
  const fromBank = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch {
      throw new AppError(fault);
    }
  };
  const bank = await fromBank(() =>
    usable(ctx.providers.payments.banks).lookupBank(institutionCode),
  );
  if (!bank) {
    throw new AppError('VALIDATION_FAILED', 'institutionCode: no bank has this institution code');
  }
  const found = await fromBank(() =>
    usable(ctx.providers.payments.banks).nameEnquiry({ institutionCode, accountNumber }),
  );
  if (!found) throw new AppError('ACCOUNT_NOT_FOUND_AT_BANK');
  return { bank, found };
}

/**
 * Adds an account the bank confirmed to the payer's accounts (or refreshes it): its id. A holder
 * BVN given (`holder`: the registry's, or the name enquiry's; account-owners.ts) is the account's;
 * where none was given, what an earlier check of the provider decided stays as it is.
 */
export async function addPayerAccount(
  db: TDb,
  payerId: string,
  input: {
    accountNumber: string;
    institutionCode: string;
    bank: TBank;
    found: TFoundAccount;
    holder: TAccountHolder;
  },
  now: Date,
): Promise<string> {
  const { found } = input;
  const bvnHash = input.holder.bvnHash;
  const fromBank = bvnHash === null ? {} : { bvnHash, holderCheck: null, holderCheckBvnHash: null };
  const [account] = await db
    .insert(payerAccounts)
    .values({
      id: randomId('acc'),
      payerId,
      institutionCode: input.institutionCode,
      accountNumber: input.accountNumber,
      accountName: found.accountName,
      bankName: input.bank.name,
      nameEnquiryId: found.nameEnquiryId,
      bvnHash,
      createdAt: now,
    })
    .onConflictDoUpdate({
      target: [payerAccounts.payerId, payerAccounts.institutionCode, payerAccounts.accountNumber],
      set: { accountName: found.accountName, nameEnquiryId: found.nameEnquiryId, ...fromBank },
    })
    .returning({ id: payerAccounts.id });
  if (!account) throw new Error('The payer account could not be recorded');
  return account.id;
}

/**
 * Opens a link for its account in one transaction: an attempt left past its expiry gives way; an
 * account already linked is ACCOUNT_ALREADY_LINKED; another attempt still open is
 * ACCOUNT_LINK_IN_PROGRESS (the one-open index decides, so of concurrent opens one wins).
 */
export async function openLink(
  db: TDb,
  link: typeof accountLinks.$inferInsert & { accountId: string; createdAt: Date },
): Promise<void> {
  const now = link.createdAt;
  await db.transaction(async (tx) => {
    // An attempt left past its expiry gives way to this one.
    const stale = await tx
      .update(accountLinks)
      .set({ state: MANDATE_TRANSITIONS.expire.to, chargeStage: null, updatedAt: now })
      .where(
        and(
          eq(accountLinks.accountId, link.accountId),
          inArray(accountLinks.state, [...MANDATE_TRANSITIONS.expire.from]),
          lte(accountLinks.expiresAt, now),
        ),
      )
      .returning({ id: accountLinks.id });
    for (const { id } of stale) {
      await emitProgress(tx, {
        accountLinkId: id,
        status: 'failed',
        message: ERROR_CATALOGUE.ACCOUNT_LINK_EXPIRED.message,
      });
    }
    // A savepoint: the insert's unique violation leaves `tx` usable to name its reason.
    const inserted = await tx
      .transaction(async (savepoint) => {
        await savepoint.insert(accountLinks).values(link);
        return true;
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) return false;
        throw error;
      });
    if (!inserted) throw await liveLinkConflict(tx, link.accountId);
  });
}

/**
 * POST /api/account-links/create and /api/transactionservicealt/create (`service: 'alt'`): checks
 * the account with its bank, adds it to the payer's accounts and opens one link for it, and only
 * then asks the providers what the link needs (its holder's check, its mandate or account). One
 * attempt per account at a time (the one-open index: a concurrent second is 409 and asks the
 * providers nothing), and none for an account this payer already linked.
 */
export async function createAccountLink(
  ctx: TLinkContext & Pick<TAppContext, 'capabilities'> & TOwnerLookups,
  payerId: string,
  input: {
    accountNumber: string;
    institutionCode: string;
    accountName: string;
    consentId?: string;
  },
  service: 'any' | 'alt',
): Promise<TAccountLink> {
  const { db, clock, providers } = ctx;
  const { accountNumber, institutionCode } = input;
  // A bank whose mandates the mandates provider new work is routed to keeps (Remita) links by its
  // OTP, on a mandate that allows what the consent it is linked for grants. That provider is
  // named on the link from its first row: every later call and debit of the mandate goes there.
  const newMandates = await newMandatesPort(providers);
  const byOwnMandate = linksByOwnMandate(newMandates, institutionCode);
  const keeper = byOwnMandate && !isOff(newMandates) ? newMandates.provider : null;
  const termsAt = clock.now();
  const terms = byOwnMandate ? await ownMandateTermsFor(db, input.consentId, termsAt) : undefined;
  const { bank, found } = await findAccountAtBank(ctx, input);
  if (!sameHolderName(found.accountName, input.accountName)) {
    throw new AppError('ACCOUNT_NAME_MISMATCH');
  }
  const holder = await holderOfAccount(ctx, payerId, input, found.bvn, input.consentId ?? null);
  const payerBvnHash = await assertHolderMayBePayer(db, payerId, input, holder);
  const route = routeFor(found.integrations, service, {
    mandates: usable(providers.payments.debits).debitMandates,
    on: capabilitiesOn(ctx.capabilities),
  });
  const linkRoute: TMandateRoute = byOwnMandate ? 'auth_params' : route;
  const now = clock.now();
  const accountId = await addPayerAccount(db, payerId, { ...input, bank, found, holder }, now);
  const linkId = newLinkId();
  const testAmount =
    linkRoute === 'test_transfer'
      ? randomInt(TEST_CARD_CHARGE_MIN_KOBO, TEST_CARD_CHARGE_MAX_KOBO + 1)
      : null;
  // The link and the holder check it needs are written before any provider is asked, so an
  // answer that comes before the call's own finds them.
  const check = await db.transaction(async (tx) => {
    await openLink(tx, {
      id: linkId,
      payerId,
      accountId,
      route: linkRoute,
      // The bank has the payer's part of a paper mandate once they sign the form.
      state: linkRoute === 'paper' ? 'awaiting_authorisation' : 'created',
      debitProvider: keeper ?? debitProviderOfNewLinks(providers.payments),
      mandateProvider: keeper,
      testAmount,
      expiresAt: new Date(now.getTime() + LINK_TTL_MS[linkRoute]),
      createdAt: now,
      updatedAt: now,
    });
    return claimHolderCheck(tx, accountId, payerBvnHash);
  });
  if (check === 'ask') await proveHolderAtProvider(ctx, payerId, linkId, input);

  const link: TAccountLink = {
    id: linkId,
    payInDetails: null,
    authParams: [],
    mandateType: mandateTypeOf(linkRoute),
    remitaTransRef: null,
    requestId: null,
    remitaLogoUrl: null,
    formUrl: null,
  };
  const failed = ERROR_CATALOGUE.ACCOUNT_LINK_CREATE_FAILED.message;
  if (linkRoute === 'test_transfer' && testAmount !== null) {
    let payIn;
    try {
      payIn = await (
        await linkTransfersIn(providers)
      ).openTransferAccount({
        reference: linkId,
        amount: testAmount,
        accountName: `${ctx.config.productName} account check`,
      });
    } catch {
      await abandonLink(db, linkId, clock.now(), failed);
      throw new AppError('ACCOUNT_LINK_CREATE_FAILED');
    }
    // The link lasts as long as the account its transfer goes to.
    await db
      .update(accountLinks)
      .set({ payInAccountNumber: payIn.accountNumber, expiresAt: payIn.expiresAt })
      .where(eq(accountLinks.id, linkId));
    const payInDetails: TPayInDetails = {
      amount: testAmount,
      accountNumber: payIn.accountNumber,
      beneficiary: payIn.accountName,
      bankName: payIn.bankName,
      paymentId: linkId,
      sourceAccount: accountNumber,
    };
    return { ...link, payInDetails };
  }
  if (linkRoute === 'auth_params') {
    return openAltMandate(ctx, link, {
      ...{ payerId, institutionCode, accountNumber },
      mandates: byOwnMandate ? newMandates : providers.payments.mandates,
      terms: terms && { terms, at: termsAt },
    });
  }
  const mandates = usable(providers.payments.debits).debitMandates;
  if (linkRoute === 'bank_page' && mandates.kind === 'bank_page') {
    let opened;
    try {
      opened = await mandates.open({
        payerId,
        institutionCode,
        accountNumber,
        returnUrl: accountPageUrl(ctx.config.publicUrl),
      });
    } catch {
      await abandonLink(db, linkId, clock.now(), failed);
      throw new AppError('ACCOUNT_LINK_CREATE_FAILED');
    }
    await db
      .update(accountLinks)
      .set({ providerReference: opened.providerReference })
      .where(eq(accountLinks.id, linkId));
    return { ...link, formUrl: opened.formUrl };
  }
  return { ...link, formUrl: paperFormUrl(ctx, linkId) };
}

/**
 * Where a link's test transfer account is opened (docs/routing.md): the first transfers-in
 * provider that is healthy. Its notice answers the money by the provider that sent it, so nothing
 * later needs the link to name it. No provider: the capability is off, and says so.
 */
async function linkTransfersIn(providers: TLinkContext['providers']): Promise<TTransfersInPort> {
  const { registry, health } = providers;
  const candidates = registry.lists.transfersIn.filter((name) =>
    registry.adapters.some((adapter) => adapter.name === name && adapter.transfersIn),
  );
  const [first] = (await health.route({ capability: 'transfersIn' }, candidates)).order;
  const newWork = providers.payments.transfersIn;
  if (first === undefined || first === newWork.provider) return usable(newWork);
  return registry.portOf(first, 'transfersIn');
}

/**
 * The alternate service's mandate of a new link (route auth_params): its auth parameters, or the
 * provider's printable form where the bank activates its mandates only at the branch. A provider
 * that fails ends the link (ACCOUNT_LINK_CREATE_FAILED); one that cannot mandate the account
 * too (ACCOUNT_NOT_SUPPORTED).
 */
async function openAltMandate(
  { db, clock }: Pick<TLinkContext, 'db' | 'clock'>,
  link: TAccountLink,
  request: {
    payerId: string;
    institutionCode: string;
    accountNumber: string;
    /** Who sets the mandate up: the provider the link names, where it keeps its own. */
    mandates: TMandateSetupPort | TOffPort;
    /** What the mandate allows, as of when they were read. */
    terms: { terms: TMandateTerms; at: Date } | undefined;
  },
): Promise<TAccountLink> {
  const { payerId, institutionCode, accountNumber } = request;
  const terms = request.terms?.terms;
  const linkId = link.id;
  const mandates = usable(request.mandates);
  if (request.terms) {
    // Kept before the bank is asked: a grant that would have the mandate serve more is refused.
    await db
      .update(accountLinks)
      .set({ mandateTerms: keptTermsOf(request.terms.terms, request.terms.at) })
      .where(eq(accountLinks.id, linkId));
  }
  let mandate;
  let paper = null;
  try {
    const payer = await mandatePayerOf(db, payerId);
    mandate = await mandates.requestAltMandate({
      reference: linkId,
      institutionCode,
      accountNumber,
      payer,
      ...(terms ? { terms } : {}),
    });
    // A bank that activates its provider's mandates only at the branch: the provider's form.
    if (!mandate) {
      paper = await openOwnPaperMandate(db, mandates, {
        ...{ linkId, institutionCode, accountNumber, payer, terms },
        now: clock.now(),
      });
    }
  } catch {
    await abandonLink(db, linkId, clock.now(), ERROR_CATALOGUE.ACCOUNT_LINK_CREATE_FAILED.message);
    throw new AppError('ACCOUNT_LINK_CREATE_FAILED');
  }
  if (paper) return { ...link, mandateType: 'paper', formUrl: paper.formUrl };
  if (!mandate) {
    await abandonLink(db, linkId, clock.now(), ERROR_CATALOGUE.ACCOUNT_NOT_SUPPORTED.message);
    throw new AppError('ACCOUNT_NOT_SUPPORTED');
  }
  const { providerReference, authReference, requestId, logoUrl, authParams } = mandate;
  await db
    .update(accountLinks)
    .set({ remitaTransRef: authReference, requestId })
    .where(eq(accountLinks.id, linkId));
  if (providerReference) {
    await keepOwnMandate(db, linkId, { provider: mandates.provider, providerReference });
  }
  return { ...link, remitaTransRef: authReference, requestId, remitaLogoUrl: logoUrl, authParams };
}

/**
 * The terms of a provider's own mandate for the consent the account is linked for; none named,
 * or one with no future payment to grant, is 409 MANDATE_NEEDS_CONSENT, before anything opens.
 */
async function ownMandateTermsFor(
  db: TDb,
  consentId: string | undefined,
  now: Date,
): Promise<TMandateTerms> {
  const terms = consentId ? await consentMandateTerms(db, consentId, now) : null;
  if (!terms) throw new AppError('MANDATE_NEEDS_CONSENT');
  return terms;
}

/** Where the printable form of a paper mandate is (GET /mandates/{id}). */
export const paperFormUrl = (ctx: Pick<TLinkContext, 'config'>, linkId: string): string =>
  new URL(`/mandates/${linkId}`, ctx.config.publicUrl).toString();

/** The payer's own link, for its progress stream: another payer's is NOT_FOUND. */
export async function assertOwnLink(db: TDb, payerId: string, linkId: string): Promise<void> {
  await ownLink(db, payerId, eq(accountLinks.id, linkId));
}

async function ownLink(db: TDb, payerId: string, where: SQL): Promise<TLinkRow> {
  const [row] = await db
    .select()
    .from(accountLinks)
    .where(and(where, eq(accountLinks.payerId, payerId)));
  // Another payer's link reads as no link at all, so ids cannot be probed.
  if (!row) throw new AppError('NOT_FOUND', 'No account link of yours has this id');
  return row;
}

const PENDING_MESSAGES: Record<TLinkRoute, string> = {
  test_transfer: ERROR_CATALOGUE.PAYMENT_NOT_YET_CONFIRMED.message,
  auth_params: AUTH_PARAMS_PENDING_MESSAGE,
  paper: PAPER_MANDATE_PENDING_MESSAGE,
  bank_page: BANK_PAGE_MANDATE_PENDING_MESSAGE,
  card: ERROR_CATALOGUE.PAYMENT_NOT_YET_CONFIRMED.message,
};

/**
 * POST /api/account-links/confirm-payment/{id}: where the payer's link stands. Pending is an
 * ordinary answer (spec §4: the panel stays on the payment step with the message).
 */
export async function confirmAccountLinkPayment(
  ctx: TLinkContext,
  payerId: string,
  linkId: string,
): Promise<TConfirmAccountLinkPaymentResponse> {
  const link = await settleLink(ctx, await ownLink(ctx.db, payerId, eq(accountLinks.id, linkId)));
  switch (link.state) {
    case 'active':
      return { success: true, status: 'completed', message: ACCOUNT_LINKED_MESSAGE };
    case 'expired':
      return {
        success: false,
        status: 'failed',
        message: ERROR_CATALOGUE.ACCOUNT_LINK_EXPIRED.message,
      };
    case 'cancelled':
      return {
        success: false,
        status: 'failed',
        message: ERROR_CATALOGUE.ACCOUNT_LINK_CANCELLED.message,
      };
    case 'created':
      if (link.route === 'test_transfer') {
        await moveLink(ctx.db, link.id, 'transferClaimed', ctx.clock.now());
      }
      return { success: false, status: 'pending', message: PENDING_MESSAGES[link.route] };
    case 'awaiting_authorisation':
      return { success: false, status: 'pending', message: PENDING_MESSAGES[link.route] };
    default:
      return link.state satisfies never;
  }
}

/** A link that is no longer open, as the alternate service's confirm answers it. */
function closedAnswer(link: TLinkRow): TAltServiceConfirmResponse {
  if (link.state === 'active') return { success: true, message: ACCOUNT_LINKED_MESSAGE };
  if (link.state === 'expired') throw new AppError('ACCOUNT_LINK_EXPIRED');
  if (link.authTries >= AUTH_PARAMS_MAX_TRIES) throw new AppError('AUTH_PARAMS_LOCKED');
  throw new AppError('ACCOUNT_LINK_CANCELLED');
}

/**
 * POST /api/transactionservicealt/confirm: the payer's answers to the auth parameters. Each try is
 * counted before it is sent, in the one statement that checks the count, so tries sent at once
 * cannot pass five at the bank; right, the link is active; the fifth wrong cancels it. After a
 * try whose answer was lost, the mandate's status is asked before anything is sent again: the
 * lost call may have used the bank's one-time code up.
 */
export async function confirmAltMandate(
  ctx: TLinkContext,
  payerId: string,
  body: TAltServiceConfirmRequest,
): Promise<TAltServiceConfirmResponse> {
  const { db, clock, providers } = ctx;
  const link = await settleLink(
    ctx,
    await ownLink(db, payerId, eq(accountLinks.remitaTransRef, body.remitaTransRef)),
  );
  if (!isOpen(link.state)) return closedAnswer(link);
  const [account] = await db
    .select()
    .from(payerAccounts)
    .where(eq(payerAccounts.id, link.accountId));
  if (!account) throw new AppError('NOT_FOUND', 'No account link of yours has this id');
  if (link.authAnswerLostAt !== null && (await lostTryActivated(ctx, link))) {
    return activateVerified(ctx, link);
  }
  const counted = await countAuthTry(db, link.id, clock.now());
  if (!counted) {
    const now = (await readLink(db, link.id)) ?? link;
    // The last try's answer was lost and it did not activate the mandate: the link ends here.
    if (link.authAnswerLostAt !== null && isOpen(now.state)) return refuseWrongTry(ctx, now);
    return closedAnswer(now);
  }
  let verified: boolean;
  try {
    ({ verified } = await mandatesOfLink(providers, link).verifyAltMandate({
      authReference: body.remitaTransRef,
      reference: link.requestId ?? link.id,
      providerReference: link.providerReference,
      institutionCode: account.institutionCode,
      accountNumber: account.accountNumber,
      answers: body.authParams.map((a) => ({ param: a.param1, value: a.value })),
    }));
  } catch {
    await db
      .update(accountLinks)
      .set({ authAnswerLostAt: clock.now() })
      .where(eq(accountLinks.id, link.id));
    throw new AppError('ACCOUNT_VERIFY_FAILED');
  }
  if (verified) return activateVerified(ctx, link);
  return refuseWrongTry(ctx, counted);
}

/**
 * Whether the try whose answer was lost activated the mandate (the provider's mandate status).
 * Not active: the lost try counts as refused and the next is sent. No answer:
 * ACCOUNT_VERIFY_FAILED, and nothing is sent.
 */
async function lostTryActivated(ctx: TLinkContext, link: TLinkRow): Promise<boolean> {
  let active: boolean;
  try {
    active = await mandatesOfLink(ctx.providers, link).altMandateActive({
      reference: link.requestId ?? link.id,
      providerReference: link.providerReference,
    });
  } catch {
    throw new AppError('ACCOUNT_VERIFY_FAILED');
  }
  if (!active && link.authAnswerLostAt !== null) {
    await ctx.db
      .update(accountLinks)
      .set({ authAnswerLostAt: null })
      .where(
        and(eq(accountLinks.id, link.id), eq(accountLinks.authAnswerLostAt, link.authAnswerLostAt)),
      );
  }
  return active;
}

/** Counts one try of an open link whose tries are not used up; null when none is left. */
async function countAuthTry(db: TDb, linkId: string, now: Date): Promise<TLinkRow | null> {
  const [row] = await db
    .update(accountLinks)
    .set({ authTries: sql`${accountLinks.authTries} + 1`, updatedAt: now })
    .where(
      and(
        eq(accountLinks.id, linkId),
        inArray(accountLinks.state, [...OPEN_STATES]),
        lt(accountLinks.authTries, AUTH_PARAMS_MAX_TRIES),
      ),
    )
    .returning();
  return row ?? null;
}

/** The bank took the payer's answers: the link is active, unless it closed meanwhile. */
async function activateVerified(
  ctx: TLinkContext,
  link: TLinkRow,
): Promise<TAltServiceConfirmResponse> {
  const now = ctx.clock.now();
  const activated = await ctx.db.transaction((tx) => activateLink(tx, link.id, now));
  if (activated) return { success: true, message: ACCOUNT_LINKED_MESSAGE };
  return closedAnswer((await readLink(ctx.db, link.id)) ?? link);
}

/** A wrong try, already counted: the tries left, or the fifth cancels the link. */
async function refuseWrongTry(
  ctx: TLinkContext,
  counted: TLinkRow,
): Promise<TAltServiceConfirmResponse> {
  const left = AUTH_PARAMS_MAX_TRIES - counted.authTries;
  if (left > 0) {
    throw new AppError(
      'AUTH_PARAMS_INCORRECT',
      formatErrorMessage('AUTH_PARAMS_INCORRECT', { tries: countNoun(left, 'try', 'tries') }),
    );
  }
  const cancelled = await ctx.db.transaction(async (tx) => {
    const row = await moveLink(tx, counted.id, 'cancel', ctx.clock.now());
    if (row) {
      await emitProgress(tx, {
        accountLinkId: counted.id,
        status: 'failed',
        message: ERROR_CATALOGUE.AUTH_PARAMS_LOCKED.message,
      });
    }
    return row;
  });
  if (cancelled) throw new AppError('AUTH_PARAMS_LOCKED');
  return closedAnswer((await readLink(ctx.db, counted.id)) ?? counted);
}

/**
 * The provider's notice that a link's one-time account received its test transfer, inside the
 * transaction that applies the notice (`tx`, services/payments/provider-notices.ts). The transfer proves the payer owns the account only when it came from that
 * very account (its bank, its number, the holder the name enquiry found): then the link becomes
 * active, and the amount is booked in and refunded to the payer at once. Any other sender, or
 * none named, goes back to its sender with its reason and the link stays open for the right one;
 * so is a transfer the link cannot take (not open, expired, another amount, linked meanwhile).
 */
export async function creditLinkTestTransfer(
  tx: TDb,
  reference: string,
  amount: number,
  sender: TTransferSender | null,
  now: Date,
): Promise<TTransferNoticeAnswer> {
  const [row] = await tx
    .select({ link: accountLinks, account: payerAccounts })
    .from(accountLinks)
    .innerJoin(payerAccounts, eq(payerAccounts.id, accountLinks.accountId))
    .where(and(eq(accountLinks.id, reference), eq(accountLinks.route, 'test_transfer')));
  if (row?.link.state === MANDATE_TRANSITIONS.expire.to) return { taken: false, reason: 'expired' };
  if (!row || !isOpen(row.link.state)) return { taken: false, reason: 'already_paid' };
  if (row.link.expiresAt.getTime() <= now.getTime()) return { taken: false, reason: 'expired' };
  if (row.link.testAmount !== amount) return { taken: false, reason: 'wrong_amount' };
  if (!isFromAccount(sender, row.account)) return { taken: false, reason: 'not_from_account' };
  const activated = await activateLink(
    tx,
    reference,
    now,
    and(eq(accountLinks.route, 'test_transfer'), eq(accountLinks.testAmount, amount)),
  );
  // Expired or ended in the meantime: the one statement that activates decides.
  if (!activated) return { taken: false, reason: 'already_paid' };
  const payer = ledgerAccount.payerSource('bank_transfer');
  const held = ledgerAccount.linkTestTransfers();
  const movement = { reference, paymentId: null, attemptId: null } as const;
  await book(tx, {
    ...movement,
    kind: 'link_test_transfer',
    narration: 'Account link test transfer',
    entries: [
      { account: payer, amount: -amount },
      { account: held, amount },
    ],
  });
  await book(tx, {
    ...movement,
    kind: 'link_test_transfer_refund',
    narration: 'Account link test transfer refunded',
    entries: [
      { account: held, amount: -amount },
      { account: payer, amount },
    ],
  });
  return { taken: true };
}

/** A link's one-time account expired early ('Expire this account now'): the link expires too. */
export async function expireLinkTestTransfer(db: TDb, reference: string, now: Date) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(accountLinks)
      .set({ state: MANDATE_TRANSITIONS.expire.to, expiresAt: now, updatedAt: now })
      .where(
        and(
          eq(accountLinks.id, reference),
          inArray(accountLinks.state, [...MANDATE_TRANSITIONS.expire.from]),
        ),
      )
      .returning({ id: accountLinks.id });
    if (row) {
      await emitProgress(tx, {
        accountLinkId: row.id,
        status: 'failed',
        message: ERROR_CATALOGUE.ACCOUNT_LINK_EXPIRED.message,
      });
    }
  });
}

/** What the printable paper mandate shows (GET /mandates/{id}); null unless it is one. */
export async function paperMandateOf(ctx: TLinkContext, linkId: string) {
  const [row] = await ctx.db
    .select({ link: accountLinks, account: payerAccounts, payerName: payers.fullName })
    .from(accountLinks)
    .innerJoin(payerAccounts, eq(payerAccounts.id, accountLinks.accountId))
    .innerJoin(payers, eq(payers.id, accountLinks.payerId))
    .where(and(eq(accountLinks.id, linkId), eq(accountLinks.route, 'paper')));
  if (!row) return null;
  const link = await settleLink(ctx, row.link);
  return {
    reference: link.id,
    state: link.state,
    issuedAt: link.createdAt,
    expiresAt: link.expiresAt,
    payerName: row.payerName,
    accountName: row.account.accountName,
    accountNumber: row.account.accountNumber,
    bankName: row.account.bankName,
  };
}

/**
 * POST /api/account-links/from-payment (docs/accounts.md "Linking from a payment"): links the
 * account a transfer just paid from, with no second transfer: the payment is the test transfer's
 * proof, a transfer from that very account as its bank named the sender. Only for the payer who
 * paid: the signed-in payer who opened the one-time account, or, for one opened without sign-in,
 * the signed-in payer whose page holds its token; and only if that account was handed to no one
 * else. Anyone else, or an unknown payment, is 404. The account linked is the sender's (an
 * account named in the request must be it), its bank must still name the sender's holder (else 403 PAYMENT_NOT_PROOF_OF_ACCOUNT), and its bank must
 * link by transfer (else ACCOUNT_LINKS_BY_MANDATE, ACCOUNT_LINKS_BY_CARD or ACCOUNT_NOT_SUPPORTED,
 * for the panel's own route). The link is made `active` in one transaction with its event, and
 * the payment's origin stops offering the account; the one-live index refuses an account linked
 * or being linked (409).
 */
export async function linkOriginOfPayment(
  ctx: TLinkContext & Pick<TAppContext, 'capabilities'> & TOwnerLookups,
  payerId: string,
  request: TLinkFromPaymentRequest,
): Promise<TLinkFromPaymentResponse> {
  const { db, clock } = ctx;
  const [paid] = await db
    .select({ attempt: paymentAttempts, origin: payments.origin })
    .from(paymentAttempts)
    .innerJoin(payments, eq(payments.id, paymentAttempts.paymentId))
    .where(
      and(
        eq(paymentAttempts.paymentId, request.paymentId),
        eq(paymentAttempts.status, 'completed'),
        eq(paymentAttempts.method, 'bank_transfer'),
        or(eq(paymentAttempts.payerId, payerId), ownedByPage(request.chargeToken)),
      ),
    );
  // Another payer's payment, one paid otherwise, or unknown: nothing to tell.
  if (!paid) throw new AppError('NOT_FOUND', 'No transfer of yours paid this payment');
  const { origin } = paid;
  const sender =
    origin?.accountNumber && origin.institutionCode && origin.accountName
      ? {
          accountNumber: origin.accountNumber,
          institutionCode: origin.institutionCode,
          accountName: origin.accountName,
        }
      : null;
  const named = (key: 'accountNumber' | 'institutionCode') =>
    request[key] === undefined || request[key] === sender?.[key];
  if (!sender || !named('accountNumber') || !named('institutionCode')) {
    throw new AppError('PAYMENT_NOT_PROOF_OF_ACCOUNT');
  }
  if (paid.attempt.transferSharedAt !== null) throw new AppError('PAYMENT_NOT_PROOF_OF_ACCOUNT');
  const account = { accountNumber: sender.accountNumber, institutionCode: sender.institutionCode };
  const { bank, found } = await findAccountAtBank(ctx, account);
  // The holder the bank names now is the one who sent the money.
  if (!isFromAccount(sender, { ...account, accountName: found.accountName })) {
    throw new AppError('PAYMENT_NOT_PROOF_OF_ACCOUNT');
  }
  // Money from an account proves its holder sent it, not that the holder is this payer.
  const holder = await holderOfAccount(ctx, payerId, account, found.bvn);
  await assertAccountUnderPayersBvn(db, payerId, holder.bvnHash);
  if (
    routeFor(found.integrations, 'any', {
      mandates: usable(ctx.providers.payments.debits).debitMandates,
      on: capabilitiesOn(ctx.capabilities),
    }) !== 'test_transfer'
  ) {
    throw new AppError('ACCOUNT_LINKS_BY_MANDATE');
  }
  const now = clock.now();
  const accountId = await addPayerAccount(db, payerId, { ...account, bank, found, holder }, now);
  const linkId = await linkFromPayment(db, {
    payerId,
    accountId,
    route: 'test_transfer',
    paymentId: request.paymentId,
    prompt: 'shouldPromptBankAccountLinking',
    debitProvider: debitProviderOfNewLinks(ctx.providers.payments),
    now,
  });
  return { success: true, accountLinkId: linkId, message: ACCOUNT_LINKED_MESSAGE };
}

/**
 * Links an account at once because a paid payment proves it (its sender's account, or the card
 * that paid): the link active in one transaction with its 'completed' event, the payment no
 * longer offering it (spec §3 origin). `inside` runs first in that transaction (a claim that
 * must hold with the link). The one-live index decides: an account linked or being linked
 * meanwhile refuses this with the live link's conflict.
 */
export async function linkFromPayment(
  db: TDb,
  link: {
    payerId: string;
    accountId: string;
    route: 'test_transfer' | 'card';
    paymentId: string;
    prompt: 'shouldPromptBankAccountLinking' | 'shouldPromptCardLinking';
    /** Who debits the link (account_links.debit_provider). */
    debitProvider: string | null;
    now: Date;
  },
  inside?: (tx: TDb) => Promise<void>,
): Promise<string> {
  const { payerId, accountId, route, paymentId, prompt, debitProvider, now } = link;
  const linkId = newLinkId();
  try {
    await db.transaction(async (tx) => {
      await inside?.(tx);
      await tx.insert(accountLinks).values({
        id: linkId,
        payerId,
        accountId,
        route,
        state: 'created',
        debitProvider,
        expiresAt: now,
        createdAt: now,
        updatedAt: now,
      });
      // Active only when held under the payer's BVN, decided by the statement that activates it;
      // refused, the transaction (and whatever `inside` claimed) is undone.
      if (!(await moveLink(tx, linkId, 'activate', now))) throw new AppError('ACCOUNT_NOT_YOURS');
      await emitProgress(tx, { accountLinkId: linkId, status: 'completed' });
      await tx
        .update(payments)
        .set({ origin: sql`${payments.origin} || ${JSON.stringify({ [prompt]: false })}::jsonb` })
        .where(eq(payments.id, paymentId));
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw await liveLinkConflict(db, accountId);
    throw error;
  }
  return linkId;
}
