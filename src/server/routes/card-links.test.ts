// Linking a card to a payer's bank account (spec §7 card calls, card-linking stream; docs/accounts.md
// "Linking by card"): each sandbox card through its path, the test charge and its refund in the
// books, the stream's events, the refusals, concurrency and retries, and saving a paid card. Each
// payer links their own cards: those of the sandbox person whose BVN they verified, issued on that
// person's accounts (docs/accounts.md "Ownership").
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountRowSubtitle } from '../../domain/account-row';
import { CARD_LINK_TTL_MS, OTP_RETRY_AFTER_MS } from '../../domain/constants';
import { THREE_DS_CHALLENGE_MS } from '../../domain/payment-attempts';
import type { TUserAccount } from '../../domain/schemas/user-account';
import { ATTEMPT_STATES } from '../../domain/payment-attempts';
import {
  accountLinks,
  events,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
  payerAccounts,
  paymentAttempts,
  sandboxCardCharges,
} from '../db/schema';
import {
  SANDBOX_SIGNATURE_HEADER,
  sandboxNotices,
  type TNoticePost,
} from '../sandbox/sandbox-notices';
import { STALE_CHARGE_MS, THREE_DS_ASK_AFTER_MS } from '../services/payments/card-payments';
import { checkLedger } from '../services/payments/ledger';
import { startTestApp, testClock } from '../testing/test-app';
import { ownAccount, ownPerson } from '../testing/bvn';
import { codeSession, signUp, testPhone } from '../testing/identity';
import {
  cardLinkRow,
  consentWithPayment,
  encryptedCard,
  paymentEvents,
  sandboxAccount,
  sandboxCard,
  type TCardScenarioName,
} from '../testing/payments';
import { collectSse } from '../testing/sse';
import { usable } from '../providers/off';

const clock = testClock('2027-05-10T09:00:00Z');
let ctx: Awaited<ReturnType<typeof startTestApp>>;
let base: string;
beforeAll(async () => {
  ctx = await startTestApp({ clock });
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await ctx.close();
});

/** The scenario of the account a card links in the sandbox: its bank takes cards and nothing else. */
const CARD_ACCOUNT_SCENARIO = 'links_by_card';
/** The fixture account of that scenario: for calls refused before any account is looked at. */
const CARD_ACCOUNT = sandboxAccount(CARD_ACCOUNT_SCENARIO);
const fixtureCardAccount = {
  accountNumber: CARD_ACCOUNT.accountNumber,
  institutionCode: CARD_ACCOUNT.institutionCode,
};

/** A signed-in payer who verified the BVN of a sandbox person of their own, and their phone. */
async function payer() {
  const phone = testPhone();
  const { token, user } = await signUp(ctx.app, phone, 'Funmilayo Adebayo');
  await ownPerson(ctx.app, token);
  return { token, payerId: user.userId, phone };
}

/** The payer's own card of `scenario`: their person's, issued on that person's account. */
async function ownCard(token: string, scenario: TCardScenarioName) {
  const card = (await ownPerson(ctx.app, token)).cards.find((c) => c.scenario === scenario);
  if (!card) throw new Error(`No card of scenario ${scenario}`);
  return card;
}

/** The payer's own account a card links: their person's, of the card-linking scenario. */
async function saveToAccountOf(token: string) {
  const { accountNumber, institutionCode } = await ownAccount(
    ctx.app,
    token,
    CARD_ACCOUNT_SCENARIO,
  );
  return { accountNumber, institutionCode };
}

/** A card's digits as the payer's account shows them: first 6, six stars, last 4. */
const masked = (number: string) => `${number.slice(0, 6)}******${number.slice(-4)}`;

const post = (url: string, token: string | null, payload: object, key?: string) =>
  ctx.app.inject({
    method: 'POST',
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(key ? { 'idempotency-key': key } : {}),
    },
    payload,
  });

type TAccountAt = { accountNumber: string; institutionCode: string };

/**
 * The linking body the page sends (spec §7): saveCard, the account (by default the one the card is
 * issued on, the only one it links), the encrypted card: the payer's own card of `scenario`, or
 * without a payer (a call refused before sign-in) the fixture card of it.
 */
async function linkBody(token: string | null, scenario: TCardScenarioName, account?: TAccountAt) {
  const card = token ? await ownCard(token, scenario) : sandboxCard(scenario);
  return {
    saveCard: true,
    saveToAccount: account ?? card.account,
    cardDetails: await encryptedCard(ctx.app, card),
  };
}

async function link(token: string, scenario: TCardScenarioName, account?: TAccountAt) {
  return post('/api/payments/card', token, await linkBody(token, scenario, account));
}

const complete = (token: string | null, paymentId: string, otp: string, consentId?: string) =>
  post('/api/payments/card/complete', token, {
    paymentId,
    otp,
    ...(consentId ? { consentId } : {}),
  });

const answerChallenge = (challengeUrl: string, approved: boolean) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/sandbox/3ds/${challengeUrl.split('/sandbox/3ds/')[1] ?? ''}`,
    payload: { approved },
  });

/** A payer's card link whose test charge waits for its 3-D Secure check: who, and the answer. */
async function waitingThreeDsLink() {
  const { token, payerId, phone } = await payer();
  const started = await link(token, 'three_ds');
  expect(started.json()).toMatchObject({ requires3DS: true });
  const body = started.json<{ paymentId: string; amount: number; challengeUrl: string }>();
  return { token, payerId, phone, body };
}

type TSentNotice = Parameters<TNoticePost>[0];

/**
 * The payer answers the link's 3-D Secure check at the network, whose notice never reaches us (a
 * process that died between the two): the link still waits at its check. The notice as sent.
 */
async function answeredAtNetworkOnly(linkId: string, approved: boolean): Promise<TSentNotice> {
  const notice = await answeredAtNetwork(await checkReferenceOf(linkId), approved);
  expect(await linkRow(linkId)).toMatchObject({ state: 'created', chargeStage: 'awaiting_3ds' });
  return notice;
}

/** The network's reference of a link's 3-D Secure check, kept on the link however it ended. */
async function checkReferenceOf(linkId: string): Promise<string> {
  const providerReference = (await linkRow(linkId))?.providerReference;
  if (!providerReference) throw new Error('no 3-D Secure check at the network');
  return providerReference;
}

/**
 * The payer answers a 3-D Secure check at the network, whatever became of its link; the notice
 * the network sent, which has not reached us.
 */
async function answeredAtNetwork(providerReference: string, approved: boolean) {
  const { sandbox } = ctx.context;
  if (!sandbox) throw new Error('no sandbox network');
  const sent: TSentNotice[] = [];
  const lost = sandboxNotices(ctx.database.db, clock, (notice) => {
    sent.push(notice);
    return Promise.reject(new Error('connection reset'));
  });
  expect(await lost.answerThreeDs(sandbox.cards, providerReference, approved)).toBe(true);
  const [notice] = sent;
  if (!notice) throw new Error('the network sent no notice');
  return notice;
}

/** A notice the network sent, delivered to the notices route late. */
const deliverNotice = (notice: TSentNotice) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/providers/sandbox/notices',
    headers: notice.headers,
    payload: notice.body,
  });

/** The network's record of a link's test charge: its status, and whether it was given back. */
async function networkCharge(linkId: string) {
  const [row] = await ctx.database.db
    .select()
    .from(sandboxCardCharges)
    .where(eq(sandboxCardCharges.reference, linkId));
  return { status: row?.status, givenBack: row?.givenBackAt != null };
}

const errorOf = (response: { json: () => unknown }) =>
  (response.json() as { error: { code: string; message: string } }).error;

/** The payer's card-linking stream as written: event names and data, oldest first. */
async function cardLinkingEvents(payerId: string) {
  const rows = await ctx.database.db
    .select()
    .from(events)
    .where(eq(events.stream, `card-linking:${payerId}`))
    .orderBy(events.id);
  return rows.map((r): Record<string, unknown> => ({ type: r.type, ...r.data }));
}

const linkRow = (linkId: string) => cardLinkRow(ctx.database, linkId);

/** The ledger transactions booked for a link, with their entries. */
async function booksOf(linkId: string) {
  const transactions = await ctx.database.db
    .select()
    .from(ledgerTransactions)
    .where(eq(ledgerTransactions.reference, linkId))
    .orderBy(ledgerTransactions.id);
  const entries = transactions.length
    ? await ctx.database.db
        .select()
        .from(ledgerEntries)
        .where(
          inArray(
            ledgerEntries.transactionId,
            transactions.map((t) => t.id),
          ),
        )
    : [];
  return {
    kinds: transactions.map((t) => t.kind),
    entries: transactions.map((t) =>
      entries
        .filter((e) => e.transactionId === t.id)
        .map((e) => ({ account: e.accountId, amount: e.amount })),
    ),
  };
}

async function accountsOf(token: string): Promise<TUserAccount[]> {
  const response = await ctx.app.inject({
    method: 'GET',
    url: '/api/accounts/user',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ accounts: TUserAccount[] }>().accounts;
}

/**
 * What a linked card account shows, with the card's masked digits (spec §2 account row): the
 * payer's own account, and their own card of `scenario` on it.
 */
async function expectCardLinked(token: string, scenario: TCardScenarioName) {
  const obfuscatedCard = masked((await ownCard(token, scenario)).number);
  const own = await ownAccount(ctx.app, token, CARD_ACCOUNT_SCENARIO);
  const [account] = await accountsOf(token);
  expect(account).toMatchObject({
    accountNumber: own.accountNumber,
    institutionCode: own.institutionCode,
    accountName: own.accountName,
    linkStatus: 'approved',
    statusDetail: 'Approved',
    isAlreadyLinked: true,
    integrations: {
      card: { possible: true, active: true, linked: true, obfuscatedCard, token: null },
    },
  });
  if (!account) throw new Error('no account');
  expect(accountRowSubtitle(account)).toBe(`Card & Bank • ****${own.accountNumber.slice(-4)}`);
  // A row with no account number (a card alone) shows the card itself, by its last 4 digits.
  expect(accountRowSubtitle({ ...account, accountNumber: null })).toBe(
    `Card • **** **** **** ${obfuscatedCard.slice(-4)}`,
  );
}

const progress = (paymentId: string) => ({
  type: 'card_linking_progress',
  event: 'card_linking_progress',
  paymentId,
  message: 'Processing card linking...',
});
const linkedEvents = (paymentId: string) => [
  progress(paymentId),
  progress(paymentId),
  {
    type: 'card_linking_success',
    event: 'card_linking_success',
    paymentId,
    message: 'Card linking completed!',
  },
];

/** The test charge and its refund: booked once each, netting to zero on every account. */
async function expectChargedAndRefunded(linkId: string, amount: number) {
  expect(amount).toBeGreaterThanOrEqual(100);
  expect(amount).toBeLessThanOrEqual(1_000);
  expect(Number.isInteger(amount)).toBe(true);
  const books = await booksOf(linkId);
  expect(books.kinds).toEqual(['link_test_charge', 'test_charge_refund']);
  expect(books.entries).toEqual([
    expect.arrayContaining([
      { account: 'payer_source:card', amount: -amount },
      { account: 'provider_clearing:link_test_charges', amount },
    ]),
    expect.arrayContaining([
      { account: 'provider_clearing:link_test_charges', amount: -amount },
      { account: 'payer_source:card', amount },
    ]),
  ]);
}

describe('linking a card, each sandbox card through its path', () => {
  it('pin_only: charged, refunded and linked at once; the account shows the card', async () => {
    const { token, payerId } = await payer();
    const response = await link(token, 'pin_only');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ paymentId: string; amount: number }>();
    expect(body).toEqual({
      success: true,
      paymentId: expect.stringMatching(/^alk_/),
      amount: expect.any(Number),
      transactionReference: body.paymentId,
      message: 'Your account has been linked and is ready for future payments.',
    });
    expect(await linkRow(body.paymentId)).toMatchObject({
      route: 'card',
      state: 'active',
      chargeStage: null,
      // The provider that made the test charge, for every later call about it.
      chargeProvider: 'sandbox',
      testAmount: body.amount,
    });
    await expectChargedAndRefunded(body.paymentId, body.amount);
    expect(await cardLinkingEvents(payerId)).toEqual(linkedEvents(body.paymentId));
    await expectCardLinked(token, 'pin_only');
    // The account keeps the token and the masked card, never the number.
    const [saved] = await ctx.database.db
      .select()
      .from(payerAccounts)
      .where(eq(payerAccounts.payerId, payerId));
    const card = await ownCard(token, 'pin_only');
    expect(saved).toMatchObject({
      cardToken: expect.stringMatching(/^sbx_tok_/),
      cardBrand: 'visa',
      cardFirst6: card.number.slice(0, 6),
      cardLast4: card.number.slice(-4),
      cardExpiryMonth: 12,
      cardExpiryYear: 2030,
    });
    expect(JSON.stringify(saved)).not.toContain(card.number);
  });

  it('pin_otp: asks for the OTP; the right one links it, answered as a card_linking charge', async () => {
    const { token, payerId } = await payer();
    const started = await link(token, 'pin_otp');
    expect(started.statusCode).toBe(200);
    const body = started.json<{ paymentId: string; amount: number }>();
    expect(body).toMatchObject({
      success: true,
      requiresOTP: true,
      paymentId: expect.stringMatching(/^alk_/),
      displayMessage: expect.any(String),
    });
    expect(await linkRow(body.paymentId)).toMatchObject({
      state: 'created',
      chargeStage: 'awaiting_otp',
    });
    expect((await booksOf(body.paymentId)).kinds).toEqual([]);
    const card = await ownCard(token, 'pin_otp');
    const done = await complete(token, body.paymentId, card.otp);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({
      success: true,
      message: 'Your account has been linked and is ready for future payments.',
      obfuscatedCard: masked(card.number),
      payerCard: { obfuscatedCard: masked(card.number), brand: 'mastercard' },
      paymentType: 'card_linking',
      shouldPromptCardLinking: false,
      amount: body.amount,
      narration: 'Card linking test charge',
    });
    await expectChargedAndRefunded(body.paymentId, body.amount);
    expect(await cardLinkingEvents(payerId)).toEqual(linkedEvents(body.paymentId));
    await expectCardLinked(token, 'pin_otp');
    // The OTP was used: the link is already made.
    const again = await complete(token, body.paymentId, card.otp);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).code).toBe('ACCOUNT_ALREADY_LINKED');
  });

  it('pin_otp with a wrong OTP: OTP verification failed, on the stream too; nothing booked', async () => {
    const { token, payerId } = await payer();
    const started = await link(token, 'pin_otp');
    const { paymentId } = started.json<{ paymentId: string }>();
    const wrong = await complete(token, paymentId, '000000');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      success: false,
      error: { code: 'OTP_VERIFICATION_FAILED', message: 'OTP verification failed' },
    });
    expect(await cardLinkingEvents(payerId)).toEqual([
      {
        type: 'card_linking_failed',
        event: 'card_linking_failed',
        paymentId,
        error: 'OTP verification failed',
      },
    ]);
    expect(await linkRow(paymentId)).toMatchObject({ state: 'cancelled', chargeStage: null });
    expect((await booksOf(paymentId)).kinds).toEqual([]);
    expect((await accountsOf(token))[0]?.integrations.card).toMatchObject({ linked: false });
    // The account is free for the next attempt.
    expect((await link(token, 'pin_only')).statusCode).toBe(200);
  });

  it('three_ds approved on the sandbox challenge page: linked, the stream tells the waiting page', async () => {
    const { token, payerId } = await payer();
    const started = await link(token, 'three_ds');
    const body = started.json<{ paymentId: string; amount: number; challengeUrl: string }>();
    expect(body).toMatchObject({ success: true, requires3DS: true, paymentId: expect.any(String) });
    expect(body.challengeUrl).toMatch(/^http:\/\/localhost:3999\/sandbox\/3ds\//);
    // The challenge page shows the test charge's amount.
    const page = await ctx.app.inject({
      method: 'GET',
      url: new URL(body.challengeUrl).pathname,
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    const answer = await answerChallenge(body.challengeUrl, true);
    expect(answer.json()).toEqual({
      success: true,
      status: 'completed',
      message: 'Approved: the card is linked.',
    });
    await expectChargedAndRefunded(body.paymentId, body.amount);
    expect(await cardLinkingEvents(payerId)).toEqual(linkedEvents(body.paymentId));
    await expectCardLinked(token, 'three_ds');
    // A challenge is answered once.
    expect((await answerChallenge(body.challengeUrl, true)).statusCode).toBe(404);
  });

  it('three_ds refused: 3DS authentication failed on the stream, the link cancelled, nothing booked', async () => {
    const { token, payerId } = await payer();
    const body = (await link(token, 'three_ds')).json<{
      paymentId: string;
      challengeUrl: string;
    }>();
    const answer = await answerChallenge(body.challengeUrl, false);
    expect(answer.json()).toEqual({
      success: true,
      status: 'failed',
      message: '3DS authentication failed',
    });
    expect(await cardLinkingEvents(payerId)).toEqual([
      {
        type: 'card_linking_failed',
        event: 'card_linking_failed',
        paymentId: body.paymentId,
        error: '3DS authentication failed',
      },
    ]);
    expect(await linkRow(body.paymentId)).toMatchObject({ state: 'cancelled' });
    expect((await booksOf(body.paymentId)).kinds).toEqual([]);
  });

  it('three_ds: the network tells its answer by a signed notice through the notices route, applied once', async () => {
    const { token, payerId, body } = await waitingThreeDsLink();
    const read = vi.spyOn(usable(ctx.context.providers.payments.notices), 'readNotice');
    const answer = await answerChallenge(body.challengeUrl, true);
    expect(answer.json()).toMatchObject({ status: 'completed' });
    expect(read).toHaveBeenCalledTimes(1);
    const [raw] = read.mock.calls[0] ?? [];
    read.mockRestore();
    if (!raw) throw new Error('no notice');
    // The card link's test charge, named by the link's id, with the token that saves the card.
    expect(JSON.parse(raw.body.toString('utf8'))).toMatchObject({
      event: 'charge.success',
      data: {
        reference: body.paymentId,
        amount: body.amount,
        currency: 'NGN',
        token: expect.stringMatching(/^sbx_tok_/),
      },
    });
    // Told again, it changes nothing: no second charge or refund booked, nothing told again.
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/providers/sandbox/notices',
      headers: {
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: String(raw.headers[SANDBOX_SIGNATURE_HEADER]),
      },
      payload: raw.body,
    });
    expect(again.statusCode).toBe(200);
    await expectChargedAndRefunded(body.paymentId, body.amount);
    expect(await cardLinkingEvents(payerId)).toEqual(linkedEvents(body.paymentId));
    await expectCardLinked(token, 'three_ds');
  });

  it('three_ds: an answer whose notice was not answered 2xx is settled by the reconciler, the money given back', async () => {
    const { token, payerId, body } = await waitingThreeDsLink();
    const read = vi
      .spyOn(usable(ctx.context.providers.payments.notices), 'readNotice')
      .mockRejectedValueOnce(new Error('database gone'));
    const answer = await answerChallenge(body.challengeUrl, true);
    expect(read).toHaveBeenCalledTimes(1);
    read.mockRestore();
    expect(answer.statusCode).toBe(409);
    expect(errorOf(answer).code).toBe('PAYMENT_IN_PROGRESS');
    // Taken from its check, for the reconciler: the network took the test charge.
    expect(await linkRow(body.paymentId)).toMatchObject({
      state: 'created',
      chargeStage: 'charging',
    });
    expect((await answerChallenge(body.challengeUrl, true)).statusCode).toBe(404);
    clock.advance(ctx.config.reconcileAfterMs + 1_000);
    await ctx.app.reconciler.runDue();
    expect(await linkRow(body.paymentId)).toMatchObject({ state: 'cancelled' });
    await expectChargedAndRefunded(body.paymentId, body.amount);
    expect((await cardLinkingEvents(payerId)).at(-1)).toMatchObject({
      event: 'card_linking_error',
      paymentId: body.paymentId,
      error: 'Failed to link card',
    });
    expect((await accountsOf(token))[0]?.integrations.card).toMatchObject({ linked: false });
  });

  it.each([
    [
      'declined',
      402,
      'CARD_LINKING_FAILED',
      'Card linking failed: Declined by your bank',
      'failed',
    ],
    [
      'insufficient_funds',
      402,
      'CARD_LINKING_FAILED',
      'Card linking failed: Insufficient funds',
      'failed',
    ],
    ['timeout', 502, 'CARD_LINK_FAILED', 'Failed to link card', 'error'],
  ] as const)(
    '%s: %i %s, card_linking_%s on the stream, nothing booked',
    async (scenario, status, code, message, kind) => {
      const { token, payerId } = await payer();
      const response = await link(token, scenario);
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual({ success: false, error: { code, message } });
      const [event] = await cardLinkingEvents(payerId);
      expect(event).toEqual({
        type: `card_linking_${kind}`,
        event: `card_linking_${kind}`,
        paymentId: expect.stringMatching(/^alk_/),
        error: message,
      });
      const paymentId = String(event?.paymentId);
      expect(await linkRow(paymentId)).toMatchObject({ state: 'cancelled' });
      expect((await booksOf(paymentId)).kinds).toEqual([]);
    },
  );

  it('a card network that fails to answer: 502 Failed to link card, card_linking_error', async () => {
    const { token, payerId } = await payer();
    const network = vi
      .spyOn(usable(ctx.context.providers.payments.cards), 'chargeCard')
      .mockRejectedValueOnce(new Error('connection reset'));
    try {
      const response = await link(token, 'pin_only');
      expect(response.statusCode).toBe(502);
      expect(errorOf(response)).toEqual({
        code: 'CARD_LINK_FAILED',
        message: 'Failed to link card',
      });
    } finally {
      network.mockRestore();
    }
    expect((await cardLinkingEvents(payerId)).map((e) => e.type)).toEqual(['card_linking_error']);
    expect((await link(token, 'pin_only')).statusCode).toBe(200);
  });

  it('streams the events live to the payer holding a card-linking ticket', async () => {
    const { token } = await payer();
    const issued = await post('/api/events/tickets', token, { stream: 'card-linking' });
    expect(issued.statusCode).toBe(200);
    const { ticket } = issued.json<{ ticket: string }>();
    let paymentId = '';
    const { status, events: seen } = await collectSse(
      base,
      `/api/events/card-linking?ticket=${ticket}`,
      (got) => got.some((e) => e.event === 'card_linking_success'),
      {},
      async () => {
        const started = await link(token, 'pin_only');
        paymentId = started.json<{ paymentId: string }>().paymentId;
      },
    );
    expect(status).toBe(200);
    expect(seen.filter((e) => e.event.startsWith('card_linking')).map((e) => e.event)).toEqual([
      'card_linking_progress',
      'card_linking_progress',
      'card_linking_success',
    ]);
    expect(seen.at(-1)?.data).toMatchObject({ paymentId });
  });
});

describe("the reconciler's 3-D Secure sweep of card links", () => {
  /** The one event that ended the link, telling the payer `error`. */
  const failedEvent = (paymentId: string, error: string) => ({
    type: 'card_linking_failed',
    event: 'card_linking_failed',
    paymentId,
    error,
  });

  it('an approval the network recorded whose notice was lost: asked, the money given back once', async () => {
    const { token, payerId, body } = await waitingThreeDsLink();
    const notice = await answeredAtNetworkOnly(body.paymentId, true);
    expect(await networkCharge(body.paymentId)).toEqual({ status: 'succeeded', givenBack: false });
    clock.advance(THREE_DS_ASK_AFTER_MS + 1_000);
    await ctx.app.reconciler.runDue();
    // The network's record names no token to charge the card again: it cannot be linked.
    expect(await linkRow(body.paymentId)).toMatchObject({ state: 'cancelled', chargeStage: null });
    expect(await networkCharge(body.paymentId)).toEqual({ status: 'succeeded', givenBack: true });
    await expectChargedAndRefunded(body.paymentId, body.amount);
    expect(await cardLinkingEvents(payerId)).toEqual([
      failedEvent(body.paymentId, 'Card linking failed'),
    ]);
    expect((await accountsOf(token))[0]?.integrations.card).toMatchObject({ linked: false });
    // Swept again, and its notice told late: nothing more is booked or told.
    await ctx.app.reconciler.runDue();
    expect((await deliverNotice(notice)).statusCode).toBe(200);
    await expectChargedAndRefunded(body.paymentId, body.amount);
    expect(await cardLinkingEvents(payerId)).toHaveLength(1);
  });

  it('a decline the network recorded whose notice was lost: 3DS authentication failed, nothing taken', async () => {
    const { payerId, body } = await waitingThreeDsLink();
    const notice = await answeredAtNetworkOnly(body.paymentId, false);
    clock.advance(THREE_DS_ASK_AFTER_MS + 1_000);
    await ctx.app.reconciler.runDue();
    expect(await linkRow(body.paymentId)).toMatchObject({ state: 'cancelled' });
    expect(await cardLinkingEvents(payerId)).toEqual([
      failedEvent(body.paymentId, '3DS authentication failed'),
    ]);
    expect((await deliverNotice(notice)).statusCode).toBe(200);
    expect(await cardLinkingEvents(payerId)).toHaveLength(1);
    expect((await booksOf(body.paymentId)).kinds).toEqual([]);
  });

  it('a check its payer never answers: asked and left waiting, then failed past its time, nothing taken', async () => {
    const { payerId, body } = await waitingThreeDsLink();
    clock.advance(THREE_DS_ASK_AFTER_MS + 1_000);
    await ctx.app.reconciler.runDue();
    // The network still waits for the payer: so does the link.
    expect(await linkRow(body.paymentId)).toMatchObject({
      state: 'created',
      chargeStage: 'awaiting_3ds',
    });
    clock.advance(THREE_DS_CHALLENGE_MS);
    await ctx.app.reconciler.runDue();
    expect(await linkRow(body.paymentId)).toMatchObject({ state: 'cancelled', chargeStage: null });
    expect(await cardLinkingEvents(payerId)).toEqual([
      failedEvent(body.paymentId, '3DS authentication failed'),
    ]);
    expect((await booksOf(body.paymentId)).kinds).toEqual([]);
    expect(await networkCharge(body.paymentId)).toMatchObject({ status: 'pending' });
    // Its challenge is gone: an answer now reaches neither the network nor the link.
    expect((await answerChallenge(body.challengeUrl, true)).statusCode).toBe(404);
    expect(await networkCharge(body.paymentId)).toMatchObject({ status: 'pending' });
  });

  it('a network that cannot be asked leaves the link at its check for the next run', async () => {
    const { token, body } = await waitingThreeDsLink();
    await answeredAtNetworkOnly(body.paymentId, true);
    const cards = usable(ctx.context.providers.payments.cards);
    const asked = vi.spyOn(cards, 'requeryCardCharge').mockRejectedValue(new Error('timeout'));
    try {
      clock.advance(THREE_DS_CHALLENGE_MS + 1_000);
      await ctx.app.reconciler.runDue();
      expect(asked).toHaveBeenCalledWith(body.paymentId);
    } finally {
      asked.mockRestore();
    }
    expect(await linkRow(body.paymentId)).toMatchObject({ chargeStage: 'awaiting_3ds' });
    expect((await booksOf(body.paymentId)).kinds).toEqual([]);
    await ctx.app.reconciler.runDue();
    expect(await linkRow(body.paymentId)).toMatchObject({ state: 'cancelled' });
    await expectChargedAndRefunded(body.paymentId, body.amount);
    expect((await accountsOf(token))[0]?.integrations.card).toMatchObject({ linked: false });
  });

  /**
   * Runs the reconciler past THREE_DS_ASK_AFTER_MS, the link's late `notice` delivered the moment
   * the sweep asks the network about the link's charge, or gives its money back.
   */
  async function sweepAsNoticeArrives(
    linkId: string,
    notice: TSentNotice,
    during: 'asking' | 'giving_back',
  ) {
    const cards = usable(ctx.context.providers.payments.cards);
    const requery = cards.requeryCardCharge.bind(cards);
    const refund = cards.refundCard.bind(cards);
    let told = false;
    const tell = async (reference: string, now: typeof during) => {
      if (reference !== linkId || now !== during || told) return;
      told = true;
      expect((await deliverNotice(notice)).statusCode).toBe(200);
    };
    const asked = vi.spyOn(cards, 'requeryCardCharge').mockImplementation(async (reference) => {
      await tell(reference, 'asking');
      return requery(reference);
    });
    const refunded = vi.spyOn(cards, 'refundCard').mockImplementation(async (request) => {
      await tell(request.reference, 'giving_back');
      return refund(request);
    });
    try {
      clock.advance(THREE_DS_ASK_AFTER_MS + 1_000);
      await ctx.app.reconciler.runDue();
    } finally {
      asked.mockRestore();
      refunded.mockRestore();
    }
    expect(told).toBe(true);
  }

  it('the notice arriving while the sweep asks the network: the notice links the card, once', async () => {
    const { token, payerId, body } = await waitingThreeDsLink();
    const notice = await answeredAtNetworkOnly(body.paymentId, true);
    await sweepAsNoticeArrives(body.paymentId, notice, 'asking');
    await expectCardLinked(token, 'three_ds');
    await expectChargedAndRefunded(body.paymentId, body.amount);
    expect(await networkCharge(body.paymentId)).toEqual({ status: 'succeeded', givenBack: true });
    expect(await cardLinkingEvents(payerId)).toEqual(linkedEvents(body.paymentId));
  });

  it('the notice arriving while the sweep gives the money back: the sweep ends the link, once', async () => {
    const { token, payerId, body } = await waitingThreeDsLink();
    const notice = await answeredAtNetworkOnly(body.paymentId, true);
    await sweepAsNoticeArrives(body.paymentId, notice, 'giving_back');
    expect(await linkRow(body.paymentId)).toMatchObject({ state: 'cancelled' });
    await expectChargedAndRefunded(body.paymentId, body.amount);
    expect(await networkCharge(body.paymentId)).toEqual({ status: 'succeeded', givenBack: true });
    expect(await cardLinkingEvents(payerId)).toEqual([
      failedEvent(body.paymentId, 'Card linking failed'),
    ]);
    expect((await accountsOf(token))[0]?.integrations.card).toMatchObject({ linked: false });
  });
});

describe('money taken for a card link that had ended', () => {
  /** A payer's 3-D Secure link a new attempt of theirs superseded: cancelled, its check unanswered. */
  async function supersededThreeDsLink() {
    const waiting = await waitingThreeDsLink();
    clock.advance(OTP_RETRY_AFTER_MS + 1_000);
    expect((await link(waiting.token, 'pin_only')).statusCode).toBe(200);
    expect(await linkRow(waiting.body.paymentId)).toMatchObject({
      state: 'cancelled',
      chargeStage: null,
    });
    expect(await networkCharge(waiting.body.paymentId)).toMatchObject({ status: 'pending' });
    return waiting;
  }

  /** What the network's record and the books disagree on for `linkId`: nothing, once given back. */
  async function differencesOf(linkId: string) {
    const { settlement } = ctx.context.providers.payments;
    const report = await checkLedger(ctx.database.db, { provider: settlement });
    return report.providerDifferences.filter((d) => d.reference === linkId);
  }

  /** Calls `act`, counting the refunds asked of the network for `linkId`. */
  async function refundsAskedDuring(linkId: string, act: () => Promise<void>) {
    const refunded = vi.spyOn(usable(ctx.context.providers.payments.cards), 'refundCard');
    try {
      await act();
      return refunded.mock.calls.filter(([request]) => request.reference === linkId).length;
    } finally {
      refunded.mockRestore();
    }
  }

  it('a link a new attempt cancelled, approved at the network after: its notice gives the money back', async () => {
    const { token, payerId, body } = await supersededThreeDsLink();
    const told = await cardLinkingEvents(payerId);
    const notice = await answeredAtNetwork(await checkReferenceOf(body.paymentId), true);
    expect(await networkCharge(body.paymentId)).toEqual({ status: 'succeeded', givenBack: false });
    expect((await deliverNotice(notice)).statusCode).toBe(200);
    expect(await networkCharge(body.paymentId)).toEqual({ status: 'succeeded', givenBack: true });
    await expectChargedAndRefunded(body.paymentId, body.amount);
    expect(await differencesOf(body.paymentId)).toEqual([]);
    // The link stays as it ended, and the payer's stream hears nothing more of it.
    expect(await linkRow(body.paymentId)).toMatchObject({ state: 'cancelled', chargeStage: null });
    expect(await cardLinkingEvents(payerId)).toEqual(told);
    await expectCardLinked(token, 'pin_only');
  });

  it('the same late notice told twice gives the money back once', async () => {
    const { body } = await supersededThreeDsLink();
    const notice = await answeredAtNetwork(await checkReferenceOf(body.paymentId), true);
    const refunds = await refundsAskedDuring(body.paymentId, async () => {
      expect((await deliverNotice(notice)).statusCode).toBe(200);
      expect((await deliverNotice(notice)).statusCode).toBe(200);
    });
    expect(refunds).toBe(1);
    expect(await networkCharge(body.paymentId)).toEqual({ status: 'succeeded', givenBack: true });
    await expectChargedAndRefunded(body.paymentId, body.amount);
    expect(await differencesOf(body.paymentId)).toEqual([]);
  });

  it("a link the sweep failed past its check's time, approved at the network after: given back once", async () => {
    const { payerId, body } = await waitingThreeDsLink();
    clock.advance(THREE_DS_ASK_AFTER_MS + 1_000);
    await ctx.app.reconciler.runDue();
    clock.advance(THREE_DS_CHALLENGE_MS);
    await ctx.app.reconciler.runDue();
    expect(await linkRow(body.paymentId)).toMatchObject({ state: 'cancelled', chargeStage: null });
    const told = await cardLinkingEvents(payerId);
    expect(told).toHaveLength(1);
    const notice = await answeredAtNetwork(await checkReferenceOf(body.paymentId), true);
    const refunds = await refundsAskedDuring(body.paymentId, async () => {
      expect((await deliverNotice(notice)).statusCode).toBe(200);
      await ctx.app.reconciler.runDue();
      expect((await deliverNotice(notice)).statusCode).toBe(200);
    });
    expect(refunds).toBe(1);
    expect(await networkCharge(body.paymentId)).toEqual({ status: 'succeeded', givenBack: true });
    await expectChargedAndRefunded(body.paymentId, body.amount);
    expect(await differencesOf(body.paymentId)).toEqual([]);
    expect(await linkRow(body.paymentId)).toMatchObject({ state: 'cancelled' });
    expect(await cardLinkingEvents(payerId)).toEqual(told);
  });

  it('a new attempt asks about a check approved whose notice was lost: the money goes back first', async () => {
    const { token, payerId, body } = await waitingThreeDsLink();
    const notice = await answeredAtNetworkOnly(body.paymentId, true);
    clock.advance(OTP_RETRY_AFTER_MS + 1_000);
    expect((await link(token, 'pin_only')).statusCode).toBe(200);
    // Ended by the network's answer, as the sweep would: no token named, so not linked.
    expect(await linkRow(body.paymentId)).toMatchObject({ state: 'cancelled' });
    expect(await networkCharge(body.paymentId)).toEqual({ status: 'succeeded', givenBack: true });
    await expectChargedAndRefunded(body.paymentId, body.amount);
    expect((await cardLinkingEvents(payerId))[0]).toMatchObject({
      type: 'card_linking_failed',
      paymentId: body.paymentId,
      error: 'Card linking failed',
    });
    await expectCardLinked(token, 'pin_only');
    // Its notice told late finds the money given back: nothing more is asked or booked.
    const refunds = await refundsAskedDuring(body.paymentId, async () => {
      expect((await deliverNotice(notice)).statusCode).toBe(200);
    });
    expect(refunds).toBe(0);
    await expectChargedAndRefunded(body.paymentId, body.amount);
  });

  it('a check the network cannot be asked about is not superseded: the new attempt waits for it', async () => {
    const { token, body } = await waitingThreeDsLink();
    clock.advance(OTP_RETRY_AFTER_MS + 1_000);
    const cards = usable(ctx.context.providers.payments.cards);
    const asked = vi.spyOn(cards, 'requeryCardCharge').mockRejectedValue(new Error('timeout'));
    try {
      const refused = await link(token, 'pin_only');
      expect(refused.statusCode).toBe(409);
      expect(errorOf(refused).code).toBe('ACCOUNT_LINK_IN_PROGRESS');
      expect(asked).toHaveBeenCalledWith(body.paymentId);
    } finally {
      asked.mockRestore();
    }
    expect(await linkRow(body.paymentId)).toMatchObject({
      state: 'created',
      chargeStage: 'awaiting_3ds',
    });
    // Answered now (still waiting for its payer), it gives way.
    expect((await link(token, 'pin_only')).statusCode).toBe(200);
    expect(await linkRow(body.paymentId)).toMatchObject({ state: 'cancelled' });
  });

  /**
   * A payer's card link whose OTP the network took, with the money, while its process died before
   * the answer was recorded: the link left charging, as the OTP call leaves it while it waits.
   */
  async function lostWhileCharging() {
    const { token, payerId } = await payer();
    const body = (await link(token, 'pin_otp')).json<{ paymentId: string; amount: number }>();
    const providerReference = await checkReferenceOf(body.paymentId);
    await ctx.database.db
      .update(paymentAttempts)
      .set({ ...ATTEMPT_STATES.charging, updatedAt: clock.now() })
      .where(eq(paymentAttempts.id, body.paymentId));
    const { otp } = await ownCard(token, 'pin_otp');
    const cards = usable(ctx.context.providers.payments.cards);
    expect(await cards.submitCardOtp({ providerReference, otp })).toMatchObject({
      kind: 'succeeded',
    });
    expect(await networkCharge(body.paymentId)).toEqual({ status: 'succeeded', givenBack: false });
    return { token, payerId, body };
  }

  /** The payer's next attempt, linking their pin_only card while the network cannot be asked. */
  async function linkWhileNetworkUnasked(token: string) {
    const cards = usable(ctx.context.providers.payments.cards);
    const asked = vi.spyOn(cards, 'requeryCardCharge').mockRejectedValue(new Error('timeout'));
    try {
      expect((await link(token, 'pin_only')).statusCode).toBe(200);
    } finally {
      asked.mockRestore();
    }
  }

  /** Two reconciler runs, each past the reconcile age: the refunds they asked for `linkId`. */
  async function refundsOfTwoRuns(linkId: string) {
    return refundsAskedDuring(linkId, async () => {
      for (const _ of [1, 2]) {
        clock.advance(ctx.config.reconcileAfterMs + 1_000);
        await ctx.app.reconciler.runDue();
      }
    });
  }

  /** Money of `linkId` the network kept, given back by the next reconciler run and not again. */
  async function expectGivenBackByReconciler(linkId: string, amount: number) {
    expect(await networkCharge(linkId)).toEqual({ status: 'succeeded', givenBack: false });
    expect(await refundsOfTwoRuns(linkId)).toBe(1);
    expect(await networkCharge(linkId)).toEqual({ status: 'succeeded', givenBack: true });
    await expectChargedAndRefunded(linkId, amount);
    expect(await differencesOf(linkId)).toEqual([]);
  }

  it('a charge lost with its process, taken at the network: the next attempt asks, and gives it back first', async () => {
    const { token, payerId, body } = await lostWhileCharging();
    clock.advance(STALE_CHARGE_MS + 1_000);
    expect((await link(token, 'pin_only')).statusCode).toBe(200);
    expect(await linkRow(body.paymentId)).toMatchObject({ state: 'cancelled', chargeStage: null });
    expect(await networkCharge(body.paymentId)).toEqual({ status: 'succeeded', givenBack: true });
    await expectChargedAndRefunded(body.paymentId, body.amount);
    expect(await differencesOf(body.paymentId)).toEqual([]);
    expect((await cardLinkingEvents(payerId))[0]).toMatchObject({
      type: 'card_linking_error',
      paymentId: body.paymentId,
      error: 'Failed to link card',
    });
    await expectCardLinked(token, 'pin_only');
    expect(await refundsOfTwoRuns(body.paymentId)).toBe(0);
  });

  it('a charge lost with its process the next attempt cannot ask about: superseded, given back by the reconciler once', async () => {
    const { token, body } = await lostWhileCharging();
    clock.advance(STALE_CHARGE_MS + 1_000);
    await linkWhileNetworkUnasked(token);
    expect(await linkRow(body.paymentId)).toMatchObject({ state: 'cancelled' });
    await expectGivenBackByReconciler(body.paymentId, body.amount);
    await expectCardLinked(token, 'pin_only');
  });

  it('a check approved at the network whose notice never comes, expired unasked: given back by the reconciler once', async () => {
    const { phone, body } = await waitingThreeDsLink();
    await answeredAtNetworkOnly(body.paymentId, true);
    // Past the link's life, a new attempt that cannot ask the network expires it as it opens.
    clock.advance(CARD_LINK_TTL_MS + 1_000);
    await linkWhileNetworkUnasked(await codeSession(ctx.app, phone));
    expect(await linkRow(body.paymentId)).toMatchObject({ state: 'expired', chargeStage: null });
    await expectGivenBackByReconciler(body.paymentId, body.amount);
    expect(await linkRow(body.paymentId)).toMatchObject({ state: 'expired' });
  });

  it('a late approval whose refund the network refused once: given back at the next reconciler run, once', async () => {
    const { body } = await supersededThreeDsLink();
    const notice = await answeredAtNetwork(await checkReferenceOf(body.paymentId), true);
    const cards = usable(ctx.context.providers.payments.cards);
    const refused = vi.spyOn(cards, 'refundCard').mockRejectedValueOnce(new Error('timeout'));
    try {
      expect((await deliverNotice(notice)).statusCode).toBe(503);
      expect(refused).toHaveBeenCalledTimes(1);
    } finally {
      refused.mockRestore();
    }
    // The sandbox tells a charge's notice once: nothing else would give the money back.
    expect((await booksOf(body.paymentId)).kinds).toEqual([]);
    await expectGivenBackByReconciler(body.paymentId, body.amount);
    expect(await linkRow(body.paymentId)).toMatchObject({ state: 'cancelled' });
  });

  /** A card link whose test charge was taken and whose refund the network refused once. */
  async function refundRefusedLink() {
    const { token, payerId } = await payer();
    const cards = usable(ctx.context.providers.payments.cards);
    const refused = vi.spyOn(cards, 'refundCard').mockRejectedValueOnce(new Error('timeout'));
    let answer;
    try {
      answer = await link(token, 'pin_only');
    } finally {
      refused.mockRestore();
    }
    expect(answer.statusCode).toBe(502);
    expect(errorOf(answer).code).toBe('CARD_LINK_FAILED');
    const [event] = await cardLinkingEvents(payerId);
    return { cards, linkId: String(event?.paymentId) };
  }

  it('a linking charge whose refund the network refused: the link fails, the money given back at the next run, once', async () => {
    const { linkId } = await refundRefusedLink();
    expect(await linkRow(linkId)).toMatchObject({ state: 'cancelled' });
    // Booked as owed to the payer until the network gives it back.
    expect((await booksOf(linkId)).kinds).toEqual(['link_test_charge']);
    await expectGivenBackByReconciler(linkId, (await linkRow(linkId))?.testAmount ?? 0);
  });

  it('a charge owed back that the network then says it never took: owed no more, booked back out', async () => {
    const { cards, linkId } = await refundRefusedLink();
    const amount = (await linkRow(linkId))?.testAmount ?? 0;
    expect((await booksOf(linkId)).kinds).toEqual(['link_test_charge']);
    // The network reversed the charge on its side, and its last word is that nothing was taken.
    const [taken] = await ctx.database.db
      .select({ providerReference: paymentAttempts.providerReference })
      .from(paymentAttempts)
      .where(eq(paymentAttempts.id, linkId));
    await cards.refundCard({
      providerReference: String(taken?.providerReference),
      amount,
      reference: linkId,
    });
    const asked = vi
      .spyOn(cards, 'requeryCardCharge')
      .mockResolvedValue({ kind: 'not_taken', providerReference: null, reason: 'reversed' });
    let refunds;
    try {
      refunds = await refundsOfTwoRuns(linkId);
    } finally {
      asked.mockRestore();
    }
    expect(refunds).toBe(0);
    const [charge] = await ctx.database.db
      .select({ refund: paymentAttempts.refund, status: paymentAttempts.status })
      .from(paymentAttempts)
      .where(eq(paymentAttempts.id, linkId));
    expect(charge).toEqual({ refund: 'settled', status: 'completed' });
    // Nothing stays held for a charge never made: booked in, and once back out to the card.
    await expectChargedAndRefunded(linkId, amount);
    expect(await differencesOf(linkId)).toEqual([]);
  });
});

describe('who may link, and which accounts', () => {
  it('refuses the linking call on the public route: sign-in first (spec §6)', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const response = await post('/api/payments/card/public', null, {
      ...(await linkBody(null, 'pin_only')),
      consentId: consent.consentId,
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      success: false,
      error: {
        code: 'SIGN_IN_REQUIRED',
        message: 'This consent requires authentication to proceed',
      },
    });
  });

  it('needs a bearer token on /api/payments/card and for a link’s OTP', async () => {
    const anonymous = await post('/api/payments/card', null, await linkBody(null, 'pin_only'));
    expect(anonymous.statusCode).toBe(401);
    const { token } = await payer();
    const { paymentId } = (await link(token, 'pin_otp')).json<{ paymentId: string }>();
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const otp = await complete(null, paymentId, '123456', consent.consentId);
    expect(otp.statusCode).toBe(401);
    expect(errorOf(otp).code).toBe('SIGN_IN_REQUIRED');
  });

  it("reads another payer's link as no OTP waiting", async () => {
    const owner = await payer();
    const stranger = await payer();
    const { paymentId } = (await link(owner.token, 'pin_otp')).json<{ paymentId: string }>();
    const theirs = await complete(stranger.token, paymentId, '123456');
    expect(theirs.statusCode).toBe(404);
    expect(errorOf(theirs).code).toBe('NO_OTP_DATA');
    expect(await linkRow(paymentId)).toMatchObject({ chargeStage: 'awaiting_otp' });
  });

  it.each([
    ['paper_mandate', 400, 'ACCOUNT_NOT_SUPPORTED'],
    ['not_supported', 400, 'ACCOUNT_NOT_SUPPORTED'],
  ] as const)(
    'refuses an account whose bank takes no card (%s): %i %s',
    async (scenario, status, code) => {
      const { token } = await payer();
      const { accountNumber, institutionCode } = await ownAccount(ctx.app, token, scenario);
      const response = await link(token, 'pin_only', { accountNumber, institutionCode });
      expect(response.statusCode).toBe(status);
      expect(errorOf(response).code).toBe(code);
    },
  );

  it('refuses a number the bank does not hold, and an unknown bank naming the field', async () => {
    const { token } = await payer();
    const own = await saveToAccountOf(token);
    const unknown = await link(token, 'pin_only', {
      accountNumber: '0000000000',
      institutionCode: own.institutionCode,
    });
    expect(unknown.statusCode).toBe(400);
    expect(errorOf(unknown).code).toBe('ACCOUNT_NOT_FOUND_AT_BANK');
    const noBank = await link(token, 'pin_only', { ...own, institutionCode: '999' });
    expect(noBank.statusCode).toBe(400);
    expect(errorOf(noBank).message).toContain('institutionCode');
  });
});

describe('one link per account, one attempt at a time', () => {
  it('answers 409 ACCOUNT_ALREADY_LINKED for an account this payer linked, charging nothing', async () => {
    const { token, payerId } = await payer();
    expect((await link(token, 'pin_only')).statusCode).toBe(200);
    const again = await link(token, 'pin_otp');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      success: false,
      error: { code: 'ACCOUNT_ALREADY_LINKED', message: 'This account is already linked' },
    });
    const links = await ctx.database.db
      .select()
      .from(accountLinks)
      .where(eq(accountLinks.payerId, payerId));
    expect(links.map((l) => l.state)).toEqual(['active']);
  });

  it('the database holds one live link per account: an attempt beside an active link is refused', async () => {
    const { token, payerId } = await payer();
    const { paymentId } = (await link(token, 'pin_only')).json<{ paymentId: string }>();
    const active = await linkRow(paymentId);
    if (!active) throw new Error('the link was not written');
    expect(active.state).toBe('active');
    // What a request that read "not linked" just before the activation committed would write.
    const beside = { ...active, id: `${paymentId}_beside`, state: 'created' as const };
    beside.providerReference = null;
    await expect(ctx.database.db.insert(accountLinks).values(beside)).rejects.toThrow();
    const links = await ctx.database.db
      .select()
      .from(accountLinks)
      .where(eq(accountLinks.payerId, payerId));
    expect(links.map((l) => l.state)).toEqual(['active']);
  });

  it(
    'of two attempts at once on one account exactly one wins; the other is 409 ACCOUNT_LINK_IN_PROGRESS',
    { tags: ['postgres'] },
    async () => {
      const { token, payerId } = await payer();
      const bodies = [await linkBody(token, 'pin_otp'), await linkBody(token, 'pin_otp')];
      const answers = await Promise.all(bodies.map((b) => post('/api/payments/card', token, b)));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
      const refused = answers.find((a) => a.statusCode === 409);
      expect(refused && errorOf(refused).code).toBe('ACCOUNT_LINK_IN_PROGRESS');
      const open = await ctx.database.db
        .select()
        .from(accountLinks)
        .where(and(eq(accountLinks.payerId, payerId), eq(accountLinks.state, 'created')));
      expect(open).toHaveLength(1);
    },
  );

  it(
    'of ten frictionless attempts at once exactly one links and is charged',
    { tags: ['postgres'] },
    async () => {
      const { token, payerId } = await payer();
      const bodies = await Promise.all(
        Array.from({ length: 10 }, () => linkBody(token, 'pin_only')),
      );
      const answers = await Promise.all(bodies.map((b) => post('/api/payments/card', token, b)));
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
      for (const refused of answers.filter((a) => a.statusCode !== 200)) {
        expect(refused.statusCode).toBe(409);
        expect(['ACCOUNT_LINK_IN_PROGRESS', 'ACCOUNT_ALREADY_LINKED']).toContain(
          errorOf(refused).code,
        );
      }
      const links = await ctx.database.db
        .select()
        .from(accountLinks)
        .where(eq(accountLinks.payerId, payerId));
      expect(links.map((l) => l.state)).toEqual(['active']);
      const [won] = links;
      expect((await booksOf(won?.id ?? '')).kinds).toEqual([
        'link_test_charge',
        'test_charge_refund',
      ]);
    },
  );

  it('a charge left waiting for its OTP blocks a new attempt until the OTP retry time, then gives way', async () => {
    const { token, payerId } = await payer();
    const first = (await link(token, 'pin_otp')).json<{ paymentId: string }>();
    const soon = await link(token, 'pin_only');
    expect(soon.statusCode).toBe(409);
    expect(errorOf(soon).code).toBe('ACCOUNT_LINK_IN_PROGRESS');
    clock.advance(OTP_RETRY_AFTER_MS + 1_000);
    const later = await link(token, 'pin_only');
    expect(later.statusCode).toBe(200);
    expect(await linkRow(first.paymentId)).toMatchObject({ state: 'cancelled' });
    expect((await cardLinkingEvents(payerId))[0]).toMatchObject({
      type: 'card_linking_failed',
      paymentId: first.paymentId,
    });
    const late = await complete(token, first.paymentId, '123456');
    expect(late.statusCode).toBe(409);
    expect(errorOf(late).code).toBe('ACCOUNT_LINK_CANCELLED');
  });
});

describe('retries', () => {
  it('a retried link with its Idempotency-Key gets the first answer and charges once', async () => {
    const { token, payerId } = await payer();
    const body = await linkBody(token, 'pin_only');
    const key = `link-${payerId}`;
    const first = await post('/api/payments/card', token, body, key);
    const again = await post('/api/payments/card', token, body, key);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const links = await ctx.database.db
      .select()
      .from(accountLinks)
      .where(eq(accountLinks.payerId, payerId));
    expect(links).toHaveLength(1);
    const reused = await post('/api/payments/card', token, await linkBody(token, 'pin_otp'), key);
    expect(reused.statusCode).toBe(409);
    expect(errorOf(reused).code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('a retried OTP with its Idempotency-Key gets the first answer', async () => {
    const { token } = await payer();
    const { paymentId } = (await link(token, 'pin_otp')).json<{ paymentId: string }>();
    const body = { paymentId, otp: '123456' };
    const first = await post('/api/payments/card/complete', token, body, `otp-${paymentId}`);
    const again = await post('/api/payments/card/complete', token, body, `otp-${paymentId}`);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
  });
});

describe('saving the card of a paid payment (POST /api/payments/save-card)', () => {
  /**
   * A signed-in payer pays a consent's payment by card, their own (the card saving links), asking
   * to save it or not.
   */
  async function paidByCard(token: string, saveCard: boolean) {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const paid = await post('/api/payments/card', token, {
      paymentId: consent.paymentId,
      cardDetails: await encryptedCard(ctx.app, await ownCard(token, 'pin_only')),
      saveCard,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    return consent;
  }

  /** Saves a paid card to an account: by default the payer's own account a card links. */
  const saveCard = async (token: string, paymentId: string, account?: TAccountAt, key?: string) =>
    post(
      '/api/payments/save-card',
      token,
      { paymentId, ...(account ?? (await saveToAccountOf(token))) },
      key,
    );

  it('puts the card on the account, which the card then links; a second save is refused', async () => {
    const { token } = await payer();
    const consent = await paidByCard(token, true);
    const completed = (await paymentEvents(ctx.database, consent.paymentId)).at(-1);
    expect(completed).toMatchObject({
      status: 'completed',
      shouldPromptCardLinking: true,
      cardWasSaved: true,
    });
    const saved = await saveCard(token, consent.paymentId);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({
      ok: true,
      message: 'Your card has been saved to this account.',
    });
    await expectCardLinked(token, 'pin_only');
    // The consent's payment no longer prompts for its card to be linked.
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/consent/${consent.consentId}?clientId=${consent.client.clientId}`,
    });
    const payment = read
      .json<{ consent: { payments: Array<{ type: string; origin: Record<string, unknown> }> } }>()
      .consent.payments.find((p) => p.type === 'immediate');
    expect(payment?.origin).toMatchObject({
      paymentMethod: 'card',
      shouldPromptCardLinking: false,
    });
    const again = await saveCard(token, consent.paymentId);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).code).toBe('CARD_ALREADY_SAVED');
  });

  it('answers a retry with its Idempotency-Key as the first save', async () => {
    const { token } = await payer();
    const consent = await paidByCard(token, true);
    const key = `save-${consent.paymentId}`;
    const first = await saveCard(token, consent.paymentId, undefined, key);
    const again = await saveCard(token, consent.paymentId, undefined, key);
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    expect(again.json()).toEqual(first.json());
  });

  it("answers 404 for another payer's payment and an unknown one", async () => {
    const owner = await payer();
    const stranger = await payer();
    const consent = await paidByCard(owner.token, true);
    const theirs = await saveCard(stranger.token, consent.paymentId);
    expect(theirs.statusCode).toBe(404);
    expect(errorOf(theirs).code).toBe('NOT_FOUND');
    expect((await saveCard(owner.token, 'pay_unknown')).statusCode).toBe(404);
  });

  describe('a card paid without sign-in', () => {
    /**
     * A page without sign-in pays by card (by default the fixture card), asking to save it: the
     * charge's token it holds.
     */
    async function paidAsGuest(
      card: Parameters<typeof encryptedCard>[1] = sandboxCard('pin_only'),
    ) {
      const consent = await consentWithPayment(ctx.app, ctx.database);
      const paid = await post('/api/payments/card/public', null, {
        paymentId: consent.paymentId,
        consentId: consent.consentId,
        cardDetails: await encryptedCard(ctx.app, card),
        saveCard: true,
      });
      expect(paid.statusCode, paid.body).toBe(200);
      const { chargeToken } = paid.json<{ chargeToken?: string }>();
      if (!chargeToken) throw new Error('the paying page got no charge token');
      return { ...consent, chargeToken };
    }

    const saveWith = async (token: string, paymentId: string, chargeToken?: string) =>
      post('/api/payments/save-card', token, {
        paymentId,
        ...(await saveToAccountOf(token)),
        ...(chargeToken ? { chargeToken } : {}),
      });

    /** The card network's charges of the payment's attempts and of the payer's links. */
    async function networkCharges(paymentId: string) {
      const attempts = await ctx.database.db
        .select({ id: paymentAttempts.id })
        .from(paymentAttempts)
        .where(eq(paymentAttempts.paymentId, paymentId));
      const all = await ctx.database.db.select().from(sandboxCardCharges);
      const ofPayment = all.filter((c) => attempts.some((a) => a.id === c.reference));
      return { ofPayment, total: all.length };
    }

    it('is saved by the payer who paid, signed in after, with the token their page holds: no second charge', async () => {
      // The payer's own card, paid with before they sign in on this page.
      const { token, payerId } = await payer();
      const guest = await paidAsGuest(await ownCard(token, 'pin_only'));
      expect((await paymentEvents(ctx.database, guest.paymentId)).at(-1)).toMatchObject({
        shouldPromptCardLinking: true,
        cardWasSaved: true,
      });
      const before = await networkCharges(guest.paymentId);
      expect(before.ofPayment.map((c) => c.status)).toEqual(['succeeded']);
      const saved = await saveWith(token, guest.paymentId, guest.chargeToken);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual({
        ok: true,
        message: 'Your card has been saved to this account.',
      });
      await expectCardLinked(token, 'pin_only');
      // Nothing charged again: the payment's one charge, and no test charge of a link.
      const after = await networkCharges(guest.paymentId);
      expect(after.total).toBe(before.total);
      expect(after.ofPayment).toEqual(before.ofPayment);
      const links = await ctx.database.db
        .select()
        .from(accountLinks)
        .where(eq(accountLinks.payerId, payerId));
      expect(links).toMatchObject([{ route: 'card', state: 'active', testAmount: null }]);
      // Saved once: the same page again is refused, the card stays on the first account.
      const again = await saveWith(token, guest.paymentId, guest.chargeToken);
      expect(again.statusCode).toBe(409);
      expect(errorOf(again).code).toBe('CARD_ALREADY_SAVED');
    });

    it("is refused to anyone else with the payment id: no token, a guessed token, another page's", async () => {
      const guest = await paidAsGuest();
      const other = await paidAsGuest();
      const stranger = await payer();
      for (const chargeToken of [undefined, 'cht_guessed', other.chargeToken]) {
        const refused = await saveWith(stranger.token, guest.paymentId, chargeToken);
        expect(refused.statusCode, String(chargeToken)).toBe(404);
        expect(errorOf(refused).code).toBe('NOT_FOUND');
      }
      const [attempt] = await ctx.database.db
        .select({ cardSavedAt: paymentAttempts.cardSavedAt })
        .from(paymentAttempts)
        .where(eq(paymentAttempts.paymentId, guest.paymentId));
      expect(attempt).toEqual({ cardSavedAt: null });
      // A signed-in payer's own payment is not opened by a token either.
      const owner = await payer();
      const signedInPaid = await paidByCard(owner.token, true);
      const theirs = await saveWith(stranger.token, signedInPaid.paymentId, guest.chargeToken);
      expect(theirs.statusCode).toBe(404);
    });
  });

  it('answers 409 CARD_NOT_SAVABLE for a card the payer did not ask to save, and an unpaid payment', async () => {
    const { token } = await payer();
    const consent = await paidByCard(token, false);
    expect((await paymentEvents(ctx.database, consent.paymentId)).at(-1)).toMatchObject({
      shouldPromptCardLinking: false,
      cardWasSaved: false,
    });
    const refused = await saveCard(token, consent.paymentId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      success: false,
      error: {
        code: 'CARD_NOT_SAVABLE',
        message:
          'This payment was not paid by a card that can be saved. Please link your card instead.',
      },
    });
    const unpaid = await consentWithPayment(ctx.app, ctx.database);
    const declined = await post('/api/payments/card', token, {
      paymentId: unpaid.paymentId,
      cardDetails: await encryptedCard(ctx.app, sandboxCard('declined')),
      saveCard: true,
    });
    expect(declined.statusCode).toBe(402);
    expect(errorOf(await saveCard(token, unpaid.paymentId)).code).toBe('CARD_NOT_SAVABLE');
  });

  it('refuses an account already linked, and the card stays unsaved', async () => {
    const { token } = await payer();
    expect((await link(token, 'pin_only')).statusCode).toBe(200);
    const consent = await paidByCard(token, true);
    const linked = await saveCard(token, consent.paymentId);
    expect(linked.statusCode).toBe(409);
    expect(errorOf(linked).code).toBe('ACCOUNT_ALREADY_LINKED');
    // The claim on the card went back with the refused link: it is still the payer's to save.
    const attempts = await ctx.database.db
      .select({
        cardSavedAt: paymentAttempts.cardSavedAt,
        cardSavedTo: paymentAttempts.cardSavedTo,
      })
      .from(paymentAttempts)
      .where(eq(paymentAttempts.paymentId, consent.paymentId));
    expect(attempts).toEqual([{ cardSavedAt: null, cardSavedTo: null }]);
  });

  it('needs a bearer token', async () => {
    const response = await post('/api/payments/save-card', null, {
      paymentId: 'pay_x',
      ...fixtureCardAccount,
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('the books after every linking path', () => {
  it('balance: every transaction sums to zero, and the test charges held are all refunded', async () => {
    const report = await checkLedger(ctx.database.db);
    expect(report).toMatchObject({
      unbalanced: [],
      balanceMismatches: [],
      paymentsNotBookedOnce: [],
      total: 0,
    });
    const [held] = await ctx.database.db
      .select()
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.id, 'provider_clearing:link_test_charges'));
    expect(held?.balance).toBe(0);
  });
});
