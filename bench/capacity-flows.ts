// The payments of bench/capacity.ts, each what one payer arriving at a merchant's checkout does,
// over HTTP, with the calls and the sandbox's test cards and flows the server tests use
// (src/server/testing; docs/sandbox.md):
// - card_pin: the `pin_only` card, without sign-in (one charge call, answered paid);
// - card_otp: the `pin_otp` card, without sign-in, then its OTP (`123456`) with the charge's token;
// - transfer: the payment's one-time account opened, the exact amount sent into it through the
//   sandbox bank, answered `credited` once our notices route applied it;
// - onetap: a signed-in payer with a passkey and a linked account grants the consent, the
//   immediate payment debited from that account (spec §2);
// - collection: the same kind of payer grants a consent of one 'As needed' future payment,
//   bound to their linked account, and the merchant collects it (POST
//   /api/v1/payments/{id}/collect), answered 201 debited or 202 and then read until executed.
// Every payment begins with the merchant's consent (POST /api/v1/consents) and the payer's page
// reading it (GET /api/consent/{id}), and ends when an answer says it was executed.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { oneTapGrant, signedGrant } from '../src/server/testing/identity';
import { payByCard, payByTransfer, sandboxCard } from '../src/server/testing/payments';
import type { TMerchant, TPayer } from './processes-mix';

export const FLOWS = ['card_pin', 'card_otp', 'transfer', 'onetap', 'collection'] as const;
export type TFlow = (typeof FLOWS)[number];

/**
 * The flows a run pays, in turn: FLOWS (names, comma-separated), to measure what one way of paying
 * costs; every flow by default.
 */
export const RUN_FLOWS: readonly TFlow[] = (() => {
  const named = process.env.FLOWS?.split(',').map((name) => name.trim()) ?? [];
  if (named.length === 0) return FLOWS;
  const unknown = named.filter((name) => !(FLOWS as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`FLOWS: no flow ${unknown.join(', ')} (${FLOWS.join(', ')})`);
  return named as TFlow[];
})();

/** The flows whose payer is signed in with a passkey and a linked account (the pool's). */
export const SIGNED_IN_FLOWS: readonly TFlow[] = ['onetap', 'collection'];

/** Every payment: ₦100, well within a minted account's balance for thousands of debits. */
const AMOUNT = 10_000;
/** How often a collection answered 202 (a bank still answering) is read again. */
const COLLECTION_READ_EVERY_MS = 100;

type TIds = { consentId: string; paymentId: string };

export type TPaymentContext = {
  base: string;
  merchant: TMerchant;
  /** The payer's page: a remote app whose requests name the payer's own address. */
  app: FastifyInstance;
  /** The signed-in payer of onetap and collection; null for the others. */
  payer: TPayer | null;
};

/** A failure that says which call answered what. */
const failed = (call: string, answer: { statusCode: number; body: string }) =>
  new Error(`${call}: ${answer.statusCode} ${answer.body.slice(0, 160)}`);

/** A merchant API call, answered as the payer's page answers are. */
async function merchantCall(
  base: string,
  merchant: TMerchant,
  request: { method: string; url: string; body?: unknown; idempotencyKey?: string },
) {
  const answer = await fetch(`${base}${request.url}`, {
    method: request.method,
    headers: {
      authorization: merchant.authorization,
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(request.idempotencyKey ? { 'idempotency-key': request.idempotencyKey } : {}),
    },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  const body = await answer.text();
  return { statusCode: answer.status, body, json: <T>() => JSON.parse(body) as T };
}

/** The merchant's consent for `flow`, and its one payment's id as the payer's page reads it. */
async function consentFor(context: TPaymentContext, flow: TFlow): Promise<TIds> {
  const payment =
    flow === 'collection'
      ? { type: 'future', amount: AMOUNT, amountType: 'fixed', narration: 'Bench membership' }
      : { type: 'immediate', amount: AMOUNT, narration: 'Bench order' };
  const created = await merchantCall(context.base, context.merchant, {
    method: 'POST',
    url: '/api/v1/consents',
    idempotencyKey: randomUUID(),
    body: {
      payments: [payment],
      requirements: { requiresAuth: SIGNED_IN_FLOWS.includes(flow) },
    },
  });
  if (created.statusCode !== 201) throw failed('consent', created);
  const { consentId } = created.json<{ consentId: string }>();
  const read = await context.app.inject({
    method: 'GET',
    url: `/api/consent/${consentId}?clientId=${context.merchant.clientId}`,
  });
  if (read.statusCode !== 200) throw failed('consent read', read);
  const paymentId = read.json<{ consent: { payments: { paymentId: string }[] } }>().consent
    .payments[0]?.paymentId;
  if (!paymentId) throw new Error('consent read: no payment');
  return { consentId, paymentId };
}

async function cardPin(context: TPaymentContext, ids: TIds): Promise<void> {
  const answer = await payByCard(context.app, ids, 'pin_only');
  const body = answer.json<{ success?: boolean; status?: string }>();
  if (answer.statusCode !== 200 || body.success !== true || body.status) {
    throw failed('card', answer);
  }
}

async function cardOtp(context: TPaymentContext, ids: TIds): Promise<void> {
  const charged = await payByCard(context.app, ids, 'pin_otp');
  const asked = charged.json<{ requiresOTP?: boolean; chargeToken?: string }>();
  if (charged.statusCode !== 200 || !asked.requiresOTP) throw failed('card', charged);
  const done = await context.app.inject({
    method: 'POST',
    url: '/api/payments/card/complete',
    payload: { ...ids, otp: sandboxCard('pin_otp').otp, chargeToken: asked.chargeToken },
  });
  if (done.statusCode !== 200 || done.json<{ success?: boolean }>().success !== true) {
    throw failed('OTP', done);
  }
}

async function transfer(context: TPaymentContext, ids: TIds): Promise<void> {
  const answer = await payByTransfer(context.app, ids);
  if (answer.statusCode !== 200 || answer.json<{ outcome: string }>().outcome !== 'credited') {
    throw failed('transfer', answer);
  }
}

function signedIn(context: TPaymentContext): TPayer {
  if (!context.payer) throw new Error('this flow needs a signed-in payer');
  return context.payer;
}

async function oneTap(context: TPaymentContext, ids: TIds): Promise<void> {
  const payer = signedIn(context);
  const answer = await oneTapGrant(context.app, payer, ids.consentId, payer.accountId);
  const results = answer.json<{ paymentResults?: { succeeded: number } }>().paymentResults;
  if (answer.statusCode !== 200 || results?.succeeded !== 1) throw failed('grant', answer);
}

/** The grant of a consent's future payment, bound to the payer's linked account. */
async function grantFuture(context: TPaymentContext, payer: TPayer, consentId: string) {
  const data = {
    originalRequestId: null,
    consentData: { consentId },
    userAuthenticated: true,
    attestDiscoveryId: null,
    futurePayments: {
      granted: true,
      selectedAccounts: [payer.accountId],
      paymentMethods: [{ type: 'account' as const, accountId: payer.accountId }],
    },
  };
  const granted = await context.app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    headers: payer.headers,
    payload: await signedGrant(context.app, payer.soft, payer.token, consentId, data),
  });
  if (granted.statusCode !== 200) throw failed('grant', granted);
}

async function collection(context: TPaymentContext, ids: TIds): Promise<void> {
  await grantFuture(context, signedIn(context), ids.consentId);
  const collected = await merchantCall(context.base, context.merchant, {
    method: 'POST',
    url: `/api/v1/payments/${ids.paymentId}/collect`,
    idempotencyKey: randomUUID(),
    body: { amount: AMOUNT },
  });
  if (collected.statusCode === 201) return;
  if (collected.statusCode !== 202) throw failed('collect', collected);
  // A bank still answering: the runner finishes it; the merchant reads the payment meanwhile.
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, COLLECTION_READ_EVERY_MS));
    const read = await merchantCall(context.base, context.merchant, {
      method: 'GET',
      url: `/api/v1/payments/${ids.paymentId}`,
    });
    if (read.statusCode !== 200) throw failed('payment read', read);
    const status = read.json<{ payment: { status: string } }>().payment.status;
    if (status === 'executed') return;
    if (status !== 'pending') throw failed('payment read', read);
  }
}

const PAY: Record<TFlow, (context: TPaymentContext, ids: TIds) => Promise<void>> = {
  card_pin: cardPin,
  card_otp: cardOtp,
  transfer,
  onetap: oneTap,
  collection,
};

/** One payer's payment of `flow`, from the merchant's consent to the answer that says executed. */
export async function payOnce(context: TPaymentContext, flow: TFlow): Promise<void> {
  const ids = await consentFor(context, flow);
  await PAY[flow](context, ids);
}
