import { bankByCode, resolveAccountName } from './banks';
import {
  PaystackRefusal,
  emailIn,
  optionalObject,
  optionalString,
  requiredString,
} from './request-checks';
import {
  customerObject,
  iso,
  ok,
  type TAnswer,
  type TContext,
  type TCustomer,
  type TIdentification,
  type TRoute,
  type TSimState,
} from './simulator-state';

/**
 * Customers (POST /customer, GET /customer/{email_or_code}) and their identification (POST
 * /customer/{code}/identification, Validate Customer): Paystack answers 202 at once, then says
 * by notice whether the bank account is held under the BVN given
 * (customeridentification.success or customeridentification.failed).
 */

/**
 * The masks of Paystack's customeridentification notices: the first and last three digits shown,
 * the rest starred (a BVN "222*****011", an account number "012****789").
 */
const mask = (digits: string) =>
  `${digits.slice(0, 3)}${'*'.repeat(Math.max(digits.length - 6, 0))}${digits.slice(-3)}`;

/** The reason Paystack's customeridentification.failed gives (its webhook docs). */
const IDENTIFICATION_FAILED = 'Account number or BVN is incorrect';

const digitsIn = (body: Record<string, unknown>, field: string, length: number) => {
  const value = requiredString(body, field);
  // Paystack's wording for a malformed number is not documented.
  if (!new RegExp(`^\\d{${length}}$`).test(value)) {
    throw new PaystackRefusal(400, `${field} must be ${length} digits`);
  }
  return value;
};

/** The BVN that holds each account, keyed `${bankCode}:${accountNumber}`. */
type TAccountHolders = Record<string, string>;

/** The customer as Create Customer and Fetch Customer show it. */
const customerData = (customer: TCustomer) => ({
  // Transactions, subscriptions and authorizations are not listed by the simulator.
  transactions: [],
  subscriptions: [],
  authorizations: [],
  ...customerObject(customer),
  identified: customer.identified,
  identifications: customer.identifications,
  createdAt: iso(customer.createdAt),
  updatedAt: iso(customer.updatedAt),
});

/**
 * Creates the customer, or answers the one already known by this email with the names and
 * phone (and metadata) given: charges, mandates and this call share one customer per email.
 */
const createCustomer = (state: TSimState, ctx: TContext): TAnswer => {
  const email = emailIn(ctx.body);
  const firstName = optionalString(ctx.body, 'first_name');
  const lastName = optionalString(ctx.body, 'last_name');
  const phone = optionalString(ctx.body, 'phone');
  const metadata = optionalObject(ctx.body, 'metadata');
  const customer = state.customerFor(email);
  if (firstName !== undefined) customer.first_name = firstName;
  if (lastName !== undefined) customer.last_name = lastName;
  if (phone !== undefined) customer.phone = phone;
  if (metadata !== undefined) customer.metadata = metadata;
  customer.updatedAt = state.now();
  return ok('Customer created', customerData(customer));
};

/** The customer the path names: by its code, or (Fetch Customer) by its email too. */
const customerIn = (state: TSimState, ctx: TContext, byEmail: boolean) => {
  const segment = ctx.segments[1] ?? '';
  let key = segment;
  try {
    key = decodeURIComponent(segment);
  } catch {
    // a malformed escape names no customer: refused below
  }
  const customer = state.findCustomer(key);
  if (!customer || (!byEmail && customer.customer_code !== key))
    throw new PaystackRefusal(404, 'Customer not found');
  return customer;
};

/** GET /customer/{email_or_code}: the customer and how many transactions it made. */
const fetchCustomer = (state: TSimState, ctx: TContext): TAnswer => {
  const customer = customerIn(state, ctx, true);
  return ok('Customer retrieved', {
    ...customerData(customer),
    created_at: iso(customer.createdAt),
    updated_at: iso(customer.updatedAt),
    total_transactions: [...state.transactions.values()].filter(
      (transaction) => transaction.email.toLowerCase() === customer.email.toLowerCase(),
    ).length,
    total_transaction_value: [],
    dedicated_account: null,
    dedicated_accounts: [],
  });
};

/**
 * The identification's outcome, sent after the answer: customeridentification.success when the
 * account resolves and is held under this BVN (the customer then identified), else .failed.
 */
const identify = async (
  state: TSimState,
  accountHolders: TAccountHolders,
  customer: TCustomer,
  account: { accountNumber: string; bvn: string; bankCode: string },
) => {
  const { accountNumber, bvn, bankCode } = account;
  const identification: TIdentification = {
    country: 'NG',
    type: 'bank_account',
    bvn: mask(bvn),
    account_number: mask(accountNumber),
    bank_code: bankCode,
  };
  const held =
    resolveAccountName(bankCode, accountNumber) !== null &&
    accountHolders[`${bankCode}:${accountNumber}`] === bvn;
  const data = {
    customer_id: customer.id,
    customer_code: customer.customer_code,
    email: customer.email,
    identification,
  };
  if (!held) {
    await state.send('customeridentification.failed', {
      ...data,
      reason: IDENTIFICATION_FAILED,
    });
    return;
  }
  customer.identified = true;
  customer.identifications = [...(customer.identifications ?? []), identification];
  customer.updatedAt = state.now();
  await state.send('customeridentification.success', data);
};

/**
 * Validate Customer (CustomerValidate). The customer is looked up first, then each field in
 * turn; the refusals' wording is the simulator's own. The answer is 202, and the outcome comes
 * after it by notice: success when the account resolves and is held under this BVN.
 */
const validateCustomer = (
  state: TSimState,
  accountHolders: TAccountHolders,
  ctx: TContext,
): TAnswer => {
  const customer = customerIn(state, ctx, false);
  const { body } = ctx;
  if (requiredString(body, 'country') !== 'NG') {
    throw new PaystackRefusal(400, 'Invalid country. NG is the only supported country');
  }
  if (requiredString(body, 'type') !== 'bank_account') {
    throw new PaystackRefusal(400, 'Invalid type. bank_account is the only supported type');
  }
  const accountNumber = digitsIn(body, 'account_number', 10);
  const bvn = digitsIn(body, 'bvn', 11);
  const bankCode = requiredString(body, 'bank_code');
  if (!bankByCode(bankCode)) throw new PaystackRefusal(400, 'Invalid bank code');
  requiredString(body, 'first_name');
  requiredString(body, 'last_name');
  optionalString(body, 'middle_name');
  ctx.later.push(() => identify(state, accountHolders, customer, { accountNumber, bvn, bankCode }));
  return { status: 202, body: { status: true, message: 'Customer Identification in progress' } };
};

/** The customers' routes: create, identify, fetch. */
export const customers = (
  state: TSimState,
  options: {
    /** The BVN that holds each account, keyed `${bankCode}:${accountNumber}`. */
    accountHolders: TAccountHolders;
  },
) => {
  const routes: TRoute[] = [
    { method: 'POST', path: /^\/customer$/, handle: (ctx) => createCustomer(state, ctx) },
    {
      method: 'POST',
      path: /^\/customer\/[^/]+\/identification$/,
      handle: (ctx) => validateCustomer(state, options.accountHolders, ctx),
    },
    { method: 'GET', path: /^\/customer\/[^/]+$/, handle: (ctx) => fetchCustomer(state, ctx) },
  ];
  return { routes };
};
