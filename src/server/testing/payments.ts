import { expect } from 'vitest';
// Server tests of payments: a merchant, a consent with an immediate payment, its card
// encrypted as the page encrypts it, and the books and events a payment leaves behind.
import { and, eq, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { encryptCard } from '../../domain/card-envelope';
import type { TAccountLink } from '../../domain/schemas/account-link';
import type { TEncryptedCard } from '../../domain/schemas/card';
import type { TSandboxTransferRequest } from '../../domain/schemas/sandbox';
import type { TDatabase } from '../db/database';
import {
  accountLinks,
  events,
  ledgerTransactions,
  paymentAttempts,
  sandboxAccounts,
} from '../db/schema';
import { SANDBOX_ACCOUNTS, SANDBOX_CARDS, type TAccountScenario } from '../sandbox/fixtures';
import { ownAccount } from './bvn';
import { createTestClient } from './test-app';

export type TCardScenarioName = (typeof SANDBOX_CARDS)[number]['scenario'];

export function sandboxCard(scenario: TCardScenarioName) {
  const card = SANDBOX_CARDS.find((c) => c.scenario === scenario);
  if (!card) throw new Error(`No sandbox card for ${scenario}`);
  return card;
}

/** The sandbox's test account that takes the `scenario` path (docs/sandbox.md). */
export function sandboxAccount(scenario: TAccountScenario) {
  const account = SANDBOX_ACCOUNTS.find((a) => a.scenario === scenario);
  if (!account) throw new Error(`No sandbox account for ${scenario}`);
  return account;
}

/**
 * The sandbox bank's balance of a test account: its fixture account of `scenario`, or a minted
 * person's account (`{ scenario, institutionCode, accountNumber }`), which opens with its
 * scenario's fixture balance. Either is its opening balance until something moves it.
 */
export async function sandboxBalanceOf(
  database: TDatabase,
  which: TAccountScenario | { scenario: string; institutionCode: string; accountNumber: string },
): Promise<number> {
  const { institutionCode, accountNumber } =
    typeof which === 'string' ? sandboxAccount(which) : which;
  const scenario = typeof which === 'string' ? which : which.scenario;
  const opening = SANDBOX_ACCOUNTS.find((a) => a.scenario === scenario);
  if (!opening) throw new Error(`No sandbox account for ${scenario}`);
  const { balance } = opening;
  const [row] = await database.db
    .select({ balance: sandboxAccounts.balance })
    .from(sandboxAccounts)
    .where(
      and(
        eq(sandboxAccounts.institutionCode, institutionCode),
        eq(sandboxAccounts.accountNumber, accountNumber),
      ),
    );
  return row?.balance ?? balance;
}

/** A consent with one immediate payment (and what else `extra` asks), and its payment's id. */
export async function consentWithPayment(
  app: FastifyInstance,
  database: TDatabase,
  options: { amount?: number; requiresAuth?: boolean; future?: boolean; expiresAt?: Date } = {},
) {
  const client = await createTestClient(database, { name: 'Tola Stores' });
  const amount = options.amount ?? 250_000;
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: client.authorization },
    payload: {
      payments: [
        { type: 'immediate', amount, narration: 'Order #1042' },
        ...(options.future
          ? [{ type: 'future', amount: 1_500_000, amountType: 'fixed', narration: 'Membership' }]
          : []),
      ],
      requirements: { requiresAuth: options.requiresAuth ?? false },
      ...(options.expiresAt ? { expiresAt: options.expiresAt.toISOString() } : {}),
    },
  });
  if (created.statusCode !== 201) throw new Error(`consent: ${created.body}`);
  const consentId = created.json<{ consentId: string }>().consentId;
  const read = await app.inject({
    method: 'GET',
    url: `/api/consent/${consentId}?clientId=${client.clientId}`,
  });
  const payments = read.json<{
    consent: { payments: Array<{ paymentId: string; type: string }> };
  }>().consent.payments;
  const paymentId = payments.find((p) => p.type === 'immediate')?.paymentId;
  if (!paymentId) throw new Error('no immediate payment');
  return { client, consentId, paymentId, amount };
}

/** The card's fields encrypted with the server's current key, as the page does it. */
export async function encryptedCard(
  app: FastifyInstance,
  card: { number: string; expiry: string; cvv: string; pin?: string },
): Promise<TEncryptedCard> {
  const key = await app.inject({ method: 'GET', url: '/api/encryption/public-key' });
  if (key.statusCode !== 200) throw new Error(`public key: ${key.body}`);
  return encryptCard(globalThis.crypto.subtle, key.json(), {
    cardNumber: card.number,
    expiryDate: card.expiry,
    cvv: card.cvv,
    ...(card.pin === undefined ? {} : { pin: card.pin }),
  });
}

/** The events of a payment's stream, oldest first: type and status. */
export async function paymentEvents(database: TDatabase, paymentId: string) {
  const rows = await database.db
    .select()
    .from(events)
    .where(eq(events.stream, `payment:${paymentId}`))
    .orderBy(events.id);
  return rows.map((r) => ({ type: r.type, ...(r.data as { status: string; message?: string }) }));
}

/** The kinds of ledger transactions booked for a payment (`paymentId`) or a reference, in order. */
async function ledgerKindsOf(database: TDatabase, which: SQL) {
  const rows = await database.db
    .select({ kind: ledgerTransactions.kind })
    .from(ledgerTransactions)
    .where(which)
    .orderBy(ledgerTransactions.id);
  return rows.map((r) => r.kind);
}

/** The kinds of ledger transactions booked for a payment. */
export const ledgerKinds = (database: TDatabase, paymentId: string) =>
  ledgerKindsOf(database, eq(ledgerTransactions.paymentId, paymentId));

/** The kinds of ledger transactions booked under a reference (an account link's id). */
export const ledgerKindsOfReference = (database: TDatabase, reference: string) =>
  ledgerKindsOf(database, eq(ledgerTransactions.reference, reference));

/** An account link as stored. */
export async function accountLinkRow(database: TDatabase, linkId: string) {
  const [row] = await database.db.select().from(accountLinks).where(eq(accountLinks.id, linkId));
  return row;
}

/**
 * A card link with its test charge (an attempt of its own, its id the link's), as the link's page
 * sees it: `chargeStage`, where the charge waits for the link while the link is open (none once
 * the link ended, whatever the charge still waits for at the network); `charge`, the attempt as
 * stored; and the network's reference and provider of the charge.
 */
export async function cardLinkRow(database: TDatabase, linkId: string) {
  const link = await accountLinkRow(database, linkId);
  if (!link) return undefined;
  const [charge] = await database.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.id, linkId));
  return {
    ...link,
    chargeStage: link.state === 'created' ? (charge?.stage ?? null) : null,
    chargeProvider: charge?.provider ?? null,
    providerReference: charge?.providerReference ?? null,
    charge,
  };
}

/*
 * The charge tokens the tests' pages were given for attempts they made without sign-in, by
 * payment, as a browser tab keeps them (src/web/api/payments.ts): a page reads and follows a
 * payment someone began paying only with its tokens (docs/payments.md "Who reads a payment").
 */
const pageTokens = new Map<string, string[]>();

/** Keeps the token an answer gave the page, if any. Answers the response as it is. */
export function keepPageToken<T extends { json(): unknown }>(paymentId: string, response: T): T {
  let token: unknown;
  try {
    token = (response.json() as { chargeToken?: unknown } | null)?.chargeToken;
  } catch {
    return response;
  }
  if (typeof token === 'string') pageTokens.set(paymentId, [...pageTokensOf(paymentId), token]);
  return response;
}

/** The tokens the tests' pages hold for a payment, newest last (at most the read's 4). */
export const pageTokensOf = (paymentId: string): string[] =>
  (pageTokens.get(paymentId) ?? []).slice(-4);

/**
 * The query a page without sign-in reads or follows a payment with: the consent's link
 * (`consentId`, and for a stream `clientId`) and the page's tokens.
 */
export function pageQuery(
  consent: { paymentId: string; consentId: string; client?: { clientId: string } },
  stream = false,
): string {
  return new URLSearchParams([
    ['consentId', consent.consentId],
    ...(stream && consent.client ? [['clientId', consent.client.clientId]] : []),
    ...pageTokensOf(consent.paymentId).map((token) => ['chargeToken', token]),
  ]).toString();
}

/**
 * Pays a consent's immediate payment by card, as a payer without sign-in: a sandbox card of
 * `card`'s scenario, or the card given (a provider simulator's test card).
 */
export async function payByCard(
  app: FastifyInstance,
  consent: { paymentId: string; consentId: string },
  card: TCardScenarioName | Parameters<typeof encryptedCard>[1] = 'pin_only',
) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/payments/card/public',
    payload: {
      paymentId: consent.paymentId,
      consentId: consent.consentId,
      cardDetails: await encryptedCard(app, typeof card === 'string' ? sandboxCard(card) : card),
      saveCard: false,
    },
  });
  return keepPageToken(consent.paymentId, response);
}

/**
 * Sends a transfer through the sandbox bank (POST /api/sandbox/transfers), `from` one of its test
 * accounts when given, so that its notice names the sender.
 */
export function sandboxTransfer(app: FastifyInstance, transfer: TSandboxTransferRequest) {
  return app.inject({ method: 'POST', url: '/api/sandbox/transfers', payload: transfer });
}

/**
 * Opens a consent's one-time account for its immediate payment (the same one while it is open): a
 * signed-in payer with `token`, anyone else by the consent link. Answers the account's number and
 * the amount it takes.
 */
export async function openTransferAccount(
  app: FastifyInstance,
  consent: { paymentId: string; consentId: string },
  options: { token?: string } = {},
): Promise<{ accountNumber: string; amount: number }> {
  const opened = await app.inject({
    method: 'POST',
    url: options.token
      ? `/api/payments/${consent.paymentId}/transfer`
      : `/api/payments/${consent.paymentId}/transfer?consentId=${consent.consentId}`,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
  });
  if (opened.statusCode !== 200) throw new Error(`transfer account: ${opened.body}`);
  keepPageToken(consent.paymentId, opened);
  const { accountNumber, amount } = opened.json<{
    transferDetails: { accountNumber: string; amount: number };
  }>().transferDetails;
  return { accountNumber, amount };
}

/**
 * Pays a consent's immediate payment by transfer: opens its one-time account
 * (openTransferAccount) and sends the exact amount into it, `from` a sandbox test account when
 * given. Answers the transfer's response.
 */
export async function payByTransfer(
  app: FastifyInstance,
  consent: { paymentId: string; consentId: string },
  options: { from?: TSandboxTransferRequest['from']; token?: string } = {},
) {
  const { accountNumber, amount } = await openTransferAccount(app, consent, options);
  return sandboxTransfer(app, {
    accountNumber,
    amount,
    ...(options.from ? { from: options.from } : {}),
  });
}

/** The payer of `token` opens a link of their person's account of `scenario`: its answer. */
export async function openOwnLink(
  app: FastifyInstance,
  token: string,
  scenario: TAccountScenario,
): Promise<TAccountLink> {
  const { accountNumber, institutionCode, accountName } = await ownAccount(app, token, scenario);
  const created = await app.inject({
    method: 'POST',
    url: '/api/account-links/create',
    headers: { authorization: `Bearer ${token}` },
    payload: { accountNumber, institutionCode, accountName, bankName: 'Any Bank' },
  });
  if (created.statusCode !== 200) throw new Error(`link: ${created.body}`);
  return created.json<{ accountLink: TAccountLink }>().accountLink;
}

/**
 * Links the account of `scenario` of the payer's own sandbox person (testing/bvn.ts: minted, its
 * BVN verified by the payer) to a signed-in payer by its test transfer, through the
 * real routes (create the link, send the test transfer from that very account to its pay-in
 * account), and answers the account's id as GET /api/accounts names it (bankId).
 */
export async function linkByTestTransfer(
  app: FastifyInstance,
  token: string,
  scenario: TAccountScenario,
): Promise<string> {
  const headers = { authorization: `Bearer ${token}` };
  const { accountNumber, institutionCode } = await ownAccount(app, token, scenario);
  const payIn = (await openOwnLink(app, token, scenario)).payInDetails;
  if (!payIn) throw new Error(`${scenario} does not link by test transfer`);
  const sent = await sandboxTransfer(app, {
    accountNumber: payIn.accountNumber,
    amount: payIn.amount,
    from: { institutionCode, accountNumber },
  });
  if (sent.json<{ outcome?: string }>().outcome !== 'credited') {
    throw new Error(`test transfer: ${sent.body}`);
  }
  const listed = await app.inject({ method: 'GET', url: '/api/accounts/user', headers });
  const account = listed
    .json<{ accounts: Array<{ bankId?: string; accountNumber: string | null }> }>()
    .accounts.find((a) => a.accountNumber === accountNumber);
  if (!account?.bankId) throw new Error(`${scenario} is not among the payer's accounts`);
  return account.bankId;
}

/**
 * A refund the provider queues (Paystack answers it pending, and its notice follows): our answer
 * says 202 and pending, unless the notice ended the refund before the answer was read back (a
 * loaded machine delivers it that fast): then 201 and the refund as the notice left it. Either is
 * the truth; anything else fails.
 */
export function expectQueuedRefund(
  answer: { statusCode: number; body: string; json<T>(): T },
  ended: 'processed' | 'failed',
) {
  const { status } = answer.json<{ refund: { status: string } }>().refund;
  expect([answer.statusCode, status], answer.body).toEqual(
    answer.statusCode === 201 ? [201, ended] : [202, 'pending'],
  );
}
