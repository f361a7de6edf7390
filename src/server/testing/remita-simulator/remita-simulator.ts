import { createHash, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, listenLocally, readBody } from '../simulator-http';

/**
 * A Remita Direct Debit stand-in for tests and local runs, written from Remita's "Direct Debit
 * Integration Documentation" v2.0 (RemitaNet/remita-mandate-directdebit-sdk-php,
 * doc/Direct_Debit_Integration_Documentation_v2.0.pdf, sections 2 to 9), the PHP SDK's
 * ApplicationUrl.php and MandateDirectDebitService.php (paths, hashes, headers), and the Python
 * SDK's MandateForm.py (the printable form). Every answer is wrapped `jsonp (…)`, as Remita's are.
 * State lives in memory and dies with close(). README.md beside this file lists what it answers
 * and where Remita's documents are silent.
 */

/** An account at a bank Remita reaches, as the simulator's banks hold it. */
export type TRemitaSimAccount = {
  bankCode: string;
  accountNumber: string;
  balanceKobo: number;
  /** 'otp': its bank activates mandates by OTP; 'branch': only at the branch (PDF section 3). */
  activation: 'otp' | 'branch';
  /** The last 4 digits of the payer's card on it (the CARD auth parameter). */
  cardLast4: string;
};

export type TRemitaSimulatorOptions = {
  merchantId?: string;
  serviceTypeId?: string;
  apiKey?: string;
  apiToken?: string;
  accounts?: TRemitaSimAccount[];
  /**
   * Any account at a bank Remita lists is held, the first time it is named: ₦1,000,000.00,
   * activated by OTP, its card's digits the account number's last 4 (a local run's payers).
   */
  openAccounts?: boolean;
  port?: number;
  /** The simulator's time, for a mandate's dates (the real time by default). */
  now?: () => Date;
};

export type TRemitaSimulator = {
  /** e.g. http://127.0.0.1:PORT (REMITA_BASE_URL). */
  url: string;
  merchantId: string;
  serviceTypeId: string;
  apiKey: string;
  apiToken: string;
  /** The OTP the banks send for every activation. */
  otp: string;
  accounts: TRemitaSimAccount[];
  /** The simulator's time from now on: a test's clock, for a mandate's dates. */
  useClock(now: () => Date): void;
  /** Every request: its path and parsed body (the two activation calls' headers too). */
  requests: Array<{ path: string; body: unknown }>;
  /** The bank activates a mandate at its branch (a signed paper form): status says isActive. */
  activateAtBank(mandateId: string): void;
  /** A mandate by the requestId it was set up with. */
  mandateOf(requestId: string): TSimMandate | undefined;
  /** The debits that took money (072 pending credit, 00 completed): requestId and kobo. */
  debitsTaken(): Array<{ requestId: string; amountKobo: number }>;
  /** Debits sent stay awaiting debit (070) until false again. */
  holdDebits(hold: boolean): void;
  /** The next `count` requests (1) take effect and their answers are lost (the socket destroyed). */
  loseNextAnswer(count?: number): void;
  /**
   * The next payment/send takes its instruction as any other and answers `answer` instead (a
   * refusal's body while Remita holds the debit: what the adapter must not take at its word).
   */
  answerNextSendWith(answer: { statuscode: string; status: string }): void;
  close(): Promise<void>;
};

export type TSimMandate = {
  mandateId: string;
  requestId: string;
  bankCode: string;
  accountNumber: string;
  /** The most one debit may take (setup's `amount`). */
  amountKobo: number;
  /** The most debits sent in one calendar month (setup's `maxNoOfDebits`). */
  maxNoOfDebits: number;
  startDate: string;
  endDate: string;
  registrationDate: string;
  activationDate: string | null;
  state: 'inactive' | 'active' | 'stopped';
  remitaTransRef: string | null;
};

type TSimDebit = {
  requestId: string;
  mandateId: string;
  amountKobo: number;
  transactionRef: string;
  rrr: string;
  /** Remita's status code of the debit (PDF section 9.1), or a refusal's. */
  code: string;
  status: string;
  updatedAt: Date;
  /** When the instruction was taken (the simulator's time): the month it counts in. */
  sentAt: Date;
};

const DEFAULTS = {
  // The SDKs' published demo credentials' shape; any values do.
  merchantId: '27768931',
  serviceTypeId: '35126630',
  apiKey: 'Q1dHREVNTzEyMzR8Q1dHREVNTw==',
  apiToken: 'SGlQekNzMEdMbjhlRUZsUzJCWk5saDB6SU14Zk15djR4WmkxaUpDTll6bGIxRCs4UkVvaGhnPT0=',
};

/** The simulator's payers' accounts (docs/providers/remita.md "Simulator"). */
export const REMITA_SIM_ACCOUNTS: TRemitaSimAccount[] = [
  {
    bankCode: '058',
    accountNumber: '0123456789',
    balanceKobo: 1_000_000_000,
    activation: 'otp',
    cardLast4: '4321',
  },
  {
    bankCode: '044',
    accountNumber: '0690000031',
    balanceKobo: 5_000,
    activation: 'otp',
    cardLast4: '1111',
  },
  {
    bankCode: '035',
    accountNumber: '0211111119',
    balanceKobo: 1_000_000_000,
    activation: 'branch',
    cardLast4: '2222',
  },
];

/** The banks of the PDF's appendix 9.2. */
const BANKS = new Set([
  '023',
  '214',
  '011',
  '035',
  '039',
  '033',
  '101',
  '044',
  '050',
  '057',
  '063',
  '076',
  '082',
  '232',
  '032',
  '030',
  '301',
  '058',
  '070',
  '068',
  '100',
  '215',
]);

const PATH_ROOT = '/remita/exapp/api/v1/send/api/echannelsvc/echannel/mandate/';
const FORM_PATH = /^\/remita\/ecomm\/mandate\/form\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)\/rest\.reg$/;

const sha512 = (...fields: string[]) => createHash('sha512').update(fields.join('')).digest('hex');
const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');
const ddmmyyyy = (at: Date) =>
  `${String(at.getUTCDate()).padStart(2, '0')}/${String(at.getUTCMonth() + 1).padStart(2, '0')}/${at.getUTCFullYear()}`;
const naira = (kobo: number) => (kobo % 100 === 0 ? String(kobo / 100) : (kobo / 100).toFixed(2));
const koboOf = (amount: unknown) => Math.round(Number(amount) * 100);

type TBody = Record<string, unknown>;
type TAnswer = Record<string, unknown>;

// A body's field as the calls read it: its string, else ''.
const str = (body: TBody, key: string) => (typeof body[key] === 'string' ? body[key] : '');
const invalidHash = { statuscode: '013', status: 'Invalid Hash Value' };

/** One call's answer, before it is wrapped `jsonp (…)`. */
type TCall = (body: TBody, headers: IncomingMessage['headers']) => TAnswer;

/** What one simulator holds: its credentials, the banks' accounts and Remita's records. */
type TRemitaState = {
  merchantId: string;
  serviceTypeId: string;
  apiKey: string;
  apiToken: string;
  otp: string;
  openAccounts: boolean;
  accounts: TRemitaSimAccount[];
  mandates: Map<string, TSimMandate>;
  byRequestId: Map<string, TSimMandate>;
  byTransRef: Map<string, TSimMandate>;
  debits: Map<string, TSimDebit>;
  requests: TRemitaSimulator['requests'];
  /** Debits sent stay awaiting debit while set (holdDebits). */
  hold: boolean;
  /** How many of the next answers are lost (loseNextAnswer). */
  loseNext: number;
  now: () => Date;
  /** The next payment/send's answer, in place of its own (answerNextSendWith). */
  nextSendAnswer: TAnswer | null;
};

function remitaState(options: TRemitaSimulatorOptions): TRemitaState {
  return {
    merchantId: options.merchantId ?? DEFAULTS.merchantId,
    serviceTypeId: options.serviceTypeId ?? DEFAULTS.serviceTypeId,
    apiKey: options.apiKey ?? DEFAULTS.apiKey,
    apiToken: options.apiToken ?? DEFAULTS.apiToken,
    otp: '1234',
    openAccounts: options.openAccounts ?? false,
    // Copies: the balances debits take from are this simulator's, not the shared list's.
    accounts: (options.accounts ?? REMITA_SIM_ACCOUNTS).map((a) => ({ ...a })),
    mandates: new Map(),
    byRequestId: new Map(),
    byTransRef: new Map(),
    debits: new Map(),
    requests: [],
    hold: false,
    loseNext: 0,
    now: options.now ?? (() => new Date()),
    nextSendAnswer: null,
  };
}

/** The account the banks hold, opened on first naming where the simulator opens accounts. */
function accountOf(state: TRemitaState, bankCode: string, accountNumber: string) {
  const held = state.accounts.find(
    (a) => a.bankCode === bankCode && a.accountNumber === accountNumber,
  );
  if (held || !state.openAccounts || !BANKS.has(bankCode)) return held;
  const opened: TRemitaSimAccount = {
    bankCode,
    accountNumber,
    balanceKobo: 100_000_000,
    activation: 'otp',
    cardLast4: accountNumber.slice(-4),
  };
  state.accounts.push(opened);
  return opened;
}

/** The activation calls' headers (PDF sections 3.1, 3.2): key, request id and token hashed. */
function headersSigned(state: TRemitaState, headers: IncomingMessage['headers']) {
  const { merchantId, apiKey, apiToken } = state;
  const h = (name: string) => String(headers[name.toLowerCase()] ?? '');
  return (
    h('MERCHANT_ID') === merchantId &&
    h('API_KEY') === apiKey &&
    h('REQUEST_ID') !== '' &&
    h('REQUEST_TS') !== '' &&
    h('API_DETAILS_HASH') === sha512(apiKey, h('REQUEST_ID'), apiToken)
  );
}

/** A debit's status moves on when asked: the bank debits the account, or refuses. */
function advance(state: TRemitaState, debit: TSimDebit) {
  if (state.hold || !['069', '070', '071'].includes(debit.code)) return;
  const mandate = state.mandates.get(debit.mandateId);
  const payer = mandate && accountOf(state, mandate.bankCode, mandate.accountNumber);
  if (!payer || payer.balanceKobo < debit.amountKobo) {
    Object.assign(debit, { code: '999', status: 'Insufficient Funds', updatedAt: new Date() });
    return;
  }
  payer.balanceKobo -= debit.amountKobo;
  Object.assign(debit, { code: '072', status: 'Pending Credit', updatedAt: new Date() });
}

/** A day as setup's dates write it, DD/MM/YYYY, as a sortable YYYYMMDD. */
const dayKey = (ddmmyyyy: string) => ddmmyyyy.split('/').reverse().join('');
/** The simulator's day in Lagos (UTC+1) as YYYYMMDD. */
const lagosDay = (at: Date) => dayKey(ddmmyyyy(new Date(at.getTime() + 60 * 60 * 1_000)));

/**
 * A debit the mandate's rules do not allow (PDF section 6: "within the rules setup on the
 * concerned mandates"), or null: before its startDate 062 Mandate Not Due, past its endDate 063
 * Expired Mandate (section 9.1); above its amount, or past its maxNoOfDebits in the calendar
 * month, a refusal the documents give no code for.
 */
function outsideMandate(state: TRemitaState, mandate: TSimMandate, amountKobo: number) {
  const today = lagosDay(state.now());
  if (today < dayKey(mandate.startDate)) return { statuscode: '062', status: 'Mandate Not Due' };
  if (today > dayKey(mandate.endDate)) return { statuscode: '063', status: 'Expired Mandate' };
  if (amountKobo > mandate.amountKobo) {
    return { statuscode: '999', status: 'Amount above the mandate' };
  }
  const month = today.slice(0, 6);
  const sent = [...state.debits.values()].filter(
    (d) => d.mandateId === mandate.mandateId && lagosDay(d.sentAt).slice(0, 6) === month,
  );
  if (sent.length >= mandate.maxNoOfDebits) {
    return { statuscode: '999', status: 'Maximum number of debits for the month reached' };
  }
  return null;
}

/** The mandate's own calls: set it up, ask its status, stop it. */
function mandateCalls(state: TRemitaState): Record<string, TCall> {
  const { merchantId, serviceTypeId, apiKey, mandates, byRequestId } = state;
  return {
    setup(body) {
      const requestId = str(body, 'requestId');
      const amount = str(body, 'amount');
      if (str(body, 'merchantId') !== merchantId || str(body, 'serviceTypeId') !== serviceTypeId) {
        return { statuscode: '020', status: 'Authentication Error' };
      }
      if (str(body, 'hash') !== sha512(merchantId, serviceTypeId, requestId, amount, apiKey)) {
        return invalidHash;
      }
      for (const key of [
        'payerName',
        'payerEmail',
        'payerPhone',
        'payerBankCode',
        'payerAccount',
        'startDate',
        'endDate',
        'maxNoOfDebits',
      ]) {
        if (!str(body, key)) return { statuscode: '999', status: `${key} is required` };
      }
      const limits = ['amount', 'maxNoOfDebits'].map((key) => Number(str(body, key)));
      const dates = ['startDate', 'endDate'].map((key) => str(body, key));
      if (limits.some((n) => !(n > 0)) || !dates.every((d) => /^\d\d\/\d\d\/\d{4}$/.test(d))) {
        return { statuscode: '999', status: 'Invalid mandate limits' };
      }
      if (str(body, 'mandateType') !== 'DD') {
        return { statuscode: '067', status: 'Only Direct Debit Mandate Allowed' };
      }
      if (!BANKS.has(str(body, 'payerBankCode'))) {
        return { statuscode: '999', status: 'Invalid Bank Code' };
      }
      // Silent in the documents: a setup repeated with its requestId names the same mandate.
      const known = byRequestId.get(requestId);
      const mandate: TSimMandate = known ?? {
        mandateId: `${randomInt(10, 99)}000${digits(7)}`,
        requestId,
        bankCode: str(body, 'payerBankCode'),
        accountNumber: str(body, 'payerAccount'),
        amountKobo: koboOf(amount),
        maxNoOfDebits: Number(str(body, 'maxNoOfDebits')),
        startDate: str(body, 'startDate'),
        endDate: str(body, 'endDate'),
        registrationDate: ddmmyyyy(new Date()),
        activationDate: null,
        state: 'inactive',
        remitaTransRef: null,
      };
      mandates.set(mandate.mandateId, mandate);
      byRequestId.set(requestId, mandate);
      return {
        statuscode: '040',
        requestId,
        mandateId: mandate.mandateId,
        status: 'Initial Request OK',
      };
    },

    status(body) {
      const mandateId = str(body, 'mandateId');
      const requestId = str(body, 'requestId');
      if (str(body, 'hash') !== sha512(mandateId, merchantId, requestId, apiKey))
        return invalidHash;
      const mandate = mandates.get(mandateId);
      if (!mandate || mandate.requestId !== requestId) {
        return { statuscode: '074', status: 'No Available Record' };
      }
      return {
        statuscode: '00',
        requestId,
        mandateId,
        registrationDate: mandate.registrationDate,
        isActive: mandate.state === 'active',
        activationDate: mandate.activationDate,
        startDate: mandate.startDate,
        endDate: mandate.endDate,
        status: 'Transaction Completed Successfully',
      };
    },

    stop(body) {
      const mandateId = str(body, 'mandateId');
      const requestId = str(body, 'requestId');
      if (str(body, 'hash') !== sha512(mandateId, merchantId, requestId, apiKey))
        return invalidHash;
      const mandate = mandates.get(mandateId);
      if (!mandate || mandate.requestId !== requestId) {
        return { statuscode: '061', status: 'Invalid Mandate' };
      }
      if (mandate.state === 'stopped') return { statuscode: '066', status: 'Mandate Deactivated' };
      // Only active mandates can be stopped (PDF section 8); one never activated is no mandate.
      if (mandate.state !== 'active') return { statuscode: '061', status: 'Invalid Mandate' };
      mandate.state = 'stopped';
      return { statuscode: '00', mandateId, status: 'Completed Succesfully' };
    },
  };
}

/** Activation by OTP (PDF sections 3.1, 3.2): the bank asks for its parameters, then checks them. */
function activationCalls(state: TRemitaState): Record<string, TCall> {
  const { mandates, byTransRef } = state;
  return {
    requestAuthorization(body, headers) {
      if (!headersSigned(state, headers)) return invalidHash;
      const mandate = mandates.get(str(body, 'mandateId'));
      if (!mandate || mandate.requestId !== str(body, 'requestId')) {
        return { statuscode: '061', status: 'Invalid Mandate' };
      }
      if (mandate.state === 'active')
        return { statuscode: '075', status: 'Mandate Already Active' };
      const payer = accountOf(state, mandate.bankCode, mandate.accountNumber);
      // Silent in the documents: a bank not OTP-integrated answers no auth parameters.
      if (!payer || payer.activation !== 'otp') {
        return { statuscode: '999', status: 'Bank not integrated for OTP; activate at the branch' };
      }
      // One activation at a time per mandate: asked again, the same.
      mandate.remitaTransRef ??= digits(13);
      byTransRef.set(mandate.remitaTransRef, mandate);
      return {
        statuscode: '00',
        authParams: [
          {
            param1: 'OTP',
            description1: 'Please enter your Bank OTP',
            param2: 'CARD',
            description2: 'Please specify the last 4 digits of your bank card',
          },
        ],
        requestId: mandate.requestId,
        mandateId: mandate.mandateId,
        remitaTransRef: mandate.remitaTransRef,
        status: 'SUCCESS',
      };
    },

    validateAuthorization(body, headers) {
      if (!headersSigned(state, headers)) return invalidHash;
      const mandate = byTransRef.get(str(body, 'remitaTransRef'));
      if (!mandate) return { statuscode: '061', status: 'Invalid Mandate' };
      const params = Array.isArray(body.authParams) ? (body.authParams as TBody[]) : [];
      const value = (name: string) =>
        params.find((p) => p.param1 === name || p.param2 === name)?.value;
      const payer = accountOf(state, mandate.bankCode, mandate.accountNumber);
      if (!payer || value('OTP') !== state.otp || value('CARD') !== payer.cardLast4) {
        return { statuscode: '020', status: 'Authentication Error' };
      }
      if (mandate.state === 'inactive') {
        mandate.state = 'active';
        mandate.activationDate = ddmmyyyy(new Date());
      }
      return {
        statuscode: '00',
        mandateId: mandate.mandateId,
        status: 'Mandate Activated Successfully',
      };
    },
  };
}

/** Debits on an active mandate: send one, ask its status, cancel one not yet taken. */
function debitCalls(state: TRemitaState): Record<string, TCall> {
  const { merchantId, serviceTypeId, apiKey, mandates, debits } = state;
  return {
    'payment/send'(body) {
      const requestId = str(body, 'requestId');
      const totalAmount = str(body, 'totalAmount');
      if (str(body, 'hash') !== sha512(merchantId, serviceTypeId, requestId, totalAmount, apiKey)) {
        return invalidHash;
      }
      const mandate = mandates.get(str(body, 'mandateId'));
      if (!mandate) return { statuscode: '061', status: 'Invalid Mandate' };
      if (mandate.state === 'stopped') return { statuscode: '066', status: 'Mandate Deactivated' };
      if (mandate.state !== 'active') return { statuscode: '061', status: 'Invalid Mandate' };
      if (
        str(body, 'fundingAccount') !== mandate.accountNumber ||
        str(body, 'fundingBankCode') !== mandate.bankCode
      ) {
        return { statuscode: '061', status: 'Invalid Mandate' };
      }
      // Silent in the documents: a requestId sent again answers the debit it named.
      const known = debits.get(requestId);
      const refused = known ? null : outsideMandate(state, mandate, koboOf(totalAmount));
      if (refused) return refused;
      const debit: TSimDebit = known ?? {
        requestId,
        mandateId: mandate.mandateId,
        amountKobo: koboOf(totalAmount),
        transactionRef: digits(7),
        rrr: digits(12),
        code: '070',
        status: 'Awaiting Debit',
        updatedAt: new Date(),
        sentAt: state.now(),
      };
      debits.set(requestId, debit);
      const told = state.nextSendAnswer;
      state.nextSendAnswer = null;
      if (told) return told;
      return {
        mandateId: mandate.mandateId,
        RRR: debit.rrr,
        transactionRef: debit.transactionRef,
        statuscode: '01',
        status: 'Approved',
      };
    },

    'payment/status'(body) {
      const mandateId = str(body, 'mandateId');
      const requestId = str(body, 'requestId');
      if (str(body, 'hash') !== sha512(mandateId, merchantId, requestId, apiKey))
        return invalidHash;
      const debit = debits.get(requestId);
      if (!debit || debit.mandateId !== mandateId) {
        return { statuscode: '074', status: 'No Available Record' };
      }
      advance(state, debit);
      return {
        statuscode: debit.code,
        amount: naira(debit.amountKobo),
        requestId,
        mandateId,
        lastStatusUpdateTime: debit.updatedAt.toISOString().slice(0, 19).replace('T', ' '),
        status: debit.status,
      };
    },

    'payment/stop'(body) {
      const transactionRef = str(body, 'transactionRef');
      const requestId = str(body, 'requestId');
      if (str(body, 'hash') !== sha512(transactionRef, merchantId, requestId, apiKey)) {
        return invalidHash;
      }
      const debit = debits.get(requestId);
      if (!debit || debit.transactionRef !== transactionRef) {
        return { statuscode: '074', status: 'No Available Record' };
      }
      // Only before the payer's account was debited (PDF section 6).
      if (!['069', '070', '071'].includes(debit.code)) {
        return { statuscode: '999', status: 'Debit already processed' };
      }
      Object.assign(debit, { code: '999', status: 'Cancelled', updatedAt: new Date() });
      return { statuscode: '00', mandateId: debit.mandateId, status: 'Completed Succesfully' };
    },
  };
}

/** The printable mandate form (the Python SDK's MandateForm.py), signed at the payer's bank. */
function serveForm(state: TRemitaState, match: RegExpExecArray, res: ServerResponse) {
  const { merchantId, apiKey } = state;
  const [, merchant = '', hash = '', mandateId = '', requestId = ''] =
    match.map(decodeURIComponent);
  const mandate = state.mandates.get(mandateId);
  if (
    merchant !== merchantId ||
    hash !== sha512(merchantId, apiKey, requestId) ||
    mandate?.requestId !== requestId
  ) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('Invalid mandate form request');
    return;
  }
  res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(
      `<!doctype html><html lang="en"><title>Remita Direct Debit Mandate</title><main><h1>Direct Debit Mandate ${mandateId}</h1><p>Account ${mandate.accountNumber}, bank ${mandate.bankCode}: sign and take this form to your bank.</p></main></html>`,
    );
}

/** Routes a request to the form or a call, and wraps the call's answer `jsonp (…)`. */
function remitaHandler(state: TRemitaState, calls: Record<string, TCall>) {
  return (req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then((raw) => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      const formMatch = FORM_PATH.exec(path);
      if (req.method === 'GET' && formMatch) {
        serveForm(state, formMatch, res);
        return;
      }
      const call = path.startsWith(PATH_ROOT) ? calls[path.slice(PATH_ROOT.length)] : undefined;
      if (req.method !== 'POST' || !call) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
        return;
      }
      let body: TBody;
      try {
        body = JSON.parse(raw || '{}') as TBody;
      } catch {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad Request');
        return;
      }
      state.requests.push({ path: path.slice(PATH_ROOT.length), body });
      const answer = call(body, req.headers);
      if (state.loseNext > 0) {
        state.loseNext -= 1;
        res.destroy();
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(`jsonp (${JSON.stringify(answer)})`);
    });
  };
}

/** What a test sees and steers: the credentials, the records, and the bank's own moves. */
function remitaControls(state: TRemitaState, server: Server, url: string): TRemitaSimulator {
  const { merchantId, serviceTypeId, apiKey, apiToken, otp, accounts, requests } = state;
  const { mandates, byRequestId, debits } = state;
  return {
    url,
    merchantId,
    serviceTypeId,
    apiKey,
    apiToken,
    otp,
    accounts,
    requests,
    activateAtBank(mandateId) {
      const mandate = mandates.get(mandateId);
      if (!mandate) throw new Error(`No mandate ${mandateId}`);
      if (mandate.state === 'inactive') {
        mandate.state = 'active';
        mandate.activationDate = ddmmyyyy(new Date());
      }
    },
    mandateOf: (requestId) => byRequestId.get(requestId),
    debitsTaken: () =>
      [...debits.values()]
        .filter((d) => d.code === '072' || d.code === '00')
        .map(({ requestId, amountKobo }) => ({ requestId, amountKobo })),
    holdDebits(value) {
      state.hold = value;
    },
    loseNextAnswer(count = 1) {
      state.loseNext = count;
    },
    useClock(now) {
      state.now = now;
    },
    answerNextSendWith(answer) {
      state.nextSendAnswer = answer;
    },
    close: () => closeServer(server),
  };
}

/** The adapter's credentials that reach this simulator. */
export const remitaSimulatorCredentials = (sim: TRemitaSimulator) => ({
  merchantId: sim.merchantId,
  serviceTypeId: sim.serviceTypeId,
  apiKey: sim.apiKey,
  apiToken: sim.apiToken,
  baseUrl: sim.url,
});

/** The server's settings that put its mandates on this simulator (MANDATE_PROVIDER=remita). */
export const remitaSimulatorEnv = (sim: TRemitaSimulator) => ({
  MANDATE_PROVIDER: 'remita',
  REMITA_MERCHANT_ID: sim.merchantId,
  REMITA_SERVICE_TYPE_ID: sim.serviceTypeId,
  REMITA_API_KEY: sim.apiKey,
  REMITA_API_TOKEN: sim.apiToken,
  REMITA_BASE_URL: sim.url,
});

export async function startRemitaSimulator(
  options: TRemitaSimulatorOptions = {},
): Promise<TRemitaSimulator> {
  const state = remitaState(options);
  const calls = { ...mandateCalls(state), ...activationCalls(state), ...debitCalls(state) };
  const server = createServer(remitaHandler(state, calls));
  return remitaControls(state, server, await listenLocally(server, options.port ?? 0));
}
