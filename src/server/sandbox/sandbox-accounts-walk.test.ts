// Every sandbox test account (docs/sandbox.md) walked through its path on
// the real routes, by its holder: a payer per fixture person, who verifies that person's BVN
// (one BVN belongs to one payer, so the person's accounts share the payer), each account linked
// the way its bank offers (test transfer, the
// alternate service's auth parameters, a card, a paper mandate the bank approves after a delay)
// or refused as 'Not supported', then its immediate payment debited at the grant (spec §2
// 'OneTap') or refused for funds; each checked by the answer, the payment's status, the events,
// the ledger and the sandbox bank's balance. The table is the fixtures': a new account whose
// scenario has no expected path fails here.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TAccountLink } from '../../domain/schemas/account-link';
import { accountLinks, events, ledgerTransactions, sandboxAccounts } from '../db/schema';
import { SANDBOX_PAPER_APPROVAL_MS } from './sandbox-provider';
import {
  ACCOUNT_SCENARIOS,
  SANDBOX_ACCOUNTS,
  SANDBOX_PEOPLE,
  type TAccountScenario,
  type TSandboxAccount,
} from './fixtures';
import { checkLedger } from '../services/payments/ledger';
import { useTestApp, testClock } from '../testing/test-app';
import { verifyBvn } from '../testing/bvn';
import { oneTapGrant, payerWithPasskey } from '../testing/identity';
import {
  consentWithPayment,
  encryptedCard,
  ledgerKinds,
  ledgerKindsOfReference,
  paymentEvents,
  sandboxCard,
  sandboxTransfer,
} from '../testing/payments';

const clock = testClock('2027-05-10T09:00:00Z');
const ctx = useTestApp({ clock });

/** The immediate payment each walk asks for: more than the poor account's NGN 50.00. */
const AMOUNT = 400_000;

const LINKED = 'Your account has been linked and is ready for future payments.';

type TPath = {
  /** How the account's bank links it; 'refused': the create answers 'Not supported'. */
  link: 'test_transfer' | 'auth_params' | 'card' | 'paper' | 'refused';
  /** The ledger kinds booked on the link (its id is their reference), in order. */
  linkBooks: string[];
  /** The immediate payment debited at the grant: paid, or refused for funds. */
  debit: 'paid' | 'insufficient_funds' | null;
};

const expected: Record<TAccountScenario, TPath> = {
  links_by_test_transfer: {
    link: 'test_transfer',
    linkBooks: ['link_test_transfer', 'link_test_transfer_refund'],
    debit: 'paid',
  },
  links_by_auth_params: { link: 'auth_params', linkBooks: [], debit: 'paid' },
  links_by_card: {
    link: 'card',
    linkBooks: ['link_test_charge', 'test_charge_refund'],
    debit: 'paid',
  },
  paper_mandate: { link: 'paper', linkBooks: [], debit: 'paid' },
  not_supported: { link: 'refused', linkBooks: [], debit: null },
  insufficient_funds: {
    link: 'test_transfer',
    linkBooks: ['link_test_transfer', 'link_test_transfer_refund'],
    debit: 'insufficient_funds',
  },
};

type TPayer = Awaited<ReturnType<typeof payerWithPasskey>>;

const holders = new Map<string, Promise<TPayer>>();

/**
 * The payer who holds a fixture account: a payer with a passkey who verified its holder's BVN
 * (the code read off the person's registered phone), made once per person.
 */
function holderOf(account: TSandboxAccount): Promise<TPayer> {
  let holder = holders.get(account.bvn);
  if (!holder) {
    const person = SANDBOX_PEOPLE.find((p) => p.bvn === account.bvn);
    if (!person) throw new Error(`No sandbox person has the BVN of ${account.accountNumber}`);
    holder = (async () => {
      const who = await payerWithPasskey(ctx.app, ctx.config);
      await verifyBvn(ctx.app, who.token, person);
      return who;
    })();
    holders.set(account.bvn, holder);
  }
  return holder;
}

const post = (who: TPayer, url: string, payload?: object) =>
  ctx.app.inject({ method: 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });

/** The create body for a fixture account, as the page sends it from a search result. */
const createBody = ({ accountNumber, institutionCode, accountName }: TSandboxAccount) => ({
  accountNumber,
  institutionCode,
  accountName,
  bankName: 'Any Bank',
});

/** The sandbox bank's balance of this very account (its fixture's until something moves it). */
async function balanceOf(account: TSandboxAccount): Promise<number> {
  const [row] = await ctx.database.db
    .select({ balance: sandboxAccounts.balance })
    .from(sandboxAccounts)
    .where(
      and(
        eq(sandboxAccounts.institutionCode, account.institutionCode),
        eq(sandboxAccounts.accountNumber, account.accountNumber),
      ),
    );
  return row?.balance ?? account.balance;
}

async function linksOf(payerId: string) {
  return ctx.database.db.select().from(accountLinks).where(eq(accountLinks.payerId, payerId));
}

async function streamOf(stream: string) {
  const rows = await ctx.database.db
    .select()
    .from(events)
    .where(eq(events.stream, stream))
    .orderBy(events.id);
  return rows.map((r) => ({ type: r.type, ...r.data }));
}

async function createdLink(who: TPayer, account: TSandboxAccount): Promise<TAccountLink> {
  const response = await post(who, '/api/account-links/create', createBody(account));
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ accountLink: TAccountLink }>().accountLink;
}

const confirm = (who: TPayer, linkId: string) =>
  post(who, `/api/account-links/confirm-payment/${linkId}`);

async function expectConfirmed(who: TPayer, linkId: string) {
  expect((await confirm(who, linkId)).json()).toEqual({
    success: true,
    status: 'completed',
    message: LINKED,
  });
}

/** Links the account the way its path says, through the routes; answers the active link's id. */
async function link(who: TPayer, account: TSandboxAccount, path: TPath): Promise<string> {
  switch (path.link) {
    case 'test_transfer': {
      const created = await createdLink(who, account);
      const payIn = created.payInDetails;
      if (!payIn) throw new Error(`${account.accountNumber} gave no pay-in details`);
      expect(payIn.sourceAccount).toBe(account.accountNumber);
      expect((await confirm(who, created.id)).json()).toMatchObject({ status: 'pending' });
      // The test transfer proves the account is the payer's only from that very account.
      const sent = await sandboxTransfer(ctx.app, {
        accountNumber: payIn.accountNumber,
        amount: payIn.amount,
        from: { institutionCode: account.institutionCode, accountNumber: account.accountNumber },
      });
      expect(sent.json()).toMatchObject({ outcome: 'credited' });
      await expectConfirmed(who, created.id);
      return created.id;
    }
    case 'auth_params': {
      const { authParams } = account;
      if (!authParams) throw new Error(`${account.accountNumber} has no auth parameters`);
      const { accountNumber, institutionCode, accountName } = account;
      const created = await post(who, '/api/transactionservicealt/create', {
        accountNumber,
        institutionCode,
        accountName,
      });
      expect(created.statusCode, created.body).toBe(200);
      const altLink = created.json<{ accountLink: TAccountLink }>().accountLink;
      expect(altLink.authParams).toEqual([expect.objectContaining({ param1: 'CARD' })]);
      const confirmed = await post(who, '/api/transactionservicealt/confirm', {
        remitaTransRef: altLink.remitaTransRef,
        authParams: [
          { param1: 'CARD', value: authParams.cardLast4 },
          { param1: 'OTP', value: authParams.otp },
        ],
      });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(confirmed.json()).toEqual({ success: true, message: LINKED });
      return altLink.id;
    }
    case 'card': {
      const linked = await post(who, '/api/payments/card', {
        saveCard: true,
        saveToAccount: {
          accountNumber: account.accountNumber,
          institutionCode: account.institutionCode,
        },
        cardDetails: await encryptedCard(ctx.app, sandboxCard('pin_only')),
      });
      expect(linked.statusCode, linked.body).toBe(200);
      const body = linked.json<{ paymentId: string }>();
      expect(body).toMatchObject({ success: true, message: LINKED });
      return body.paymentId;
    }
    case 'paper': {
      const created = await createdLink(who, account);
      expect(created).toMatchObject({ mandateType: 'paper', payInDetails: null });
      expect(created.formUrl).toBe(`${ctx.config.publicUrl}/mandates/${created.id}`);
      expect((await confirm(who, created.id)).json()).toMatchObject({
        success: false,
        status: 'pending',
      });
      clock.advance(SANDBOX_PAPER_APPROVAL_MS - 1_000);
      expect((await confirm(who, created.id)).json()).toMatchObject({ status: 'pending' });
      clock.advance(1_000);
      await expectConfirmed(who, created.id);
      return created.id;
    }
    case 'refused':
      throw new Error(`${account.accountNumber} links by no route`);
  }
}

/** What each link leaves on its stream: the account-link stream, or the payer's card stream. */
async function expectLinkEvents(who: TPayer, linkId: string, path: TPath) {
  if (path.link === 'card') {
    const cardStream = await streamOf(`card-linking:${who.userId}`);
    expect(cardStream.filter((e) => 'paymentId' in e && e.paymentId === linkId)).toEqual([
      expect.objectContaining({ type: 'card_linking_progress', paymentId: linkId }),
      expect.objectContaining({ type: 'card_linking_progress', paymentId: linkId }),
      expect.objectContaining({ type: 'card_linking_success', paymentId: linkId }),
    ]);
  } else {
    expect(await streamOf(`account-link:${linkId}`)).toEqual([
      { type: 'account_link_progress', accountLinkId: linkId, status: 'completed' },
    ]);
  }
}

/** The payment's status as its signed-in payer reads it (the consent asks for sign-in). */
async function paymentRead(who: TPayer, consent: { paymentId: string; consentId: string }) {
  const read = await ctx.app.inject({
    method: 'GET',
    url: `/api/payments/${consent.paymentId}?consentId=${consent.consentId}`,
    headers: who.headers,
  });
  expect(read.statusCode).toBe(200);
  return read.json<{ status: string }>();
}

/** The consent as its merchant reads it, the payment's origin in full (docs/payments.md). */
async function consentRead(consent: { consentId: string; client: { authorization: string } }) {
  const read = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/consents/${consent.consentId}`,
    headers: { authorization: consent.client.authorization },
  });
  expect(read.statusCode).toBe(200);
  return read.json<{
    consent: { status: string; payments: Array<Record<string, unknown> & { type: string }> };
  }>().consent;
}

async function ledgerCount() {
  return (await ctx.database.db.select({ id: ledgerTransactions.id }).from(ledgerTransactions))
    .length;
}

describe('every sandbox account through its path', () => {
  it('has an expected path for the scenario of every fixture account', () => {
    const scenarios = new Set<string>(SANDBOX_ACCOUNTS.map((a) => a.scenario));
    expect([...scenarios].filter((s) => !Object.hasOwn(expected, s))).toEqual([]);
    expect(Object.keys(expected).sort()).toEqual([...ACCOUNT_SCENARIOS].sort());
  });

  it.each(SANDBOX_ACCOUNTS.map((account) => [account.scenario, account.accountName, account]))(
    '%s: %s',
    async (_scenario, _name, account) => {
      const path = expected[account.scenario];
      expect(path, `no expected path for ${account.scenario}`).toBeDefined();
      const who = await holderOf(account);
      const before = await balanceOf(account);
      const earlier = await linksOf(who.userId);

      if (path.link === 'refused') {
        const booked = await ledgerCount();
        const refused = await post(who, '/api/account-links/create', createBody(account));
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toEqual({
          success: false,
          error: { code: 'ACCOUNT_NOT_SUPPORTED', message: 'Not supported' },
        });
        expect(await linksOf(who.userId)).toEqual(earlier);
        const listed = await ctx.app.inject({
          method: 'GET',
          url: '/api/accounts/user',
          headers: who.headers,
        });
        expect(
          listed
            .json<{ accounts: Array<{ accountNumber: string; isAlreadyLinked: boolean }> }>()
            .accounts.filter((a) => a.accountNumber === account.accountNumber && a.isAlreadyLinked),
        ).toEqual([]);
        expect(await ledgerCount()).toBe(booked);
        expect(await balanceOf(account)).toBe(before);
      } else {
        const linkId = await link(who, account, path);
        // The holder's other accounts' links were made earlier: this walk made one.
        const links = (await linksOf(who.userId)).filter(
          (l) => !earlier.some((e) => e.id === l.id),
        );
        expect(links).toEqual([expect.objectContaining({ id: linkId, state: 'active' })]);
        const accountId = links[0]?.accountId ?? '';
        await expectLinkEvents(who, linkId, path);
        expect(await ledgerKindsOfReference(ctx.database, linkId)).toEqual(path.linkBooks);

        const consent = await consentWithPayment(ctx.app, ctx.database, {
          amount: AMOUNT,
          requiresAuth: true,
        });
        const answer = await oneTapGrant(ctx.app, who, consent.consentId, accountId);
        expect(answer.statusCode, answer.body).toBe(200);
        const paid = await consentRead(consent);
        const immediate = paid.payments.find((p) => p.type === 'immediate');
        if (path.debit === 'paid') {
          expect(answer.json()).toMatchObject({
            status: 'granted',
            paymentResults: { total: 1, succeeded: 1, failed: 0 },
            message: 'Consent granted',
          });
          expect(await paymentRead(who, consent)).toMatchObject({ status: 'completed' });
          expect(paid.status).toBe('granted');
          expect(immediate).toMatchObject({
            status: 'executed',
            origin: {
              paymentMethod: 'bank_transfer',
              bankId: accountId,
              accountNumber: account.accountNumber,
              institutionCode: account.institutionCode,
              accountName: account.accountName,
            },
          });
          expect(await paymentEvents(ctx.database, consent.paymentId)).toEqual([
            {
              type: 'payment_status',
              paymentId: consent.paymentId,
              status: 'in_progress',
              attempt: expect.objectContaining({ method: 'account', state: 'charging' }),
            },
            expect.objectContaining({ status: 'completed', paymentType: 'account' }),
          ]);
          expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['account_debit']);
          expect(await balanceOf(account)).toBe(before - AMOUNT);
        } else {
          expect(path.debit).toBe('insufficient_funds');
          expect(answer.json()).toMatchObject({
            status: 'pending',
            paymentResults: { total: 1, succeeded: 0, failed: 1 },
            error: 'Direct debit payment failed: Insufficient funds',
            consent: { status: 'pending', grantedAt: null },
          });
          expect(await paymentRead(who, consent)).toMatchObject({ status: 'failed' });
          expect(paid.status).toBe('pending');
          expect(immediate).toMatchObject({ status: 'pending', origin: null });
          expect(await paymentEvents(ctx.database, consent.paymentId)).toEqual([
            {
              type: 'payment_status',
              paymentId: consent.paymentId,
              status: 'in_progress',
              attempt: expect.objectContaining({ method: 'account', state: 'charging' }),
            },
            expect.objectContaining({ status: 'failed', message: 'Direct debit payment failed' }),
          ]);
          expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
          expect(await balanceOf(account)).toBe(before);
        }
      }

      expect(await checkLedger(ctx.database.db)).toMatchObject({
        unbalanced: [],
        balanceMismatches: [],
        paymentsNotBookedOnce: [],
        payoutsNotBookedAsEnded: [],
      });
    },
  );
});
