// @module-tag postgres
// Linking only an account one owns (issue 27, item 1; docs/accounts.md "Ownership"): a test
// transfer proves the account only when it comes from that very account, a card links only the
// account its issuer says it draws on, and an account another payer linked asks the same proof.
// Each refusal leaves the account unproven: it cannot pay by OneTap, and the books hold nothing.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAccountLink } from '../../domain/schemas/account-link';
import {
  accountLinks,
  events,
  payerAccounts,
  paymentAttempts,
  sandboxTransfers,
} from '../db/schema';
import { SANDBOX_CARDS, type TAccountScenario } from '../sandbox/fixtures';
import { checkLedger } from '../services/payments/ledger';
import { oneTapGrant, payerWithPasskey } from '../testing/identity';
import {
  accountLinkRow,
  consentWithPayment,
  encryptedCard,
  ledgerKinds,
  ledgerKindsOfReference,
  sandboxAccount,
  sandboxBalanceOf,
  sandboxCard,
  sandboxTransfer,
  type TCardScenarioName,
} from '../testing/payments';
import { startTestApp, testClock } from '../testing/test-app';

const clock = testClock('2027-06-01T09:00:00Z');
let ctx: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  ctx = await startTestApp({ clock });
});
afterAll(async () => {
  await ctx.close();
});

const LINKED = 'Your account has been linked and is ready for future payments.';
const NOT_CONFIRMED = 'Payment not yet confirmed. Please wait and try again.';
const NOT_FROM_ACCOUNT =
  'Returned to the sender: a test transfer must come from the account being linked.';
const CARD_NOT_ON_ACCOUNT = {
  code: 'CARD_LINKING_FAILED',
  message: 'Card linking failed: This card is not issued on this account',
};

type TPayer = Awaited<ReturnType<typeof payerWithPasskey>>;

const newPayer = () => payerWithPasskey(ctx.app, ctx.config);

const post = (who: TPayer, url: string, payload?: object) =>
  ctx.app.inject({ method: 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });

const keyOf = (scenario: TAccountScenario) => {
  const { institutionCode, accountNumber } = sandboxAccount(scenario);
  return { institutionCode, accountNumber };
};

async function testTransferLink(who: TPayer, scenario: TAccountScenario) {
  const { accountNumber, institutionCode, accountName } = sandboxAccount(scenario);
  const created = await post(who, '/api/account-links/create', {
    accountNumber,
    institutionCode,
    accountName,
    bankName: 'Any Bank',
  });
  expect(created.statusCode, created.body).toBe(200);
  const link = created.json<{ accountLink: TAccountLink }>().accountLink;
  if (!link.payInDetails) throw new Error(`${scenario} gave no pay-in details`);
  return { id: link.id, payIn: link.payInDetails };
}

const sendTestTransfer = (
  payIn: { accountNumber: string; amount: number },
  from: TAccountScenario | null,
) =>
  sandboxTransfer(ctx.app, {
    accountNumber: payIn.accountNumber,
    amount: payIn.amount,
    ...(from ? { from: keyOf(from) } : {}),
  });

const confirm = (who: TPayer, linkId: string) =>
  post(who, `/api/account-links/confirm-payment/${linkId}`);

const linkRow = (linkId: string) => accountLinkRow(ctx.database, linkId);
const booksOf = (reference: string) => ledgerKindsOfReference(ctx.database, reference);

async function accountsOf(who: TPayer) {
  const listed = await ctx.app.inject({
    method: 'GET',
    url: '/api/accounts/user',
    headers: who.headers,
  });
  expect(listed.statusCode).toBe(200);
  return listed.json<{
    accounts: Array<{ accountId: string; accountNumber: string; isAlreadyLinked: boolean }>;
  }>().accounts;
}

/** OneTap from an account the payer has not proven is refused, and nothing is debited. */
async function expectNoOneTap(who: TPayer, scenario: TAccountScenario) {
  const account = (await accountsOf(who)).find(
    (a) => a.accountNumber === sandboxAccount(scenario).accountNumber,
  );
  if (!account) throw new Error(`${scenario} is not among the payer's accounts`);
  expect(account.isAlreadyLinked).toBe(false);
  const before = await sandboxBalanceOf(ctx.database, scenario);
  const consent = await consentWithPayment(ctx.app, ctx.database, { requiresAuth: true });
  const refused = await oneTapGrant(ctx.app, who, consent.consentId, account.accountId);
  expect(refused.statusCode).toBe(400);
  expect(refused.json()).toEqual({
    success: false,
    error: {
      code: 'VALIDATION_FAILED',
      message: `selectedAccounts: no linked account of yours has the id ${account.accountId}`,
    },
  });
  expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
  expect(await sandboxBalanceOf(ctx.database, scenario)).toBe(before);
}

async function expectBooksBalanced() {
  expect(await checkLedger(ctx.database.db)).toMatchObject({
    unbalanced: [],
    balanceMismatches: [],
    paymentsNotBookedOnce: [],
  });
}

describe('a test transfer proves the account only from that very account', () => {
  it.each([
    ['another test account', 'links_by_test_transfer' as const, 'insufficient_funds' as const],
    ['an unnamed sender', 'links_by_test_transfer' as const, null],
  ])(
    'returns one from %s to its sender; the link stays unproven and OneTap cannot debit it',
    async (_case, scenario, from) => {
      const who = await newPayer();
      const link = await testTransferLink(who, scenario);

      const stranger = await sendTestTransfer(link.payIn, from);
      expect(stranger.json()).toEqual({
        success: true,
        outcome: 'returned_not_from_account',
        message: NOT_FROM_ACCOUNT,
      });
      // The sandbox bank recorded the return, its reason, and whom it went back to.
      const recorded = await ctx.database.db
        .select({
          outcome: sandboxTransfers.outcome,
          senderAccountNumber: sandboxTransfers.senderAccountNumber,
          senderInstitutionCode: sandboxTransfers.senderInstitutionCode,
        })
        .from(sandboxTransfers)
        .where(eq(sandboxTransfers.accountNumber, link.payIn.accountNumber));
      expect(recorded).toEqual([
        {
          outcome: 'returned_not_from_account',
          senderAccountNumber: from ? keyOf(from).accountNumber : null,
          senderInstitutionCode: from ? keyOf(from).institutionCode : null,
        },
      ]);

      // The payer's page hears nothing and its poll reads the link still unproven.
      expect((await confirm(who, link.id)).json()).toEqual({
        success: false,
        status: 'pending',
        message: NOT_CONFIRMED,
      });
      expect((await linkRow(link.id))?.state).toBe('awaiting_authorisation');
      const progress = await ctx.database.db
        .select()
        .from(events)
        .where(eq(events.stream, `account-link:${link.id}`));
      expect(progress).toEqual([]);
      expect(await booksOf(link.id)).toEqual([]);
      await expectNoOneTap(who, scenario);

      // The account's own transfer, to the same one-time account, then proves it.
      const own = await sendTestTransfer(link.payIn, scenario);
      expect(own.json()).toMatchObject({ outcome: 'credited' });
      expect((await confirm(who, link.id)).json()).toEqual({
        success: true,
        status: 'completed',
        message: LINKED,
      });
      expect(await booksOf(link.id)).toEqual(['link_test_transfer', 'link_test_transfer_refund']);
      await expectBooksBalanced();
    },
  );
});

describe('a card links only the account it is issued on', () => {
  const cardBody = async (scenario: TCardScenarioName, account: TAccountScenario) => ({
    saveCard: true,
    saveToAccount: keyOf(account),
    cardDetails: await encryptedCard(ctx.app, sandboxCard(scenario)),
  });

  /** Nothing of the attempt is kept: no account added, no link, no card, no booking, no event. */
  async function expectNothingSaved(who: TPayer) {
    expect(
      await ctx.database.db
        .select()
        .from(payerAccounts)
        .where(eq(payerAccounts.payerId, who.userId)),
    ).toEqual([]);
    expect(
      await ctx.database.db.select().from(accountLinks).where(eq(accountLinks.payerId, who.userId)),
    ).toEqual([]);
    expect(
      await ctx.database.db
        .select()
        .from(events)
        .where(eq(events.stream, `card-linking:${who.userId}`)),
    ).toEqual([]);
  }

  it.each([
    // A card that would go through, of Funmilayo Adebayo's account, on Tunde Bakare's.
    ['pin_only', 'insufficient_funds'],
    // Tunde Bakare's card on Funmilayo Adebayo's account: refused before any charge is tried.
    ['insufficient_funds', 'links_by_card'],
  ] as const)(
    "the %s card on the %s account: 'Card linking failed', nothing charged or saved",
    async (card, account) => {
      const who = await newPayer();
      const issuedOn = SANDBOX_CARDS.find((c) => c.scenario === card)?.account;
      expect(issuedOn).not.toEqual(keyOf(account));
      const refused = await post(who, '/api/payments/card', await cardBody(card, account));
      expect(refused.statusCode).toBe(402);
      expect(refused.json()).toEqual({ success: false, error: CARD_NOT_ON_ACCOUNT });
      await expectNothingSaved(who);
      await expectBooksBalanced();
    },
  );

  it.each(['links_by_card', 'insufficient_funds'] as const)(
    'links the %s account with the card that goes through issued on it',
    async (account) => {
      const who = await newPayer();
      const card = SANDBOX_CARDS.find(
        (c) =>
          c.scenario === 'pin_only' && c.account.accountNumber === keyOf(account).accountNumber,
      );
      if (!card) throw new Error(`No PIN-only card on ${account}`);
      const linked = await post(who, '/api/payments/card', {
        saveCard: true,
        saveToAccount: keyOf(account),
        cardDetails: await encryptedCard(ctx.app, card),
      });
      expect(linked.statusCode, linked.body).toBe(200);
      expect(linked.json()).toMatchObject({ success: true, message: LINKED });
    },
  );

  it('refuses to save a paid card on an account it is not issued on; the card stays unsaved', async () => {
    const who = await newPayer();
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const paid = await post(who, '/api/payments/card', {
      paymentId: consent.paymentId,
      cardDetails: await encryptedCard(ctx.app, sandboxCard('pin_only')),
      saveCard: true,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const elsewhere = await post(who, '/api/payments/save-card', {
      paymentId: consent.paymentId,
      ...keyOf('insufficient_funds'),
    });
    expect(elsewhere.statusCode).toBe(402);
    expect(elsewhere.json()).toEqual({ success: false, error: CARD_NOT_ON_ACCOUNT });
    await expectNothingSaved(who);
    const [attempt] = await ctx.database.db
      .select({ cardSavedAt: paymentAttempts.cardSavedAt })
      .from(paymentAttempts)
      .where(
        and(
          eq(paymentAttempts.paymentId, consent.paymentId),
          eq(paymentAttempts.status, 'completed'),
        ),
      );
    expect(attempt).toEqual({ cardSavedAt: null });
    // The card's own account takes it.
    const own = await post(who, '/api/payments/save-card', {
      paymentId: consent.paymentId,
      ...keyOf('links_by_card'),
    });
    expect(own.statusCode, own.body).toBe(200);
  });
});

describe('an account another payer linked (a joint account) asks the same proof', () => {
  it('by test transfer: no shortcut, a stranger’s transfer is returned, its own transfer links it', async () => {
    const first = await newPayer();
    const firstLink = await testTransferLink(first, 'links_by_test_transfer');
    expect(
      (await sendTestTransfer(firstLink.payIn, 'links_by_test_transfer')).json(),
    ).toMatchObject({ outcome: 'credited' });
    expect((await linkRow(firstLink.id))?.state).toBe('active');

    const second = await newPayer();
    const secondLink = await testTransferLink(second, 'links_by_test_transfer');
    expect(secondLink.payIn.accountNumber).not.toBe(firstLink.payIn.accountNumber);
    expect((await linkRow(secondLink.id))?.state).toBe('created');
    expect((await confirm(second, secondLink.id)).json()).toMatchObject({ status: 'pending' });
    expect((await sendTestTransfer(secondLink.payIn, 'insufficient_funds')).json()).toMatchObject({
      outcome: 'returned_not_from_account',
    });
    expect((await linkRow(secondLink.id))?.state).toBe('awaiting_authorisation');
    await expectNoOneTap(second, 'links_by_test_transfer');

    expect(
      (await sendTestTransfer(secondLink.payIn, 'links_by_test_transfer')).json(),
    ).toMatchObject({ outcome: 'credited' });
    expect((await confirm(second, secondLink.id)).json()).toMatchObject({ status: 'completed' });
    // Each payer holds a link of their own on the account.
    expect((await linkRow(firstLink.id))?.state).toBe('active');
    await expectBooksBalanced();
  });

  it("by card: another account's card is refused; a card of the account links it", async () => {
    const first = await newPayer();
    const body = (card: TCardScenarioName) =>
      encryptedCard(ctx.app, sandboxCard(card)).then((cardDetails) => ({
        saveCard: true,
        saveToAccount: keyOf('links_by_card'),
        cardDetails,
      }));
    expect((await post(first, '/api/payments/card', await body('pin_only'))).statusCode).toBe(200);

    const second = await newPayer();
    const stranger = await post(second, '/api/payments/card', await body('insufficient_funds'));
    expect(stranger.statusCode).toBe(402);
    expect(stranger.json()).toEqual({ success: false, error: CARD_NOT_ON_ACCOUNT });
    expect(await accountsOf(second)).toEqual([]);
    const own = await post(second, '/api/payments/card', await body('pin_only'));
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ success: true, message: LINKED });
    await expectBooksBalanced();
  });
});
