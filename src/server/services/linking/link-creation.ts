import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { TEST_CARD_CHARGE_MAX_KOBO, TEST_CARD_CHARGE_MIN_KOBO } from '../../../domain/constants';
import { sameHolderName } from '../../../domain/account-ownership';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import { keptTermsOf, type TMandateTerms } from '../../../domain/mandate-terms';
import {
  type TAccountLink,
  type TPayInDetails,
  mandateTypeOf,
} from '../../../domain/schemas/account-link';
import type { TAppContext } from '../../context';
import { capabilitiesOn } from '../../providers/capability-lines';
import type { TDb } from '../../db/database';
import { accountLinks } from '../../db/schema';
import type { TMandateSetupPort, TTransfersInPort } from '../../providers/payments';
import { AppError } from '../../app-error';
import { accountPageUrl } from '../page-urls';
import { debitProviderOfNewLinks } from '../payments/mandate-debits';
import {
  askAccountHolder,
  assertHolderMayBePayer,
  claimHolderCheck,
  keptHolder,
} from './account-holders';
import {
  keepOwnMandate,
  consentMandateTerms,
  mandatePayerOf,
  newMandatesPort,
  openOwnPaperMandate,
} from './own-mandates';
import { holderOfAccount, type TOwnerLookups } from './account-owners';
import { isOff, usable, type TOffPort } from '../../providers/off';
import {
  type TLinkContext,
  type TMandateRoute,
  abandonLink,
  openLink,
  newLinkId,
} from './link-lifecycle';
import { findAccountAtBank, addPayerAccount } from './account-at-bank';
import { answerAccountHolder, paperFormUrl } from './link-mandates';
import { routeFor, LINK_TTL_MS } from './link-routes';

/*
 * Opening a link (POST /api/account-links/create, /api/transactionservicealt/create): the
 * account checked at its bank, the link written, and only then the providers asked what it
 * needs: its holder's check, a one-time account, the alternate service's mandate or a bank page.
 */

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
  // OTP, on a mandate that allows what the consent it is linked for grants. The provider that
  // sets the mandate up is named on the link from its first row: every later call about the
  // mandate goes there, and every debit too where it keeps the mandate.
  const { port: newMandates, keeps: byOwnMandate } = await newMandatesPort(
    providers,
    institutionCode,
  );
  const setUpBy = isOff(newMandates) ? null : newMandates.provider;
  const keeper = byOwnMandate ? setUpBy : null;
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
  const debitProvider = debitProviderOfNewLinks(providers.payments);
  const now = clock.now();
  const accountId = await addPayerAccount(db, payerId, { ...input, bank, found, holder }, now);
  const linkId = newLinkId();
  const testAmount =
    linkRoute === 'test_transfer'
      ? randomInt(TEST_CARD_CHARGE_MIN_KOBO, TEST_CARD_CHARGE_MAX_KOBO + 1)
      : null;
  // The provider of a test transfer's one-time account, named on the link before it is asked.
  const transfersIn =
    linkRoute === 'test_transfer'
      ? await linkTransfersIn(providers).catch(() => {
          throw new AppError('ACCOUNT_LINK_CREATE_FAILED');
        })
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
      debitProvider: keeper ?? debitProvider,
      mandateProvider: keeper,
      // Auth parameters and paper forms are the mandates provider's; the others are mandates of
      // the provider that debits them (a bank's page, a test transfer).
      mandateSetUpBy:
        linkRoute === 'auth_params' || linkRoute === 'paper' ? setUpBy : debitProvider,
      testAmount,
      testTransferProvider: transfersIn?.provider ?? null,
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
  if (transfersIn && testAmount !== null) {
    const payInDetails = await openTestTransferAccount(ctx, transfersIn, {
      linkId,
      amount: testAmount,
      sourceAccount: accountNumber,
    });
    return { ...link, payInDetails };
  }
  if (linkRoute === 'auth_params') {
    return openAltMandate(ctx, link, {
      ...{ payerId, institutionCode, accountNumber },
      mandates: newMandates,
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
      await abandonLink(
        db,
        linkId,
        clock.now(),
        ERROR_CATALOGUE.ACCOUNT_LINK_CREATE_FAILED.message,
      );
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
 * The one-time account a link's test transfer goes to, opened at the provider the link names
 * (linkTransfersIn); the link lasts as long as the account. A provider that does not open it ends
 * the link: 502 ACCOUNT_LINK_CREATE_FAILED.
 */
async function openTestTransferAccount(
  ctx: Pick<TLinkContext, 'db' | 'clock' | 'config'>,
  transfersIn: TTransfersInPort,
  of: { linkId: string; amount: number; sourceAccount: string },
): Promise<TPayInDetails> {
  const { db, clock } = ctx;
  const { linkId, amount } = of;
  let payIn;
  try {
    payIn = await transfersIn.openTransferAccount({
      reference: linkId,
      amount,
      accountName: `${ctx.config.productName} account check`,
    });
  } catch {
    await abandonLink(db, linkId, clock.now(), ERROR_CATALOGUE.ACCOUNT_LINK_CREATE_FAILED.message);
    throw new AppError('ACCOUNT_LINK_CREATE_FAILED');
  }
  await db
    .update(accountLinks)
    .set({ payInAccountNumber: payIn.accountNumber, expiresAt: payIn.expiresAt })
    .where(eq(accountLinks.id, linkId));
  return {
    amount,
    accountNumber: payIn.accountNumber,
    beneficiary: payIn.accountName,
    bankName: payIn.bankName,
    paymentId: linkId,
    sourceAccount: of.sourceAccount,
  };
}

/**
 * Where a link's test transfer account is opened (docs/routing.md): the first transfers-in
 * provider that is healthy, named on the link (test_transfer_provider) so that only its notices
 * of the account are taken. No provider: the capability is off, and says so.
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
    /** Who sets the mandate up: the provider the link names (mandate_set_up_by). */
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
