import { createHash } from 'node:crypto';
import { BANKS, bankByCode, resolveAccountName } from './banks';
import {
  PaystackRefusal,
  emailIn,
  optionalObject,
  optionalString,
  requiredString,
  type TBody,
} from './request-checks';
import {
  INTEGRATION_ID,
  ok,
  randomCode,
  type TAnswer,
  type TAuthorizationRecord,
  type TContext,
  type TRoute,
  type TSimState,
} from './simulator-state';

/**
 * Direct-debit mandates (POST /customer/authorization/initialize, GET
 * /customer/authorization/verify/{reference}): the payer approves on the bank's page, and the
 * authorization it gives is charged like any other (charges.ts).
 */

type TMandate = {
  reference: string;
  accessCode: string;
  email: string;
  callbackUrl: string | null;
  account: { number: string; bankCode: string } | null;
  answer: 'approved' | 'declined' | null;
  authorizationCode: string | null;
};

/** What the mandates keep beside the shared state: each mandate by reference and by access code. */
type TMandateDesk = {
  state: TSimState;
  byReference: Map<string, TMandate>;
  byAccessCode: Map<string, TMandate>;
};

/** The bank account a mandate names, its bank one that takes direct debits; null for none. */
const mandateAccount = (body: TBody) => {
  const account = optionalObject(body, 'account');
  const accountRead = account
    ? {
        number: requiredString(account, 'number'),
        bankCode: requiredString(account, 'bank_code'),
      }
    : null;
  if (accountRead) {
    const bank = bankByCode(accountRead.bankCode);
    if (!bank) throw new PaystackRefusal(400, 'Invalid bank code');
    // List Banks tells which banks take mandates (available_for_direct_debit); the wording of
    // the refusal of another bank is not documented.
    if (!bank.directDebit) {
      throw new PaystackRefusal(400, 'Bank not available for direct debit');
    }
  }
  return accountRead;
};

/** POST /customer/authorization/initialize: a mandate and the bank page where the payer answers it. */
const initializeMandate = (desk: TMandateDesk, ctx: TContext): TAnswer => {
  const email = emailIn(ctx.body);
  const channel = requiredString(ctx.body, 'channel');
  if (channel !== 'direct_debit') {
    throw new PaystackRefusal(400, 'Invalid channel. direct_debit is the only supported option');
  }
  const callbackUrl = optionalString(ctx.body, 'callback_url') ?? null;
  if (callbackUrl !== null && !URL.canParse(callbackUrl)) {
    throw new PaystackRefusal(400, 'callback_url must be a fully qualified url');
  }
  const account = mandateAccount(ctx.body);
  const mandate: TMandate = {
    reference: randomCode(30),
    accessCode: randomCode(15),
    email,
    callbackUrl,
    account,
    answer: null,
    authorizationCode: null,
  };
  desk.byReference.set(mandate.reference, mandate);
  desk.byAccessCode.set(mandate.accessCode, mandate);
  desk.state.customerFor(email);
  return ok('Authorization initialized', {
    redirect_url: `${desk.state.url}/mandate/${mandate.accessCode}`,
    access_code: mandate.accessCode,
    reference: mandate.reference,
  });
};

/** The data of a direct_debit.authorization notice: the authorization, its mandate and customer. */
const mandateNotice = (
  state: TSimState,
  mandate: TMandate,
  record: TAuthorizationRecord,
  active: boolean,
) => {
  const customer = state.customerFor(mandate.email);
  return {
    ...record.fields,
    active,
    integration: INTEGRATION_ID,
    domain: 'test',
    reference: mandate.reference,
    customer: {
      first_name: customer.first_name,
      last_name: customer.last_name,
      code: customer.customer_code,
      email: customer.email,
      phone: customer.phone ?? '',
      metadata: customer.metadata,
      risk_action: 'default',
    },
  };
};

/** Issues the reusable direct_debit authorization of an approved mandate. */
const mandateAuthorization = (state: TSimState, mandate: TMandate) => {
  const bank = bankByCode(mandate.account?.bankCode ?? '058') ?? BANKS[0];
  const accountNumber = mandate.account?.number ?? '0123456789';
  return state.issueAuthorization(
    { email: mandate.email, channel: 'direct_debit', reusable: true },
    {
      bin: null,
      last4: accountNumber.slice(-4),
      exp_month: 1,
      exp_year: state.now().getUTCFullYear() + 10,
      channel: 'direct_debit',
      card_type: 'mandate',
      bank: bank?.name ?? null,
      country_code: 'NG',
      brand: bank?.name ?? null,
      reusable: true,
      signature: `SIG_${createHash('sha256').update(`${bank?.code}:${accountNumber}`).digest('hex').slice(0, 20)}`,
      account_name: mandate.account
        ? resolveAccountName(mandate.account.bankCode, accountNumber)
        : null,
    },
  );
};

/**
 * The payer's answer on the bank's page. Approval issues a reusable direct_debit authorization
 * and sends direct_debit.authorization.created then direct_debit.authorization.active (at once:
 * the bank's activation, hours later on Paystack, is not simulated). Declining sends nothing.
 */
const applyMandateAnswer = async (state: TSimState, mandate: TMandate, approved: boolean) => {
  if (mandate.answer !== null)
    throw new Error(`The mandate ${mandate.reference} was already answered`);
  mandate.answer = approved ? 'approved' : 'declined';
  if (!approved) return;
  const code = mandateAuthorization(state, mandate);
  mandate.authorizationCode = code;
  const record = state.authorizations.get(code) as TAuthorizationRecord;
  await state.send(
    'direct_debit.authorization.created',
    mandateNotice(state, mandate, record, false),
  );
  await state.send(
    'direct_debit.authorization.active',
    mandateNotice(state, mandate, record, true),
  );
};

/** GET /customer/authorization/verify/{reference}: the authorization of an approved mandate. */
const verifyMandate = (desk: TMandateDesk, ctx: TContext): TAnswer => {
  const { state } = desk;
  const mandate = desk.byReference.get(ctx.segments[3] ?? '');
  const record = mandate?.authorizationCode
    ? state.authorizations.get(mandate.authorizationCode)
    : undefined;
  if (!mandate || !record) {
    // The documented refusal (Direct Debit docs, "Verify authorization"), until the payer
    // approves; a declined mandate never gives an authorization, so it stays refused.
    throw new PaystackRefusal(
      404,
      'Authorization does not exist or does not belong to integration',
      {
        metadata: { nextStep: 'Try again later' },
        type: 'api_error',
        code: 'unknown',
      },
    );
  }
  const customer = state.customerFor(mandate.email);
  return ok('Authorization retrieved successfully', {
    authorization_code: record.fields.authorization_code,
    channel: 'direct_debit',
    bank: record.fields.bank,
    active: true,
    customer: { code: customer.customer_code, email: customer.email },
  });
};

/** The mandates' routes, their bank pages and the controls that answer them. */
export const mandates = (state: TSimState) => {
  const desk: TMandateDesk = { state, byReference: new Map(), byAccessCode: new Map() };
  const routes: TRoute[] = [
    {
      method: 'POST',
      path: /^\/customer\/authorization\/initialize$/,
      handle: (ctx) => initializeMandate(desk, ctx),
    },
    {
      method: 'GET',
      path: /^\/customer\/authorization\/verify\/[^/]+$/,
      handle: (ctx) => verifyMandate(desk, ctx),
    },
  ];
  return {
    routes,
    /** The mandate whose bank page has this access code. */
    mandatePage: (accessCode: string) => desk.byAccessCode.get(accessCode),
    applyMandateAnswer: (mandate: TMandate, approved: boolean) =>
      applyMandateAnswer(state, mandate, approved),
    /** The payer's answer so far, by the mandate's reference; null if unanswered or unknown. */
    mandateAnswer: (reference: string) => desk.byReference.get(reference)?.answer ?? null,
    /** The payer's answer, by the mandate's reference. */
    answerMandate: async (reference: string, approved: boolean) => {
      const mandate = desk.byReference.get(reference);
      if (!mandate) throw new Error(`No mandate with the reference ${reference}`);
      await applyMandateAnswer(state, mandate, approved);
    },
  };
};
