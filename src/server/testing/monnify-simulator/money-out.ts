import {
  MonnifyRefusal,
  pageOf,
  koboIn,
  monnifyReference,
  monnifyTime,
  optionalStringIn,
  stringIn,
  success,
  toNaira,
  type TAnswer,
  type TContext,
  type TDisbursement,
  type TRefund,
  type TRoute,
  type TSimState,
  type TTransaction,
} from './simulator-state';

/**
 * Money going out: refunds of a transaction (initiate-refund, read by refundReference, listed),
 * single transfers (disbursements/single, its OTP authorisation, its summary, the list), and
 * the banks and accounts they reach: the bank list, account validation (name enquiry) and the
 * BVN-account match.
 */

/** The banks the simulator lists (Monnify's GET /api/v1/banks shape), a few of Nigeria's. */
export const BANKS = [
  { name: 'Access Bank', code: '044' },
  { name: 'First Bank of Nigeria', code: '011' },
  { name: 'Guaranty Trust Bank', code: '058' },
  { name: 'United Bank for Africa', code: '033' },
  { name: 'Zenith Bank', code: '057' },
  { name: 'Moniepoint Microfinance Bank', code: '50515' },
];

/** Accounts name enquiry finds, by `${bankCode}:${accountNumber}`, with the holder's BVN. */
export const ACCOUNTS: Record<string, { accountName: string; bvn: string }> = {
  '058:0123456789': { accountName: 'ADAEZE OKAFOR', bvn: '22200000011' },
  '044:0690000031': { accountName: 'TUNDE BAKARE', bvn: '22200000022' },
  '057:2000000001': { accountName: 'NGOZI EZE', bvn: '22200000033' },
};

const refundObject = (r: TRefund) => ({
  refundReference: r.refundReference,
  transactionReference: r.transactionReference,
  refundReason: r.refundReason,
  customerNote: r.customerNote,
  refundAmount: toNaira(r.refundAmount),
  refundType: 'PARTIAL_REFUND',
  refundStatus: r.refundStatus,
  refundStrategy: 'MERCHANT_WALLET',
  comment: r.comment,
  createdOn: monnifyTime(r.createdOn),
});

const disbursementObject = (d: TDisbursement) => ({
  amount: toNaira(d.amount),
  reference: d.reference,
  narration: d.narration,
  currency: 'NGN',
  fee: 10,
  twoFaEnabled: d.otp !== null,
  status: d.status,
  transactionDescription:
    d.status === 'FAILED' ? 'Invalid account' : 'Approved or completed successfully',
  transactionReference: d.transactionReference,
  createdOn: monnifyTime(d.createdOn),
  sourceAccountNumber: d.sourceAccountNumber,
  destinationAccountNumber: d.destinationAccountNumber,
  destinationAccountName: d.destinationAccountName,
  destinationBankCode: d.destinationBankCode,
  destinationBankName: BANKS.find((b) => b.code === d.destinationBankCode)?.name ?? '',
});

/** The refund notices' eventData (Webhook Events and Request Structure). */
const refundNotice = (state: TSimState, r: TRefund) => ({
  merchantReason: r.refundReason,
  transactionReference: r.transactionReference,
  completedOn: monnifyTime(state.now()),
  refundStatus: r.refundStatus,
  customerNote: r.customerNote,
  createdOn: monnifyTime(r.createdOn),
  refundReference: r.refundReference,
  refundAmount: toNaira(r.refundAmount),
});

/** Refunds of a transaction: initiated (processed at once, FAILED when a test asks), read, listed. */
function refunds(state: TSimState, transactionOf: (reference: string) => TTransaction) {
  const controls = { failNextRefund: false };

  function initiateRefund(ctx: TContext): TAnswer {
    const { body } = ctx;
    const refundReference = stringIn(body, 'refundReference');
    const t = transactionOf(stringIn(body, 'transactionReference'));
    const refundAmount = koboIn(body, 'refundAmount');
    const refundReason = stringIn(body, 'refundReason');
    const customerNote = stringIn(body, 'customerNote');
    if (refundReason.length > 64 || customerNote.length > 16) {
      throw new MonnifyRefusal(400, 'refundReason is limited to 64 characters, customerNote to 16');
    }
    if (state.refunds.has(refundReference)) {
      throw new MonnifyRefusal(400, 'Duplicate refund reference', 'R3');
    }
    if (!['PAID', 'OVERPAID', 'PARTIALLY_PAID'].includes(t.paymentStatus)) {
      throw new MonnifyRefusal(400, 'Transaction is not eligible for refund', 'R1');
    }
    if (refundAmount + t.refundedKobo > t.amountPaid) {
      throw new MonnifyRefusal(
        400,
        'Refund amount exceeds the amount left on the transaction',
        'R2',
      );
    }
    const failing = controls.failNextRefund;
    controls.failNextRefund = false;
    const refund: TRefund = {
      refundReference,
      transactionReference: t.transactionReference,
      refundAmount,
      refundReason,
      customerNote,
      refundStatus: 'IN_PROGRESS',
      createdOn: state.now(),
      comment: 'Transaction refund is in progress.',
    };
    state.refunds.set(refundReference, refund);
    const answer = success(refundObject(refund));
    // Processed right after it is taken: the answer says IN_PROGRESS, a read after says its end.
    if (failing) {
      refund.refundStatus = 'FAILED';
      refund.comment = 'Refund failed at the destination bank';
    } else {
      refund.refundStatus = 'COMPLETED';
      refund.comment = 'Refund processed successfully.';
      t.refundedKobo += refundAmount;
      if (t.refundedKobo >= t.amountPaid) t.paymentStatus = 'REVERSED';
    }
    ctx.later.push(() =>
      state.send(failing ? 'FAILED_REFUND' : 'SUCCESSFUL_REFUND', refundNotice(state, refund)),
    );
    return answer;
  }

  function readRefund(ctx: TContext): TAnswer {
    const refundReference = decodeURIComponent(ctx.segments[3] ?? '');
    const refund = state.refunds.get(refundReference);
    if (!refund) {
      throw new MonnifyRefusal(
        404,
        'No refund has been initiated for supplied transaction refund reference',
        'R7',
      );
    }
    return success(refundObject(refund));
  }

  function listRefunds(ctx: TContext): TAnswer {
    const page = Number(ctx.query.get('page') ?? 0);
    const size = Math.min(100, Number(ctx.query.get('size') ?? 10));
    return success(pageOf([...state.refunds.values()].map(refundObject), page, size));
  }

  const routes: TRoute[] = [
    { method: 'POST', path: /^\/api\/v1\/refunds\/initiate-refund$/, handle: initiateRefund },
    { method: 'GET', path: /^\/api\/v1\/refunds$/, handle: listRefunds },
    { method: 'GET', path: /^\/api\/v1\/refunds\/[^/]+$/, handle: readRefund },
  ];
  return {
    routes,
    failNextRefund: () => {
      controls.failNextRefund = true;
    },
  };
}

/** The disbursement notices' eventData (Webhook Events and Request Structure). */
const disbursementNotice = (state: TSimState, d: TDisbursement, status: string) => ({
  amount: toNaira(d.amount),
  transactionReference: d.transactionReference,
  fee: 10,
  transactionDescription: disbursementObject(d).transactionDescription,
  destinationAccountNumber: d.destinationAccountNumber,
  sessionId: `09000${Date.now()}`,
  createdOn: monnifyTime(d.createdOn),
  destinationAccountName: d.destinationAccountName,
  reference: d.reference,
  destinationBankCode: d.destinationBankCode,
  completedOn: monnifyTime(state.now()),
  narration: d.narration,
  currency: 'NGN',
  destinationBankName: disbursementObject(d).destinationBankName,
  status,
});

/** A transfer sent: SUCCESS to an account its bank holds, FAILED otherwise, each told. */
function complete(state: TSimState, d: TDisbursement, later: TContext['later']) {
  const known = ACCOUNTS[`${d.destinationBankCode}:${d.destinationAccountNumber}`];
  d.status = known ? 'SUCCESS' : 'FAILED';
  const event = known ? 'SUCCESSFUL_DISBURSEMENT' : 'FAILED_DISBURSEMENT';
  later.push(() => state.send(event, disbursementNotice(state, d, d.status)));
}

/** Single transfers: sent (with its OTP first when the wallet asks one), and reversed by a test. */
function disbursements(state: TSimState) {
  function single(ctx: TContext): TAnswer {
    const { body } = ctx;
    const reference = stringIn(body, 'reference');
    if (state.disbursements.has(reference)) {
      throw new MonnifyRefusal(400, `Duplicate reference ${reference}`, 'D01');
    }
    if (stringIn(body, 'sourceAccountNumber') !== state.walletAccountNumber) {
      throw new MonnifyRefusal(400, 'Invalid source account number');
    }
    const d: TDisbursement = {
      reference,
      transactionReference: monnifyReference(state).replace('MNFY', 'MFDS'),
      amount: koboIn(body, 'amount'),
      narration: stringIn(body, 'narration'),
      destinationBankCode: stringIn(body, 'destinationBankCode'),
      destinationAccountNumber: stringIn(body, 'destinationAccountNumber'),
      destinationAccountName: optionalStringIn(body, 'destinationAccountName') ?? '',
      sourceAccountNumber: state.walletAccountNumber,
      status: 'PENDING_AUTHORIZATION',
      createdOn: state.now(),
      otp: state.payoutOtp ? '654321' : null,
    };
    stringIn(body, 'currency');
    state.disbursements.set(reference, d);
    if (!state.payoutOtp) complete(state, d, ctx.later);
    return success({
      amount: toNaira(d.amount),
      reference: d.reference,
      status: d.status,
      dateCreated: monnifyTime(d.createdOn),
      totalFee: 10,
      destinationAccountName: d.destinationAccountName,
      destinationBankName: disbursementObject(d).destinationBankName,
      destinationAccountNumber: d.destinationAccountNumber,
      destinationBankCode: d.destinationBankCode,
    });
  }

  function validateOtp(ctx: TContext): TAnswer {
    const d = state.disbursements.get(stringIn(ctx.body, 'reference'));
    if (!d) throw new MonnifyRefusal(404, 'Transfer not found');
    if (d.status !== 'PENDING_AUTHORIZATION')
      throw new MonnifyRefusal(400, 'Transfer is not awaiting authorization');
    if (stringIn(ctx.body, 'authorizationCode') !== d.otp)
      throw new MonnifyRefusal(400, 'Invalid authorization code');
    complete(state, d, ctx.later);
    return success(disbursementObject(d));
  }

  /** A successful transfer sent back by the recipient's bank: REVERSED_DISBURSEMENT. */
  async function reverseDisbursement(reference: string) {
    const d = state.disbursements.get(reference);
    if (d?.status !== 'SUCCESS') throw new Error(`No successful transfer ${reference}`);
    d.status = 'REVERSED';
    await state.send('REVERSED_DISBURSEMENT', disbursementNotice(state, d, 'REVERSED'));
  }

  const routes: TRoute[] = [
    { method: 'POST', path: /^\/api\/v2\/disbursements\/single$/, handle: single },
    {
      method: 'POST',
      path: /^\/api\/v2\/disbursements\/single\/validate-otp$/,
      handle: validateOtp,
    },
  ];
  return { routes, reverseDisbursement };
}

/** The transfers read: one's summary by its reference, and the list of them all. */
function disbursementReads(state: TSimState): TRoute[] {
  function summary(ctx: TContext): TAnswer {
    const d = state.disbursements.get(ctx.query.get('reference') ?? '');
    if (!d) throw new MonnifyRefusal(404, 'Transfer not found', 'D04');
    return success(disbursementObject(d));
  }

  function listSingles(ctx: TContext): TAnswer {
    const page = Number(ctx.query.get('pageNo') ?? 0);
    const size = Math.min(100, Number(ctx.query.get('pageSize') ?? 10));
    return success(pageOf([...state.disbursements.values()].map(disbursementObject), page, size));
  }

  return [
    { method: 'GET', path: /^\/api\/v2\/disbursements\/single\/summary$/, handle: summary },
    {
      method: 'GET',
      path: /^\/api\/v2\/disbursements\/single\/transactions$/,
      handle: listSingles,
    },
  ];
}

/** The banks and the accounts a transfer reaches: the bank list, name enquiry, BVN match. */
function bankLookups(): TRoute[] {
  const banks = (): TAnswer =>
    success(
      BANKS.map((b) => ({
        ...b,
        ussdTemplate: null,
        baseUssdCode: null,
        transferUssdTemplate: null,
      })),
    );

  function validateAccount(ctx: TContext): TAnswer {
    const accountNumber = ctx.query.get('accountNumber') ?? '';
    const bankCode = ctx.query.get('bankCode') ?? '';
    const holder = ACCOUNTS[`${bankCode}:${accountNumber}`];
    if (!holder) throw new MonnifyRefusal(400, 'Could not find account', '99');
    return success({ accountNumber, accountName: holder.accountName, bankCode });
  }

  function bvnAccountMatch(ctx: TContext): TAnswer {
    const bankCode = stringIn(ctx.body, 'bankCode');
    const accountNumber = stringIn(ctx.body, 'accountNumber');
    const bvn = stringIn(ctx.body, 'bvn');
    const holder = ACCOUNTS[`${bankCode}:${accountNumber}`];
    if (!holder) throw new MonnifyRefusal(400, 'Invalid BVN or account provided', '99');
    const matches = holder.bvn === bvn;
    return success({
      bvn,
      accountNumber,
      accountName: holder.accountName,
      matchStatus: matches ? 'FULL_MATCH' : 'NO_MATCH',
      matchPercentage: matches ? 100 : 0,
    });
  }

  return [
    { method: 'GET', path: /^\/api\/v1\/banks$/, handle: banks },
    {
      method: 'GET',
      path: /^\/api\/v1\/disbursements\/account\/validate$/,
      handle: validateAccount,
    },
    { method: 'POST', path: /^\/api\/v1\/vas\/bvn-account-match$/, handle: bvnAccountMatch },
  ];
}

/** Money-out calls, and what a test does to them: a refund that fails, a transfer reversed. */
export function moneyOut(state: TSimState, transactionOf: (reference: string) => TTransaction) {
  const refund = refunds(state, transactionOf);
  const transfers = disbursements(state);
  const routes: TRoute[] = [
    ...refund.routes,
    ...transfers.routes,
    ...disbursementReads(state),
    ...bankLookups(),
  ];

  return {
    routes,
    reverseDisbursement: transfers.reverseDisbursement,
    failNextRefund: refund.failNextRefund,
    disbursementOtp: (reference: string) => state.disbursements.get(reference)?.otp ?? null,
  };
}
