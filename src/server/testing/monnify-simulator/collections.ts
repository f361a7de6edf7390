import { randomBytes } from 'node:crypto';
import {
  MonnifyRefusal,
  pageOf,
  koboIn,
  monnifyReference,
  monnifyTime,
  optionalStringIn,
  randomDigits,
  stringIn,
  success,
  toNaira,
  type TAnswer,
  type TBody,
  type TContext,
  type TRoute,
  type TSimState,
  type TTransaction,
} from './simulator-state';

/**
 * Collections: init-transaction, pay with bank transfer (a one-time account), the card charge
 * with its OTP and 3-D Secure steps, the transaction's status by either reference, the
 * transaction search, and the SUCCESSFUL_TRANSACTION notice when money arrives.
 */

/** What a test card does when charged (README.md "Test cards"). */
type TCardBehaviour = 'success' | 'otp' | '3ds' | { fail: string };

type TTestCard = { behaviour: TCardBehaviour; pin: string | null; cardType: string };

/**
 * Monnify's published test cards (API reference, Charge a Card: PIN 1234, CVV 123), and three of
 * the simulator's own for what Monnify publishes no card for (marked).
 */
export const TEST_CARDS: Record<string, TTestCard> = {
  '4111111111111111': { behaviour: 'success', pin: '1234', cardType: 'VISA' },
  '5060995994247093': { behaviour: 'otp', pin: '1234', cardType: 'VERVE' },
  '4000000000000002': { behaviour: '3ds', pin: null, cardType: 'VISA' },
  '4111111111111110': {
    behaviour: { fail: 'Transaction declined by issuer' },
    pin: '1234',
    cardType: 'VISA',
  },
  // The simulator's own: insufficient funds, and an issuer that does not answer.
  '5399230000000014': {
    behaviour: { fail: 'Insufficient funds' },
    pin: '1234',
    cardType: 'MASTERCARD',
  },
  '5399230000000022': {
    behaviour: { fail: 'Issuer or switch inoperative: timed out' },
    pin: '1234',
    cardType: 'MASTERCARD',
  },
};

/** The OTP the simulator's issuer sends to every card that asks one. */
export const TEST_OTP = '123456';

const TRANSFER_BANK = { bankCode: '50515', bankName: 'Moniepoint Microfinance Bank' };

/** The transaction object of the status calls (TransactionStatusResponse). */
export function transactionObject(t: TTransaction) {
  return {
    transactionReference: t.transactionReference,
    paymentReference: t.paymentReference,
    amountPaid: toNaira(t.amountPaid).toFixed(2),
    totalPayable: toNaira(t.amount).toFixed(2),
    settlementAmount: toNaira(Math.max(0, t.amountPaid - 1_000)).toFixed(2),
    paidOn: t.paidOn ? monnifyTime(t.paidOn) : null,
    paymentStatus: t.paymentStatus,
    paymentDescription: t.paymentDescription,
    currency: 'NGN',
    paymentMethod: t.paymentMethod ?? t.paymentMethods[0] ?? 'CARD',
    createdOn: monnifyTime(t.createdOn),
    product: { type: 'API_NOTIFICATION', reference: t.paymentReference },
    cardDetails: t.card
      ? {
          cardType: t.card.cardType,
          last4: t.card.last4,
          expMonth: t.card.expMonth,
          expYear: t.card.expYear,
          bin: t.card.bin,
          bankCode: null,
          bankName: null,
          reusable: true,
          countryCode: 'NGA',
          cardToken: t.card.cardToken,
          supportsTokenization: true,
          maskedPan: `${t.card.bin}******${t.card.last4}`,
        }
      : null,
    accountDetails: t.sender ? { ...t.sender, amountPaid: toNaira(t.amountPaid).toFixed(2) } : null,
    accountPayments: t.sender
      ? [{ ...t.sender, amountPaid: toNaira(t.amountPaid).toFixed(2) }]
      : [],
    customer: { email: t.customerEmail, name: t.customerName },
    metaData: t.metaData,
  };
}

/** The SUCCESSFUL_TRANSACTION notice's eventData (Webhook Events and Request Structure). */
function successfulTransaction(t: TTransaction) {
  return {
    product: { reference: t.paymentReference, type: 'API_NOTIFICATION' },
    transactionReference: t.transactionReference,
    paymentReference: t.paymentReference,
    paidOn: t.paidOn ? monnifyTime(t.paidOn) : null,
    paymentDescription: t.paymentDescription,
    metaData: t.metaData,
    paymentSourceInformation: t.sender
      ? [{ ...t.sender, amountPaid: toNaira(t.amountPaid), sessionId: randomDigits(30) }]
      : [],
    destinationAccountInformation: t.account
      ? {
          bankCode: t.account.bankCode,
          bankName: TRANSFER_BANK.bankName,
          accountNumber: t.account.accountNumber,
        }
      : {},
    amountPaid: toNaira(t.amountPaid),
    totalPayable: toNaira(t.amount),
    cardDetails: t.card ? { last4: t.card.last4, bin: t.card.bin, cardType: t.card.cardType } : {},
    paymentMethod: t.paymentMethod,
    currency: 'NGN',
    settlementAmount: toNaira(Math.max(0, t.amountPaid - 1_000)),
    paymentStatus: t.paymentStatus,
    customer: { name: t.customerName, email: t.customerEmail },
  };
}

/** What every group of collections' calls shares: the state, and its transactions' steps. */
type TCollections = {
  state: TSimState;
  find: (transactionReference: string) => TTransaction;
  /** Paid now: its SUCCESSFUL_TRANSACTION notice, sent after the answer (ctx) or when called. */
  paid: (t: TTransaction, ctx: { later: TContext['later'] } | null) => () => Promise<void>;
  current: (t: TTransaction) => TTransaction;
};

/** POST init-transaction: a transaction the payer then pays by transfer or card. */
function transactionRoutes({ state }: TCollections): TRoute[] {
  function initTransaction(ctx: TContext): TAnswer {
    const { body } = ctx;
    const paymentReference = stringIn(body, 'paymentReference');
    const amount = koboIn(body, 'amount');
    stringIn(body, 'contractCode');
    if (stringIn(body, 'currencyCode') !== 'NGN')
      throw new MonnifyRefusal(400, 'Unsupported currency');
    if (state.byPaymentReference.has(paymentReference)) {
      throw new MonnifyRefusal(400, `Duplicate payment reference ${paymentReference}`, '99');
    }
    const methods = Array.isArray(body.paymentMethods)
      ? (body.paymentMethods as unknown[]).map(String)
      : ['CARD', 'ACCOUNT_TRANSFER'];
    const transaction: TTransaction = {
      transactionReference: monnifyReference(state),
      paymentReference,
      amount,
      amountPaid: 0,
      customerEmail: stringIn(body, 'customerEmail'),
      customerName: optionalStringIn(body, 'customerName') ?? '',
      paymentDescription: optionalStringIn(body, 'paymentDescription') ?? '',
      paymentMethods: methods,
      metaData: (body.metadata as TBody | undefined) ?? {},
      paymentStatus: 'PENDING',
      paymentMethod: null,
      createdOn: state.now(),
      paidOn: null,
      card: null,
      account: null,
      sender: null,
      step: null,
      refundedKobo: 0,
    };
    state.transactions.set(transaction.transactionReference, transaction);
    state.byPaymentReference.set(paymentReference, transaction.transactionReference);
    return success({
      transactionReference: transaction.transactionReference,
      paymentReference,
      merchantName: 'Simulated Merchant',
      apiKey: 'MK_TEST_SIMULATOR',
      enabledPaymentMethod: methods,
      checkoutUrl: `${state.url}/checkout/${encodeURIComponent(transaction.transactionReference)}`,
    });
  }

  return [
    {
      method: 'POST',
      path: /^\/api\/v1\/merchant\/transactions\/init-transaction$/,
      handle: initTransaction,
    },
  ];
}

/** Pay with bank transfer: the one-time account, and the money the payer's bank sends it. */
function bankTransfer({ state, find, paid, current }: TCollections) {
  function initPayment(ctx: TContext): TAnswer {
    const t = find(stringIn(ctx.body, 'transactionReference'));
    if (!t.paymentMethods.includes('ACCOUNT_TRANSFER')) {
      throw new MonnifyRefusal(400, 'Payment method not enabled for this transaction');
    }
    if (t.paymentStatus !== 'PENDING')
      throw new MonnifyRefusal(400, 'Transaction has been completed');
    t.account ??= {
      accountNumber: `70${randomDigits(8)}`,
      accountName: `Mon${t.customerName ? ` ${t.customerName}` : 'nify Checkout'}`.slice(0, 40),
      bankCode: TRANSFER_BANK.bankCode,
      expiresAt: new Date(state.now().getTime() + state.accountSeconds * 1000),
    };
    const seconds = Math.max(
      0,
      Math.floor((t.account.expiresAt.getTime() - state.now().getTime()) / 1000),
    );
    return success({
      accountNumber: t.account.accountNumber,
      accountName: t.account.accountName,
      bankName: TRANSFER_BANK.bankName,
      bankCode: t.account.bankCode,
      accountDurationSeconds: seconds,
      ussdPayment: null,
      requestTime: monnifyTime(state.now()),
      expiresOn: monnifyTime(t.account.expiresAt),
      transactionReference: t.transactionReference,
      paymentReference: t.paymentReference,
      amount: toNaira(t.amount),
      fee: 0,
      totalPayable: toNaira(t.amount),
      collectionChannel: 'API_NOTIFICATION',
      productInformation: null,
    });
  }

  /**
   * Money sent into a one-time account from the payer's bank: the account's transaction is PAID,
   * OVERPAID or PARTIALLY_PAID by what arrived, and SUCCESSFUL_TRANSACTION is sent. Nothing
   * reaches an account that expired or was paid already (the payer's bank has it back).
   */
  async function payTransfer(
    accountNumber: string,
    amount: number,
    sender = { accountNumber: '0065432190', accountName: 'ADAEZE OKAFOR', bankCode: '058' },
  ) {
    const t = [...state.transactions.values()].find(
      (x) => x.account?.accountNumber === accountNumber,
    );
    if (!t) throw new Error(`No one-time account ${accountNumber}`);
    if (current(t).paymentStatus !== 'PENDING') return;
    t.paymentMethod = 'ACCOUNT_TRANSFER';
    t.sender = sender;
    t.amountPaid = amount;
    t.paymentStatus =
      amount === t.amount ? 'PAID' : amount > t.amount ? 'OVERPAID' : 'PARTIALLY_PAID';
    await paid(t, null)();
  }

  const routes: TRoute[] = [
    {
      method: 'POST',
      path: /^\/api\/v1\/merchant\/bank-transfer\/init-payment$/,
      handle: initPayment,
    },
  ];
  return { routes, payTransfer };
}

/** The card's test behaviour, its expiry checked; a refusal before any charge began. */
function cardOf(state: TSimState, body: TBody) {
  const card = (body.card ?? {}) as TBody;
  const number = stringIn(card, 'number').replace(/\s/g, '');
  const month = Number(stringIn(card, 'expiryMonth'));
  const year = Number(stringIn(card, 'expiryYear'));
  stringIn(card, 'cvv');
  const fullYear = year < 100 ? 2000 + year : year;
  const now = state.now();
  const expired =
    fullYear < now.getUTCFullYear() ||
    (fullYear === now.getUTCFullYear() && month < now.getUTCMonth() + 1);
  if (!(month >= 1 && month <= 12) || expired)
    throw new MonnifyRefusal(400, 'Card has expired or its expiry is invalid');
  const test = TEST_CARDS[number];
  if (!test) throw new MonnifyRefusal(400, 'Invalid card number');
  const pin = typeof card.pin === 'string' && card.pin !== '' ? card.pin : null;
  return { number, month, fullYear, pin, test };
}

/** The card charge: paid, refused, or waiting on the OTP or 3-D Secure step its card asks. */
function cardCharge({ state, find, paid }: TCollections): TRoute[] {
  function charge(ctx: TContext): TAnswer {
    const t = find(stringIn(ctx.body, 'transactionReference'));
    if (!ctx.body.deviceInformation) throw new MonnifyRefusal(400, 'deviceInformation is required');
    if (t.paymentStatus !== 'PENDING' || t.step)
      throw new MonnifyRefusal(400, 'Transaction has been completed or is in progress', '99');
    const { number, month, fullYear, pin, test } = cardOf(state, ctx.body);
    // A card whose issuer wants its PIN, charged without one: the request is refused, as any
    // incomplete request is, and the transaction stays open for the card sent with its PIN.
    if (test.pin !== null && pin === null) {
      throw new MonnifyRefusal(400, 'PIN is required for this card');
    }
    t.paymentMethod = 'CARD';
    t.card = {
      cardType: test.cardType,
      last4: number.slice(-4),
      bin: number.slice(0, 6),
      expMonth: String(month).padStart(2, '0'),
      expYear: String(fullYear),
      cardToken: `MNFY_CT_${randomBytes(8).toString('hex').toUpperCase()}`,
    };
    const answer = (status: string, message: string, extra: TBody = {}) =>
      success({
        status,
        message,
        transactionReference: t.transactionReference,
        paymentReference: t.paymentReference,
        authorizedAmount: toNaira(t.amount),
        ...extra,
      });
    if (test.pin !== null && pin !== test.pin) {
      t.paymentStatus = 'FAILED';
      return answer('FAILED', 'Incorrect PIN');
    }
    if (test.behaviour === 'success') {
      t.paymentStatus = 'PAID';
      t.amountPaid = t.amount;
      paid(t, ctx);
      return answer('SUCCESS', 'Transaction Successful');
    }
    if (test.behaviour === 'otp') {
      const tokenId = randomBytes(6).toString('hex');
      t.step = { kind: 'otp', tokenId, otp: TEST_OTP };
      return answer('OTP_AUTHORIZATION_REQUIRED', 'OTP Authorization Required', {
        otpData: {
          id: tokenId,
          message: 'Kindly enter the OTP sent to 234803***1111',
          authData: null,
        },
      });
    }
    if (test.behaviour === '3ds') {
      const id = randomBytes(6).toString('hex');
      t.step = { kind: '3ds', id };
      return answer('BANK_AUTHORIZATION_REQUIRED', 'Bank Authorization Required', {
        secure3dData: { id, redirectUrl: `${state.url}/sim/3ds/${id}` },
      });
    }
    t.paymentStatus = 'FAILED';
    return answer('FAILED', test.behaviour.fail);
  }

  return [{ method: 'POST', path: /^\/api\/v1\/merchant\/cards\/charge$/, handle: charge }];
}

/** A charge's second step: the OTP its card's issuer sent, or the payer's 3-D Secure answer. */
function cardSteps({ state, find, paid }: TCollections) {
  function authorizeOtp(ctx: TContext): TAnswer {
    const t = find(stringIn(ctx.body, 'transactionReference'));
    const tokenId = stringIn(ctx.body, 'tokenId');
    const token = stringIn(ctx.body, 'token');
    if (t.step?.kind !== 'otp' || t.step.tokenId !== tokenId) {
      throw new MonnifyRefusal(400, 'No OTP authorization pending for this transaction', '99');
    }
    t.step = null;
    if (token !== TEST_OTP) {
      t.paymentStatus = 'FAILED';
      throw new MonnifyRefusal(400, 'Invalid OTP supplied', '99');
    }
    t.paymentStatus = 'PAID';
    t.amountPaid = t.amount;
    paid(t, ctx);
    return success({
      paymentStatus: 'PAID',
      paymentDescription: t.paymentDescription,
      transactionReference: t.transactionReference,
      paymentReference: t.paymentReference,
      amountPaid: toNaira(t.amountPaid),
      currencyPaid: 'NGN',
    });
  }

  /** The payer's answer on the 3-D Secure page; approval pays and sends the notice. */
  async function answerThreeDs(id: string, approved: boolean) {
    const t = [...state.transactions.values()].find(
      (x) => x.step?.kind === '3ds' && x.step.id === id,
    );
    if (!t) throw new Error(`No 3-D Secure step ${id}`);
    t.step = null;
    if (!approved) {
      t.paymentStatus = 'FAILED';
      return;
    }
    t.paymentStatus = 'PAID';
    t.amountPaid = t.amount;
    await paid(t, null)();
  }

  const routes: TRoute[] = [
    { method: 'POST', path: /^\/api\/v1\/merchant\/cards\/otp\/authorize$/, handle: authorizeOtp },
  ];
  return { routes, answerThreeDs };
}

/** The transaction's status by either reference, and the search of them all. */
function statusReads({ state, find, current }: TCollections): TRoute[] {
  function status(ctx: TContext): TAnswer {
    const reference = decodeURIComponent(ctx.segments.slice(3).join('/'));
    return success(transactionObject(current(find(reference))));
  }

  function query(ctx: TContext): TAnswer {
    const byTransaction = ctx.query.get('transactionReference');
    const byPayment = ctx.query.get('paymentReference');
    const reference =
      byTransaction ?? (byPayment ? state.byPaymentReference.get(byPayment) : undefined);
    if (!byTransaction && !byPayment)
      throw new MonnifyRefusal(400, 'transactionReference or paymentReference is required');
    return success(transactionObject(current(find(reference ?? ''))));
  }

  /** GET /api/v1/transactions/search: pages of transactions made within from…to (epoch ms). */
  function search(ctx: TContext): TAnswer {
    const page = Number(ctx.query.get('page') ?? 0);
    const size = Math.min(100, Number(ctx.query.get('size') ?? 10));
    const from = Number(ctx.query.get('from') ?? 0);
    const to = Number(ctx.query.get('to') ?? Number.MAX_SAFE_INTEGER);
    const all = [...state.transactions.values()]
      .map(current)
      .filter((t) => t.createdOn.getTime() >= from && t.createdOn.getTime() <= to);
    return success(pageOf(all.map(transactionObject), page, size));
  }

  return [
    { method: 'GET', path: /^\/api\/v2\/merchant\/transactions\/query$/, handle: query },
    { method: 'GET', path: /^\/api\/v2\/transactions\/.+$/, handle: status },
    { method: 'GET', path: /^\/api\/v1\/transactions\/search$/, handle: search },
  ];
}

/** Collections' calls, and the payer's doings a test plays: a transfer in, a 3-D Secure answer. */
export function collections(state: TSimState) {
  const find = (transactionReference: string) => {
    const found = state.transactions.get(transactionReference);
    if (!found)
      throw new MonnifyRefusal(
        404,
        'Could not find transaction with the specified transaction reference',
        '99',
      );
    return found;
  };

  const paid = (t: TTransaction, ctx: { later: TContext['later'] } | null) => {
    t.paidOn = state.now();
    const notice = () => state.send('SUCCESSFUL_TRANSACTION', successfulTransaction(t));
    if (ctx) ctx.later.push(notice);
    return notice;
  };

  /** A transaction whose time ran out unpaid reads EXPIRED. */
  const current = (t: TTransaction) => {
    if (t.paymentStatus === 'PENDING' && t.account && t.account.expiresAt <= state.now()) {
      t.paymentStatus = 'EXPIRED';
    }
    return t;
  };

  const kit: TCollections = { state, find, paid, current };
  const transfer = bankTransfer(kit);
  const steps = cardSteps(kit);
  const routes: TRoute[] = [
    ...transactionRoutes(kit),
    ...transfer.routes,
    ...cardCharge(kit),
    ...steps.routes,
    ...statusReads(kit),
  ];

  return {
    routes,
    payTransfer: transfer.payTransfer,
    answerThreeDs: steps.answerThreeDs,
    find,
    current,
  };
}
