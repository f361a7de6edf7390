// The bounded mix bench/processes.ts drives through nginx: a merchant (made with
// `scripts/client.ts`, as an operator makes one), payers who sign in with a passkey and link an
// account, and bursts of immediate payments paid by card (the sandbox's `pin_only` card, without
// sign-in), by transfer into the payment's one-time account, and by a OneTap grant (the payer's
// passkey signs the grant, the payment is debited from the linked account). Each payer's steps
// are the server tests' own helpers (src/server/testing), answered over HTTP by `remoteApp`.
import { spawnSync } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { remoteApp } from '../src/server/testing/crash-outbox';
import { oneTapGrant, payerWithPasskey } from '../src/server/testing/identity';
import { linkByTestTransfer, payByCard, payByTransfer } from '../src/server/testing/payments';
import { testConfig } from '../src/server/testing/test-app';

export const KINDS = ['card', 'transfer', 'grant'] as const;
export type TKind = (typeof KINDS)[number];

/** Every payment of the mix: ₦100, well within a linked account's balance. */
const AMOUNT = 10_000;

type TRequest = {
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: unknown;
};

let addresses = 0;
/** A new payer's address, named in X-Forwarded-For: each payer is counted alone by the limits. */
function nextAddress(): string {
  addresses += 1;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
}

/**
 * The deployment as a payer at `address` reaches it: through nginx at `base`. Its job backlog
 * (`app.jobs`) is the helpers' way to wait until an SMS code was sent.
 */
export function payerApp(base: string, address = nextAddress()): FastifyInstance {
  const app = remoteApp(base);
  return {
    inject: (request: TRequest) =>
      app.inject({
        ...request,
        headers: { ...request.headers, 'x-forwarded-for': address },
      } as never),
    jobs: app.jobs,
  } as unknown as FastifyInstance;
}

export type TMerchant = { clientId: string; authorization: string };

/** A merchant's API client, made on the database as `npm run client:create` makes one. */
export function createMerchant(databaseUrl: string): TMerchant {
  const made = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/client.ts', 'create', '--name', 'Bench Stores'],
    { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: 'utf8' },
  );
  const field = (name: string) => new RegExp(`^${name}:\\s+(\\S+)$`, 'm').exec(made.stdout)?.[1];
  const clientId = field('clientId');
  const secret = field('secret');
  if (made.status !== 0 || !clientId || !secret) {
    throw new Error(`client:create failed: ${made.stdout}${made.stderr}`);
  }
  return {
    clientId,
    authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
  };
}

/** The merchant's webhook to `url`, registered through the merchant API. */
export async function registerWebhook(base: string, merchant: TMerchant, url: string) {
  const answer = await fetch(`${base}/api/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: merchant.authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  });
  if (answer.status !== 201) throw new Error(`webhook: ${answer.status} ${await answer.text()}`);
}

export type TPayer = Awaited<ReturnType<typeof payerWithPasskey>> & { accountId: string };

/**
 * `count` payers, each signed up by a phone code, with a passkey and an account linked by its test
 * transfer: what a OneTap grant needs. A payer's grants are signed one after the other (a
 * passkey's signatures are counted), so each lane of a burst has its own.
 */
export function preparePayers(base: string, origin: string, count: number): Promise<TPayer[]> {
  const config = testConfig({ PUBLIC_URL: origin });
  return Promise.all(
    Array.from({ length: count }, async () => {
      const app = payerApp(base);
      const payer = await payerWithPasskey(app, config);
      const accountId = await linkByTestTransfer(app, payer.token, 'links_by_test_transfer');
      return { ...payer, accountId };
    }),
  );
}

export type TPayment = {
  index: number;
  kind: TKind;
  /** Empty when the merchant never got its consent made. */
  consentId: string;
  paymentId: string;
  /** The payer who pays it when it is a grant. */
  payer: TPayer;
  /** From the merchant's consent to the payer's answer. */
  ms: number;
  /** Why the payer's answer was not "paid"; undefined when it was. */
  failure?: string;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls made again after a 5xx or no answer, since the bench began. */
let madeAgain = 0;

/**
 * A call that the merchant's server, or the payer's page, makes again while the deployment
 * answers 5xx or not at all: a consent made with an Idempotency-Key, a read.
 */
async function again<T>(call: () => Promise<{ status: number; value: T }>): Promise<T> {
  let last = '';
  for (let tries = 0; tries < 10; tries += 1) {
    const answer = await call().catch((error: unknown) => ({ status: 0, value: String(error) }));
    if (answer.status > 0 && answer.status < 500) {
      if (answer.status >= 300) throw new Error(`${answer.status} ${String(answer.value)}`);
      return answer.value as T;
    }
    last = `${answer.status} ${String(answer.value)}`;
    madeAgain += 1;
    await sleep(500);
  }
  throw new Error(`no answer: ${last}`);
}

/** The merchant's consent with one immediate payment, and its payment's id as the page reads it. */
async function consentFor(
  base: string,
  app: FastifyInstance,
  merchant: TMerchant,
  kind: TKind,
  key: string,
): Promise<{ consentId: string; paymentId: string }> {
  const consentId = await again(async () => {
    const answer = await fetch(`${base}/api/v1/consents`, {
      method: 'POST',
      headers: {
        authorization: merchant.authorization,
        'content-type': 'application/json',
        'idempotency-key': key,
      },
      body: JSON.stringify({
        payments: [{ type: 'immediate', amount: AMOUNT, narration: `Bench order ${key}` }],
        requirements: { requiresAuth: kind === 'grant' },
      }),
    });
    const text = await answer.text();
    return {
      status: answer.status,
      value: answer.status === 201 ? (JSON.parse(text) as { consentId: string }).consentId : text,
    };
  });
  const paymentId = await again(async () => {
    const read = await app.inject({
      method: 'GET',
      url: `/api/consent/${consentId}?clientId=${merchant.clientId}`,
    });
    return {
      status: read.statusCode,
      value:
        read.statusCode === 200
          ? (read.json<{ consent: { payments: { paymentId: string }[] } }>().consent.payments[0]
              ?.paymentId ?? '')
          : read.body,
    };
  });
  return { consentId, paymentId };
}

/** The payer pays, the way `kind` says; undefined when the answer says paid, else what it said. */
export async function pay(
  app: FastifyInstance,
  kind: TKind,
  ids: { consentId: string; paymentId: string },
  payer: TPayer,
): Promise<string | undefined> {
  try {
    if (kind === 'card') {
      const answer = await payByCard(app, ids, 'pin_only');
      const body = answer.json<{ success?: boolean; status?: string }>();
      const paid = answer.statusCode === 200 && body.success === true && !body.status;
      return paid ? undefined : `${answer.statusCode} ${answer.body.slice(0, 200)}`;
    }
    if (kind === 'transfer') {
      const answer = await payByTransfer(app, ids);
      const paid =
        answer.statusCode === 200 && answer.json<{ outcome: string }>().outcome === 'credited';
      return paid ? undefined : `${answer.statusCode} ${answer.body.slice(0, 200)}`;
    }
    const answer = await oneTapGrant(app, payer, ids.consentId, payer.accountId);
    const results = answer.json<{ paymentResults?: { succeeded: number } }>().paymentResults;
    const paid = answer.statusCode === 200 && results?.succeeded === 1;
    return paid ? undefined : `${answer.statusCode} ${answer.body.slice(0, 200)}`;
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0] : String(error);
  }
}

/**
 * `count` payments through nginx at `base`, one lane per payer, kinds in turn (card, transfer,
 * grant). `onAnswered` hears how many have their answer so far. `madeAgain` counts the merchant's
 * and the pages' calls made again after a 5xx or no answer.
 */
export async function burst(options: {
  base: string;
  merchant: TMerchant;
  payers: TPayer[];
  count: number;
  /** Makes the merchant's idempotency keys unique across bursts. */
  label: string;
  onAnswered?: (answered: number) => void;
}): Promise<{ payments: TPayment[]; seconds: number; madeAgain: number }> {
  const payments: TPayment[] = [];
  const madeAgainBefore = madeAgain;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    options.payers.map(async (payer) => {
      for (let index = next++; index < options.count; index = next++) {
        const kind = KINDS[index % KINDS.length] ?? 'card';
        const began = performance.now();
        const app = payerApp(options.base);
        let payment: TPayment;
        try {
          const ids = await consentFor(
            options.base,
            app,
            options.merchant,
            kind,
            `${options.label}-${index}`,
          );
          const failure = await pay(app, kind, ids, payer);
          payment = { index, kind, ...ids, payer, ms: performance.now() - began, failure };
        } catch (error) {
          const failure = `consent: ${error instanceof Error ? error.message : String(error)}`;
          payment = { index, kind, consentId: '', paymentId: '', payer, ms: 0, failure };
        }
        payments.push(payment);
        options.onAnswered?.(payments.length);
      }
    }),
  );
  return {
    payments,
    seconds: (performance.now() - started) / 1_000,
    madeAgain: madeAgain - madeAgainBefore,
  };
}
