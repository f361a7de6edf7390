// Linking only an account one owns (docs/accounts.md "Ownership"): an account is the payer's only
// when its holder's BVN is the payer's verified BVN, a test transfer proves it only when it comes
// from that very account, and a card links only the account its issuer says it draws on. One BVN
// belongs to one payer, so another payer's account (a joint account too) is refused before anything
// is opened or charged. Each refusal leaves the account unproven: it cannot pay by OneTap, and the
// books hold nothing.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TAccountLink } from '../../domain/schemas/account-link';
import {
  accountLinks,
  events,
  payerAccounts,
  paymentAttempts,
  sandboxAccounts,
  sandboxCardCharges,
  sandboxTransfers,
} from '../db/schema';
import { SANDBOX_CARDS, SANDBOX_PEOPLE, type TAccountScenario } from '../sandbox/fixtures';
import { checkLedger } from '../services/payments/ledger';
import {
  ownPerson,
  requestBvnCode,
  submitBvnCode,
  verifyBvn,
  type TSandboxPerson,
} from '../testing/bvn';
import { latestCode, oneTapGrant, payerWithPasskey } from '../testing/identity';
import {
  accountLinkRow,
  consentWithPayment,
  encryptedCard,
  ledgerKinds,
  ledgerKindsOfReference,
  sandboxAccount,
  sandboxTransfer,
  type TCardScenarioName,
} from '../testing/payments';
import { useTestApp, testClock } from '../testing/test-app';

const clock = testClock('2027-06-01T09:00:00Z');
const ctx = useTestApp({ clock });

const LINKED = 'Your account has been linked and is ready for future payments.';
const NOT_CONFIRMED = 'Payment not yet confirmed. Please wait and try again.';
const NOT_FROM_ACCOUNT =
  'Returned to the sender: a test transfer must come from the account being linked.';
const CARD_NOT_ON_ACCOUNT = {
  code: 'CARD_LINKING_FAILED',
  message: 'Card linking failed: This card is not issued on this account',
};

type TAccountKey = { institutionCode: string; accountNumber: string };
type TPayer = Awaited<ReturnType<typeof payerWithPasskey>> & {
  /** The person whose BVN the payer verified: their accounts and cards are the payer's. */
  person: TSandboxPerson;
};

/** A new payer with a passkey who verified the BVN of a person of their own. */
async function newPayer(): Promise<TPayer> {
  const who = await payerWithPasskey(ctx.app, ctx.config);
  return { ...who, person: await ownPerson(ctx.app, who.token) };
}

const post = (who: { headers: Record<string, string> }, url: string, payload?: object) =>
  ctx.app.inject({ method: 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });

/** The person's account of `scenario`: its bank, number and holder's name. */
function accountOf(person: TSandboxPerson, scenario: TAccountScenario) {
  const account = person.accounts.find((a) => a.scenario === scenario);
  if (!account) throw new Error(`No account of scenario ${scenario}`);
  return account;
}

const keyOf = (person: TSandboxPerson, scenario: TAccountScenario): TAccountKey => {
  const { institutionCode, accountNumber } = accountOf(person, scenario);
  return { institutionCode, accountNumber };
};

/** The person's card of a card scenario, issued on one of the person's accounts. */
function cardOf(person: TSandboxPerson, scenario: TCardScenarioName) {
  const card = person.cards.find((c) => c.scenario === scenario);
  if (!card) throw new Error(`No card of scenario ${scenario}`);
  return card;
}

const createLink = (
  who: { headers: Record<string, string> },
  account: TAccountKey & { accountName: string },
) =>
  post(who, '/api/account-links/create', {
    accountNumber: account.accountNumber,
    institutionCode: account.institutionCode,
    accountName: account.accountName,
    bankName: 'Any Bank',
  });

async function testTransferLink(who: TPayer, scenario: TAccountScenario) {
  const created = await createLink(who, accountOf(who.person, scenario));
  expect(created.statusCode, created.body).toBe(200);
  const link = created.json<{ accountLink: TAccountLink }>().accountLink;
  if (!link.payInDetails) throw new Error(`${scenario} gave no pay-in details`);
  return { id: link.id, payIn: link.payInDetails };
}

const sendTestTransfer = (
  payIn: { accountNumber: string; amount: number },
  from: TAccountKey | null,
) =>
  sandboxTransfer(ctx.app, {
    accountNumber: payIn.accountNumber,
    amount: payIn.amount,
    ...(from
      ? { from: { institutionCode: from.institutionCode, accountNumber: from.accountNumber } }
      : {}),
  });

/** The sandbox bank's balance of an account: its scenario's opening balance until it moves. */
async function balanceOf(account: TAccountKey, scenario: TAccountScenario): Promise<number> {
  const [row] = await ctx.database.db
    .select({ balance: sandboxAccounts.balance })
    .from(sandboxAccounts)
    .where(
      and(
        eq(sandboxAccounts.institutionCode, account.institutionCode),
        eq(sandboxAccounts.accountNumber, account.accountNumber),
      ),
    );
  return row?.balance ?? sandboxAccount(scenario).balance;
}

/** The sandbox card network's charges of a card: none means nothing was tried on it. */
const chargesOf = (card: { number: string }) =>
  ctx.database.db
    .select({ reference: sandboxCardCharges.reference })
    .from(sandboxCardCharges)
    .where(
      and(
        eq(sandboxCardCharges.cardFirst6, card.number.slice(0, 6)),
        eq(sandboxCardCharges.cardLast4, card.number.slice(-4)),
      ),
    );

/** The payer's links, whatever their state. */
const linksOf = (who: { userId: string }) =>
  ctx.database.db.select().from(accountLinks).where(eq(accountLinks.payerId, who.userId));

const confirm = (who: TPayer, linkId: string) =>
  post(who, `/api/account-links/confirm-payment/${linkId}`);

const linkRow = (linkId: string) => accountLinkRow(ctx.database, linkId);
const booksOf = (reference: string) => ledgerKindsOfReference(ctx.database, reference);

async function accountsOf(who: { headers: Record<string, string> }) {
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
  const key = keyOf(who.person, scenario);
  const account = (await accountsOf(who)).find((a) => a.accountNumber === key.accountNumber);
  if (!account) throw new Error(`${scenario} is not among the payer's accounts`);
  expect(account.isAlreadyLinked).toBe(false);
  const before = await balanceOf(key, scenario);
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
  expect(await balanceOf(key, scenario)).toBe(before);
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
    ['another account of the payer', 'insufficient_funds' as const],
    ['an unnamed sender', null],
  ])(
    'returns one from %s to its sender; the link stays unproven and OneTap cannot debit it',
    async (_case, sender) => {
      const who = await newPayer();
      const scenario = 'links_by_test_transfer';
      const link = await testTransferLink(who, scenario);
      const from = sender ? keyOf(who.person, sender) : null;

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
          senderAccountNumber: from?.accountNumber ?? null,
          senderInstitutionCode: from?.institutionCode ?? null,
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
      const own = await sendTestTransfer(link.payIn, keyOf(who.person, scenario));
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
  const cardBody = async (who: TPayer, card: TCardScenarioName, account: TAccountScenario) => ({
    saveCard: true,
    saveToAccount: keyOf(who.person, account),
    cardDetails: await encryptedCard(ctx.app, cardOf(who.person, card)),
  });

  /** Nothing of the attempt is kept: no account added, no link, no card, no booking, no event. */
  async function expectNothingSaved(who: { userId: string }) {
    expect(
      await ctx.database.db
        .select()
        .from(payerAccounts)
        .where(eq(payerAccounts.payerId, who.userId)),
    ).toEqual([]);
    expect(await linksOf(who)).toEqual([]);
    expect(
      await ctx.database.db
        .select()
        .from(events)
        .where(eq(events.stream, `card-linking:${who.userId}`)),
    ).toEqual([]);
  }

  it.each([
    // The payer's card that would go through (on their links_by_card account) on another account of theirs.
    ['pin_only', 'insufficient_funds'],
    // The payer's insufficient_funds card on their links_by_card account.
    ['insufficient_funds', 'links_by_card'],
  ] as const)(
    "the %s card on the %s account: 'Card linking failed', nothing charged or saved",
    async (card, account) => {
      const who = await newPayer();
      expect(cardOf(who.person, card).account).not.toEqual(keyOf(who.person, account));
      const refused = await post(who, '/api/payments/card', await cardBody(who, card, account));
      expect(refused.statusCode).toBe(402);
      expect(refused.json()).toEqual({ success: false, error: CARD_NOT_ON_ACCOUNT });
      expect(await chargesOf(cardOf(who.person, card))).toEqual([]);
      await expectNothingSaved(who);
      await expectBooksBalanced();
    },
  );

  it('links the links_by_card account with the card that goes through issued on it', async () => {
    const who = await newPayer();
    const card = cardOf(who.person, 'pin_only');
    expect(card.account).toEqual(keyOf(who.person, 'links_by_card'));
    const linked = await post(
      who,
      '/api/payments/card',
      await cardBody(who, 'pin_only', 'links_by_card'),
    );
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toMatchObject({ success: true, message: LINKED });
  });

  it("links the insufficient_funds account with the card that goes through issued on it, once its holder's BVN is the payer's", async () => {
    // Only the fixtures issue a card that goes through on an account that links by test
    // transfer: Tunde Bakare's. His BVN is verified by this one payer (one BVN, one payer).
    const account = sandboxAccount('insufficient_funds');
    const holder = SANDBOX_PEOPLE.find((person) => person.bvn === account.bvn);
    if (!holder) throw new Error('The insufficient_funds account has no holder');
    const card = SANDBOX_CARDS.find(
      (c) => c.scenario === 'pin_only' && c.account.accountNumber === account.accountNumber,
    );
    if (!card) throw new Error('No PIN-only card on the insufficient_funds account');
    const who = await payerWithPasskey(ctx.app, ctx.config);
    await verifyBvn(ctx.app, who.token, holder);
    const linked = await post(who, '/api/payments/card', {
      saveCard: true,
      saveToAccount: {
        institutionCode: account.institutionCode,
        accountNumber: account.accountNumber,
      },
      cardDetails: await encryptedCard(ctx.app, card),
    });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toMatchObject({ success: true, message: LINKED });
  });

  it('refuses to save a paid card on an account it is not issued on; the card stays unsaved', async () => {
    const who = await newPayer();
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const paid = await post(who, '/api/payments/card', {
      paymentId: consent.paymentId,
      cardDetails: await encryptedCard(ctx.app, cardOf(who.person, 'pin_only')),
      saveCard: true,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const elsewhere = await post(who, '/api/payments/save-card', {
      paymentId: consent.paymentId,
      ...keyOf(who.person, 'insufficient_funds'),
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
      ...keyOf(who.person, 'links_by_card'),
    });
    expect(own.statusCode, own.body).toBe(200);
  });
});

describe('another payer’s account, a joint account too, is not yours: one BVN belongs to one payer', () => {
  const NOT_YOURS = {
    success: false,
    error: { code: 'ACCOUNT_NOT_YOURS', message: 'This account is not registered to your BVN.' },
  };

  it('by test transfer: refused before any link is opened; a stranger’s transfer is returned, nothing booked', async () => {
    const first = await newPayer();
    const account = accountOf(first.person, 'links_by_test_transfer');
    const firstLink = await testTransferLink(first, 'links_by_test_transfer');

    // Another payer, their own BVN verified, asks to link the first payer's account.
    const second = await newPayer();
    const refused = await createLink(second, account);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(NOT_YOURS);
    expect(await linksOf(second)).toEqual([]);
    expect(await accountsOf(second)).toEqual([]);
    // The holder's BVN cannot become theirs either: asked for, it is answered as any BVN is, and
    // only a code proven from its phone is told it is taken.
    expect((await requestBvnCode(ctx.app, second.token, first.person.bvn)).statusCode).toBe(200);
    const taken = await submitBvnCode(
      ctx.app,
      second.token,
      await latestCode(ctx.app, first.person.phoneNumber),
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: { code: 'BVN_TAKEN' } });

    // Their transfer into the first payer's one-time account does not prove it.
    expect(
      (
        await sendTestTransfer(firstLink.payIn, keyOf(second.person, 'links_by_test_transfer'))
      ).json(),
    ).toMatchObject({ outcome: 'returned_not_from_account' });
    expect((await linkRow(firstLink.id))?.state).toBe('created');
    expect(await booksOf(firstLink.id)).toEqual([]);

    // The account's own transfer links it for its holder.
    expect((await sendTestTransfer(firstLink.payIn, account)).json()).toMatchObject({
      outcome: 'credited',
    });
    expect((await confirm(first, firstLink.id)).json()).toMatchObject({ status: 'completed' });
    expect((await linkRow(firstLink.id))?.state).toBe('active');

    // Once it is linked, the other payer is refused all the same.
    const after = await createLink(second, account);
    expect(after.statusCode).toBe(403);
    expect(after.json()).toEqual(NOT_YOURS);
    expect(await linksOf(second)).toEqual([]);
    await expectBooksBalanced();
  });

  it("by card: the holder's own card on the holder's account is refused to another payer, nothing charged", async () => {
    const first = await newPayer();
    const card = cardOf(first.person, 'pin_only');
    const linked = await post(first, '/api/payments/card', {
      saveCard: true,
      saveToAccount: card.account,
      cardDetails: await encryptedCard(ctx.app, card),
    });
    expect(linked.statusCode, linked.body).toBe(200);
    const chargesBefore = await chargesOf(card);

    const second = await newPayer();
    const refused = await post(second, '/api/payments/card', {
      saveCard: true,
      saveToAccount: card.account,
      cardDetails: await encryptedCard(ctx.app, card),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(NOT_YOURS);
    expect(await chargesOf(card)).toEqual(chargesBefore);
    expect(await accountsOf(second)).toEqual([]);
    expect(await linksOf(second)).toEqual([]);

    // Their own card links their own account.
    const own = await post(
      second,
      '/api/payments/card',
      await (async () => {
        const mine = cardOf(second.person, 'pin_only');
        return {
          saveCard: true,
          saveToAccount: mine.account,
          cardDetails: await encryptedCard(ctx.app, mine),
        };
      })(),
    );
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ success: true, message: LINKED });
    await expectBooksBalanced();
  });

  it('a payer who verified no BVN is asked for one first, and nothing is opened', async () => {
    const first = await newPayer();
    const stranger = await payerWithPasskey(ctx.app, ctx.config);
    const refused = await createLink(stranger, accountOf(first.person, 'links_by_test_transfer'));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'BVN_NOT_VERIFIED' } });
    expect(await linksOf(stranger)).toEqual([]);
    expect(await accountsOf(stranger)).toEqual([]);
  });
});
