import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listenLocally, readBody } from '../simulator-http';

/**
 * A Mono Lookup stand-in for tests and local runs, written from Mono's docs: "BVN Lookup
 * Integration Guide" (docs.mono.co/docs/lookup/bvn-igree: initiate with `bvn` and `scope`, the
 * answer's `session_id` and `methods` [{ method, hint }]; verify with `method` and the
 * `x-session-id` header, answered "Please enter the OTP that was sent to …"; details with `otp`,
 * answering the identity for scope `identity` or the accounts [{ account_name, account_number,
 * institution { bank_code, nip_code } }] for `bank_accounts`), "Account Number Integration Guide"
 * (docs.mono.co/docs/lookup/account-number: `nip_code`, `account_number`; data { name,
 * account_number, bvn, bank { name, code } }), and the answer envelope they share: `{ status,
 * message, timestamp, data }`. Every call needs the `mono-sec-key` header.
 *
 * Where Mono's docs are silent, it chooses, and says so here: a refusal is `{ status: 'failed',
 * message, timestamp, data: null }` with 400 (a wrong OTP, a method the session did not offer),
 * 404 (a BVN, a session or an account it does not hold) or 401 (the key); a session lives 10
 * minutes and serves one successful details call; a resend makes a new code. State lives in
 * memory and dies with close().
 */

export type TMonoPerson = {
  bvn: string;
  firstName: string;
  middleName: string | null;
  lastName: string;
  /** YYYY-MM-DD. */
  dob: string;
  /** National format, as NIBSS holds it: 08031234567. */
  phone: string;
  email: string | null;
  accounts: Array<{ nipCode: string; bankCode: string; accountNumber: string; name: string }>;
};

/** A code NIBSS sent, as the holder's phone or inbox got it. */
export type TMonoSentCode = { bvn: string; method: string; to: string; code: string };

export type TMonoSimulator = {
  /** e.g. http://127.0.0.1:PORT (MONO_BASE_URL). */
  url: string;
  secretKey: string;
  /** Every code it sent, oldest first. */
  sentCodes: TMonoSentCode[];
  /** Every request: its path, headers (the key's masked) and body, for the lookups billed. */
  requests: Array<{ path: string; body: unknown }>;
  /** Adds a person NIBSS holds. */
  addPerson(person: TMonoPerson): void;
  /** The next request answers `status` with a failed envelope, without effect. */
  failNext(status: number, message?: string): void;
  close(): Promise<void>;
};

const SESSION_MS = 10 * 60_000;

type TSession = {
  bvn: string;
  scope: 'identity' | 'bank_accounts';
  expiresAt: number;
  code: string | null;
  spent: boolean;
};

/** '08031234567' as Mono hints at it: '0803***4567'. */
const masked = (phone: string) => `${phone.slice(0, 4)}***${phone.slice(-4)}`;
const maskedEmail = (email: string) => {
  const [name = '', domain = ''] = email.split('@');
  return `${name.slice(0, 4)}***@${domain}`;
};

function methodsOf(person: TMonoPerson) {
  return [
    {
      method: 'phone',
      hint: `Sms with a verification code will be sent to phone ${masked(person.phone)}`,
    },
    ...(person.email
      ? [
          {
            method: 'email',
            hint: `An email with a verification code will be sent to ${maskedEmail(person.email)}`,
          },
        ]
      : []),
    {
      method: 'alternate_phone',
      hint: 'Sms with a verification code will be sent to your alternate phone number',
    },
  ];
}

/** What one simulator holds: NIBSS's people, Mono's sessions, and what it sent and was sent. */
type TMonoState = {
  secretKey: string;
  people: Map<string, TMonoPerson>;
  sessions: Map<string, TSession>;
  sentCodes: TMonoSentCode[];
  requests: TMonoSimulator['requests'];
  /** The next request's refusal (failNext). */
  failure: { status: number; message: string } | null;
};

type TRoute = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) => void;

function monoState(options: { secretKey?: string; people?: TMonoPerson[] }): TMonoState {
  return {
    secretKey: options.secretKey ?? `test_sk_${randomBytes(12).toString('hex')}`,
    people: new Map((options.people ?? []).map((person) => [person.bvn, person])),
    sessions: new Map(),
    sentCodes: [],
    requests: [],
    failure: null,
  };
}

/** Mono's envelope: `{ status, message, timestamp, data }`, failed from 300 up. */
function answer(res: ServerResponse, status: number, message: string, data: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      status: status < 300 ? 'successful' : 'failed',
      message,
      timestamp: new Date().toISOString(),
      data,
    }),
  );
}

/** The `x-session-id` header's session, while it has not served its details nor expired. */
function liveSession(state: TMonoState, req: IncomingMessage): TSession | null {
  const id = req.headers['x-session-id'];
  const session = typeof id === 'string' ? state.sessions.get(id) : undefined;
  return session && !session.spent && session.expiresAt > Date.now() ? session : null;
}

/** BVN Lookup's three steps: initiate a session, send a code by a method, answer the details. */
function bvnRoutes(state: TMonoState): Record<string, TRoute> {
  const { people, sessions, sentCodes } = state;
  return {
    '/v2/lookup/bvn/initiate': (_req, res, body) => {
      const person = typeof body.bvn === 'string' ? people.get(body.bvn) : undefined;
      if (!person) return answer(res, 404, 'BVN not found', null);
      const sessionId = randomUUID();
      sessions.set(sessionId, {
        bvn: person.bvn,
        scope: body.scope === 'bank_accounts' ? 'bank_accounts' : 'identity',
        expiresAt: Date.now() + SESSION_MS,
        code: null,
        spent: false,
      });
      answer(res, 200, 'BVN Lookup successfully initiated.', {
        session_id: sessionId,
        methods: methodsOf(person),
      });
    },
    '/v2/lookup/bvn/verify': (req, res, body) => {
      const session = liveSession(state, req);
      const person = session ? people.get(session.bvn) : undefined;
      if (!session || !person) return answer(res, 404, 'Session not found or expired', null);
      const method = typeof body.method === 'string' ? body.method : '';
      const to =
        method === 'phone'
          ? person.phone
          : method === 'email' && person.email
            ? person.email
            : method === 'alternate_phone' && typeof body.phone_number === 'string'
              ? body.phone_number
              : null;
      if (!to) return answer(res, 400, 'Invalid verification method', null);
      session.code = randomInt(0, 1_000_000).toString().padStart(6, '0');
      sentCodes.push({ bvn: person.bvn, method, to, code: session.code });
      answer(res, 200, `Please enter the OTP that was sent to ${to}`, null);
    },
    '/v2/lookup/bvn/details': (req, res, body) => {
      const session = liveSession(state, req);
      const person = session ? people.get(session.bvn) : undefined;
      if (!session || !person) return answer(res, 404, 'Session not found or expired', null);
      if (!session.code || body.otp !== session.code) return answer(res, 400, 'Invalid OTP', null);
      session.spent = true;
      if (session.scope === 'bank_accounts') {
        return answer(
          res,
          200,
          'BVN bank accounts successfully fetched.',
          person.accounts.map((account) => ({
            account_name: account.name,
            account_number: account.accountNumber,
            account_type: 'SAVINGS',
            account_designation: 'INDIVIDUAL',
            institution: {
              name: 'Bank',
              branch: '0000000',
              bank_code: account.bankCode,
              nip_code: account.nipCode,
            },
          })),
        );
      }
      answer(res, 200, 'BVN details successfully fetched.', {
        first_name: person.firstName,
        last_name: person.lastName,
        middle_name: person.middleName,
        dob: person.dob,
        phone_number: person.phone,
        email: person.email,
        bvn: person.bvn,
      });
    },
  };
}

/** Account Number Lookup: the holder of an account at a bank, by its NIP code. */
function accountNumberRoutes(state: TMonoState): Record<string, TRoute> {
  return {
    '/v3/lookup/account-number': (_req, res, body) => {
      for (const person of state.people.values()) {
        const account = person.accounts.find(
          (a) => a.nipCode === body.nip_code && a.accountNumber === body.account_number,
        );
        if (account) {
          return answer(res, 200, 'Lookup Successful', {
            name: account.name,
            account_number: account.accountNumber,
            bvn: person.bvn,
            bank: { name: 'Bank', code: account.nipCode },
          });
        }
      }
      answer(res, 404, 'Account not found', null);
    },
  };
}

/** Reads the body, records the request, checks the key, plays a failure set, then routes. */
function monoHandler(state: TMonoState, routes: Record<string, TRoute>) {
  return (req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then((raw) => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw || '{}') as Record<string, unknown>;
      } catch {
        return answer(res, 400, 'Invalid JSON body', null);
      }
      state.requests.push({ path, body });
      if (req.headers['mono-sec-key'] !== state.secretKey) {
        return answer(res, 401, 'Invalid secret key', null);
      }
      if (state.failure) {
        const { status, message } = state.failure;
        state.failure = null;
        return answer(res, status, message, null);
      }
      const route = req.method === 'POST' ? routes[path] : undefined;
      if (!route) return answer(res, 404, 'Not found', null);
      route(req, res, body);
    });
  };
}

export async function startMonoSimulator(
  options: { secretKey?: string; port?: number; people?: TMonoPerson[] } = {},
): Promise<TMonoSimulator> {
  const state = monoState(options);
  const routes = { ...bvnRoutes(state), ...accountNumberRoutes(state) };
  const server = createServer(monoHandler(state, routes));
  const url = await listenLocally(server, options.port ?? 0);
  return {
    url,
    secretKey: state.secretKey,
    sentCodes: state.sentCodes,
    requests: state.requests,
    addPerson: (person) => state.people.set(person.bvn, person),
    failNext: (status, message = 'Simulated failure') => {
      state.failure = { status, message };
    },
    close: () => closeServer(server),
  };
}
