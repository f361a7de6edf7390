// Linking a payer's bank account (spec §7; docs/accounts.md): a test transfer the sandbox bank
// receives, the alternate service's auth parameters, a paper mandate the bank approves after a
// delay, and the ways an attempt is refused, on the real routes and database.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_TIME_ACCOUNT_TTL_MS } from '../../domain/constants';
import type { TAccountLink } from '../../domain/schemas/account-link';
import type { TUserAccount } from '../../domain/schemas/user-account';
import { accountLinks, events, ledgerEntries, ledgerTransactions } from '../db/schema';
import { SANDBOX_PAPER_APPROVAL_MS } from '../sandbox/sandbox-provider';
import { SANDBOX_ACCOUNTS, type TAccountScenario } from '../sandbox/fixtures';
import { checkLedger } from '../services/payments/ledger';
import { applyProviderNotice } from '../services/payments/provider-notices';
import { startTestApp, testClock } from '../testing/test-app';
import { mintPerson, ownPerson, verifyBvn, type TSandboxPerson } from '../testing/bvn';
import { latestCode, loginWithCode, sendCode, signUp, testPhone } from '../testing/identity';
import { collectSse } from '../testing/sse';

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

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function fixture(scenario: TAccountScenario) {
  const account = SANDBOX_ACCOUNTS.find((a) => a.scenario === scenario);
  if (!account) throw new Error(`No sandbox account for ${scenario}`);
  return account;
}

/** The person's account of `scenario` (a minted person has one per scenario). */
function accountOf(person: TSandboxPerson, scenario: TAccountScenario) {
  const account = person.accounts.find((a) => a.scenario === scenario);
  if (!account) throw new Error(`No account of scenario ${scenario}`);
  return account;
}

/** The create body for an account, as the page sends it from a search result. */
function bodyFor(account: { accountNumber: string; institutionCode: string; accountName: string }) {
  const { accountNumber, institutionCode, accountName } = account;
  return { accountNumber, institutionCode, accountName, bankName: 'Any Bank' };
}

/**
 * A new payer who verified the BVN of a person of their own (one BVN belongs to one payer), so
 * that person's accounts are theirs to link.
 */
async function payer(name = 'Adaeze Okafor') {
  const phone = testPhone();
  const { token, user } = await signUp(ctx.app, phone, name);
  const person = await ownPerson(ctx.app, token);
  return {
    token,
    payerId: user.userId,
    phone,
    person,
    body: (scenario: TAccountScenario) => bodyFor(accountOf(person, scenario)),
  };
}

/** A new token for a payer whose token the test clock outran. */
async function signInAgain(phone: string): Promise<string> {
  expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
  const response = await loginWithCode(ctx.app, { phone, code: await latestCode(ctx.app, phone) });
  expect(response.statusCode).toBe(200);
  return response.json<{ token: string }>().token;
}

const post = (url: string, token: string | null, payload?: object) =>
  ctx.app.inject({
    method: 'POST',
    url,
    headers: token ? bearer(token) : {},
    ...(payload ? { payload } : {}),
  });

const create = (token: string, body: object) => post('/api/account-links/create', token, body);
const createAlt = (token: string, body: object) =>
  post('/api/transactionservicealt/create', token, body);
const confirm = (token: string, id: string) =>
  post(`/api/account-links/confirm-payment/${id}`, token);
const confirmAlt = (token: string, remitaTransRef: string, card: string, otp: string) =>
  post('/api/transactionservicealt/confirm', token, {
    remitaTransRef,
    authParams: [
      { param1: 'CARD', value: card },
      { param1: 'OTP', value: otp },
    ],
  });

async function createdLink(token: string, body: object): Promise<TAccountLink> {
  const response = await create(token, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ accountLink: TAccountLink }>().accountLink;
}

const errorOf = (response: { json: () => unknown }) =>
  (response.json() as { success: boolean; error: { code: string; message: string } }).error;

/** The sandbox bank receives a transfer, from the test account `from` or an unnamed sender. */
const sendTransfer = (
  accountNumber: string,
  amount: number,
  from?: { institutionCode: string; accountNumber: string },
) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/sandbox/transfers',
    payload: {
      accountNumber,
      amount,
      ...(from
        ? { from: { institutionCode: from.institutionCode, accountNumber: from.accountNumber } }
        : {}),
    },
  });

async function stateOf(linkId: string) {
  const [row] = await ctx.database.db
    .select()
    .from(accountLinks)
    .where(eq(accountLinks.id, linkId));
  return row;
}

async function progressOf(linkId: string) {
  const rows = await ctx.database.db
    .select()
    .from(events)
    .where(eq(events.stream, `account-link:${linkId}`))
    .orderBy(events.id);
  return rows.map((r) => ({ type: r.type, ...(r.data as { status: string; message?: string }) }));
}

describe('account-link routes need a signed-in payer', () => {
  it.each([
    ['/api/account-links/create', bodyFor(fixture('links_by_test_transfer'))],
    ['/api/account-links/confirm-payment/alk_x', undefined],
    ['/api/transactionservicealt/create', bodyFor(fixture('links_by_auth_params'))],
    [
      '/api/transactionservicealt/confirm',
      { remitaTransRef: 'x', authParams: [{ param1: 'CARD', value: '1' }] },
    ],
  ])('answers 401 to %s without a bearer token', async (url, payload) => {
    const response = await post(url, null, payload);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ success: false, error: { code: expect.any(String) } });
  });
});

describe('linking by test transfer', () => {
  it('issues pay-in details, says not yet confirmed until the transfer arrives, then links and refunds it', async () => {
    const { token, person, body } = await payer();
    const account = accountOf(person, 'links_by_test_transfer');
    const link = await createdLink(token, body('links_by_test_transfer'));
    expect(link).toMatchObject({
      id: expect.stringMatching(/^alk_/),
      mandateType: 'otp',
      authParams: [],
      formUrl: null,
      payInDetails: {
        accountNumber: expect.stringMatching(/^\d{10}$/),
        bankName: 'Rubies MFB',
        beneficiary: expect.any(String),
        paymentId: link.id,
        sourceAccount: account.accountNumber,
      },
    });
    const payIn = link.payInDetails;
    if (!payIn) throw new Error('no pay-in details');
    // spec §9: a test amount between ₦1.00 and ₦10.00, in kobo.
    expect(Number.isInteger(payIn.amount)).toBe(true);
    expect(payIn.amount).toBeGreaterThanOrEqual(100);
    expect(payIn.amount).toBeLessThanOrEqual(1_000);
    const row = await stateOf(link.id);
    expect(row?.state).toBe('created');
    expect(row?.expiresAt.getTime()).toBe(clock.now().getTime() + ONE_TIME_ACCOUNT_TTL_MS);

    const early = await confirm(token, link.id);
    expect(early.statusCode).toBe(200);
    expect(early.json()).toEqual({
      success: false,
      status: 'pending',
      message: 'Payment not yet confirmed. Please wait and try again.',
    });
    expect((await stateOf(link.id))?.state).toBe('awaiting_authorisation');

    const wrong = await sendTransfer(payIn.accountNumber, payIn.amount + 1);
    expect(wrong.json()).toMatchObject({ outcome: 'returned_wrong_amount' });
    expect((await confirm(token, link.id)).json()).toMatchObject({ status: 'pending' });

    const right = await sendTransfer(payIn.accountNumber, payIn.amount, account);
    expect(right.json()).toMatchObject({ outcome: 'credited' });
    const done = await confirm(token, link.id);
    expect(done.json()).toEqual({
      success: true,
      status: 'completed',
      message: 'Your account has been linked and is ready for future payments.',
    });
    expect(await stateOf(link.id)).toMatchObject({ state: 'active', activatedAt: clock.now() });
    expect(await progressOf(link.id)).toEqual([
      { type: 'account_link_progress', accountLinkId: link.id, status: 'completed' },
    ]);

    // The test amount in, and back to the payer: two balanced ledger transactions.
    const booked = await ctx.database.db
      .select({
        kind: ledgerTransactions.kind,
        account: ledgerEntries.accountId,
        amount: ledgerEntries.amount,
      })
      .from(ledgerTransactions)
      .innerJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
      .where(eq(ledgerTransactions.reference, link.id))
      // Each booking's entries go in by account id (ledger.ts: one lock order).
      .orderBy(ledgerTransactions.id, ledgerEntries.accountId);
    expect(booked).toEqual([
      { kind: 'link_test_transfer', account: 'payer_source:bank_transfer', amount: -payIn.amount },
      {
        kind: 'link_test_transfer',
        account: 'provider_clearing:link_test_transfers',
        amount: payIn.amount,
      },
      {
        kind: 'link_test_transfer_refund',
        account: 'payer_source:bank_transfer',
        amount: payIn.amount,
      },
      {
        kind: 'link_test_transfer_refund',
        account: 'provider_clearing:link_test_transfers',
        amount: -payIn.amount,
      },
    ]);

    // A second transfer to the used account goes back to its sender.
    expect((await sendTransfer(payIn.accountNumber, payIn.amount)).json()).toMatchObject({
      outcome: 'returned_already_paid',
    });

    // The payer's accounts show it approved.
    const accounts = await ctx.app.inject({
      method: 'GET',
      url: '/api/accounts/user',
      headers: bearer(token),
    });
    expect(accounts.json()).toMatchObject({
      accounts: [
        {
          accountNumber: account.accountNumber,
          linkStatus: 'approved',
          isAlreadyLinked: true,
        },
      ],
    });

    // spec §5: an account this payer linked is not linked again.
    const again = await create(token, body('links_by_test_transfer'));
    expect(again.statusCode).toBe(409);
    expect(errorOf(again)).toEqual({
      code: 'ACCOUNT_ALREADY_LINKED',
      message: 'This account is already linked',
    });
  });

  it(
    'lets 1 of 20 concurrent attempts on one account through, and answers the others 409',
    { tags: ['postgres'] },
    async () => {
      const { token, body } = await payer();
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => create(token, body('links_by_test_transfer'))),
      );
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
      for (const answer of answers.filter((a) => a.statusCode === 409)) {
        expect(answer.json()).toEqual({
          success: false,
          error: {
            code: 'ACCOUNT_LINK_IN_PROGRESS',
            message:
              'This account is already being linked. Please finish that attempt or wait for it to expire.',
          },
        });
      }
    },
  );

  it('expires an attempt at its one-time account’s expiry, returns a late transfer, and frees the account', async () => {
    const { token, phone, body } = await payer();
    const link = await createdLink(token, body('insufficient_funds'));
    const payIn = link.payInDetails;
    if (!payIn) throw new Error('no pay-in details');
    clock.advance(ONE_TIME_ACCOUNT_TTL_MS + 1_000);
    const fresh = await signInAgain(phone);
    expect((await sendTransfer(payIn.accountNumber, payIn.amount)).json()).toMatchObject({
      outcome: 'returned_expired',
    });
    expect((await confirm(fresh, link.id)).json()).toEqual({
      success: false,
      status: 'failed',
      message: 'This account link has expired. Please start again.',
    });
    expect((await stateOf(link.id))?.state).toBe('expired');
    expect(await progressOf(link.id)).toEqual([
      expect.objectContaining({ status: 'failed', accountLinkId: link.id }),
    ]);
    const next = await createdLink(fresh, body('insufficient_funds'));
    expect(next.id).not.toBe(link.id);
  });

  it('expires the link with its one-time account when the sandbox expires it early', async () => {
    const { token, body } = await payer();
    const link = await createdLink(token, body('links_by_test_transfer'));
    const expired = await ctx.app.inject({
      method: 'POST',
      url: `/api/sandbox/virtual-accounts/${link.payInDetails?.accountNumber}/expire`,
    });
    expect(expired.statusCode).toBe(200);
    expect((await stateOf(link.id))?.state).toBe('expired');
    expect((await confirm(token, link.id)).json()).toMatchObject({ status: 'failed' });
  });

  it('names the provider that opened its one-time account, and takes only its word of it', async () => {
    const { token, person, body } = await payer();
    const account = accountOf(person, 'links_by_test_transfer');
    const link = await createdLink(token, body('links_by_test_transfer'));
    const payIn = link.payInDetails;
    if (!payIn) throw new Error('no pay-in details');
    const [row] = await ctx.database.db
      .select({ provider: accountLinks.testTransferProvider })
      .from(accountLinks)
      .where(eq(accountLinks.id, link.id));
    expect(row?.provider).toBe('sandbox');
    // Another provider's verified notices of an account it never opened change nothing.
    const elsewhere = {
      kind: 'transfer_received',
      reference: link.id,
      amount: payIn.amount,
      currency: 'NGN',
      sender: { ...account, bankName: 'Rubies MFB', accountName: person.fullName },
      providerReference: `elsewhere_${link.id}`,
    } as const;
    expect(await applyProviderNotice(ctx.context, elsewhere, 'paystack')).toBe('ignored');
    const closed = { kind: 'transfer_account_expired', reference: link.id } as const;
    expect(await applyProviderNotice(ctx.context, closed, 'paystack')).toBe('unchanged');
    expect((await stateOf(link.id))?.state).toBe('created');
    // Its own provider's word links it.
    const right = await sendTransfer(payIn.accountNumber, payIn.amount, account);
    expect(right.json()).toMatchObject({ outcome: 'credited' });
    expect((await stateOf(link.id))?.state).toBe('active');
  });
});

describe('what the bank says about the account', () => {
  it('refuses a number the bank does not hold, naming the account number', async () => {
    const { token, body } = await payer();
    const response = await create(token, {
      ...body('links_by_test_transfer'),
      accountNumber: '0123456784',
    });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toEqual({
      code: 'ACCOUNT_NOT_FOUND_AT_BANK',
      message: 'No account with this account number was found at this bank',
    });
  });

  it('refuses a name that is not the holder’s, and takes the holder’s name in any case or order', async () => {
    const { token } = await signUp(ctx.app, testPhone(), 'Adaeze Okafor');
    const person = await mintPerson(ctx.app, { fullName: 'Adaeze Okafor' });
    await verifyBvn(ctx.app, token, person);
    const account = bodyFor(accountOf(person, 'links_by_test_transfer'));
    const wrong = await create(token, { ...account, accountName: 'Tunde Bakare' });
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong).code).toBe('ACCOUNT_NAME_MISMATCH');
    const reordered = await create(token, {
      ...account,
      accountName: 'OKAFOR,  adaeze',
    });
    expect(reordered.statusCode).toBe(200);
  });

  it("answers 'Not supported' for an account no integration supports", async () => {
    const { token, body } = await payer();
    const response = await create(token, body('not_supported'));
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toEqual({ code: 'ACCOUNT_NOT_SUPPORTED', message: 'Not supported' });
  });

  it('sends an account only a card can link to the card flow', async () => {
    const { token, body } = await payer();
    const response = await create(token, body('links_by_card'));
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).code).toBe('ACCOUNT_LINKS_BY_CARD');
  });

  it('names the field of a bad institution code or account number', async () => {
    const { token, body } = await payer();
    const badCode = await create(token, {
      ...body('links_by_test_transfer'),
      institutionCode: '999',
    });
    expect(badCode.statusCode).toBe(400);
    expect(errorOf(badCode).message).toMatch(/^institutionCode:/);
    const short = await create(token, {
      ...body('links_by_test_transfer'),
      accountNumber: '123',
    });
    expect(short.statusCode).toBe(400);
    expect(errorOf(short).message).toMatch(/^accountNumber:/);
  });
});

describe('linking by the alternate service’s auth parameters', () => {
  async function altLink({ token, person }: { token: string; person: TSandboxPerson }) {
    const { accountName, accountNumber, institutionCode } = accountOf(
      person,
      'links_by_auth_params',
    );
    const response = await createAlt(token, { accountName, accountNumber, institutionCode });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ success: true; accountLink: TAccountLink }>().accountLink;
  }
  // Every account of the scenario asks for its fixture's card digits and OTP.
  const { cardLast4, otp } = fixture('links_by_auth_params').authParams ?? {
    cardLast4: '',
    otp: '',
  };

  it('answers the auth parameters to fill, refuses wrong answers with the tries left, and links on the right ones', async () => {
    const who = await payer();
    const { token } = who;
    const link = await altLink(who);
    expect(link).toMatchObject({
      mandateType: 'otp',
      payInDetails: null,
      remitaTransRef: expect.any(String),
      requestId: expect.any(String),
      authParams: [{ param1: 'CARD', param2: 'OTP', label1: expect.any(String) }],
    });
    const remitaTransRef = link.remitaTransRef ?? '';
    const wrong = await confirmAlt(token, remitaTransRef, '0000', otp);
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong)).toEqual({
      code: 'AUTH_PARAMS_INCORRECT',
      message: 'Failed to verify account: the details do not match your bank. 4 tries left.',
    });
    expect((await confirm(token, link.id)).json()).toMatchObject({ status: 'pending' });

    const right = await confirmAlt(token, remitaTransRef, cardLast4, otp);
    expect(right.statusCode).toBe(200);
    expect(right.json()).toEqual({
      success: true,
      message: 'Your account has been linked and is ready for future payments.',
    });
    // Both tries were counted before the bank was asked.
    expect(await stateOf(link.id)).toMatchObject({ state: 'active', authTries: 2 });
    expect(await progressOf(link.id)).toEqual([
      { type: 'account_link_progress', accountLinkId: link.id, status: 'completed' },
    ]);
    expect((await confirm(token, link.id)).json()).toMatchObject({ status: 'completed' });
  });

  it('is also the route /api/account-links/create picks for a bank with only the alternate service', async () => {
    const { token, body } = await payer();
    const link = await createdLink(token, body('links_by_auth_params'));
    expect(link.authParams).toHaveLength(1);
    expect(link.remitaTransRef).toEqual(expect.any(String));
  });

  it(
    'cancels the link at the fifth wrong answer, counted atomically under concurrent tries',
    { tags: ['postgres'] },
    async () => {
      const who = await payer();
      const { token } = who;
      const link = await altLink(who);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          confirmAlt(token, link.remitaTransRef ?? '', '1111', '222222'),
        ),
      );
      const codes = answers.map((a) => errorOf(a).code).sort();
      expect(codes.filter((c) => c === 'AUTH_PARAMS_INCORRECT')).toHaveLength(4);
      expect(codes.filter((c) => c === 'AUTH_PARAMS_LOCKED')).toHaveLength(4);
      expect(await stateOf(link.id)).toMatchObject({ state: 'cancelled', authTries: 5 });
      const late = await confirmAlt(token, link.remitaTransRef ?? '', cardLast4, otp);
      expect(late.statusCode).toBe(409);
      expect(errorOf(late).code).toBe('AUTH_PARAMS_LOCKED');
      expect(await progressOf(link.id)).toEqual([expect.objectContaining({ status: 'failed' })]);
      // The account is free for a new attempt.
      await altLink(who);
    },
  );

  it("answers 'Not supported' when the bank has no alternate service", async () => {
    const { token, person } = await payer();
    const { accountName, accountNumber, institutionCode } = accountOf(
      person,
      'links_by_test_transfer',
    );
    const response = await createAlt(token, { accountName, accountNumber, institutionCode });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).code).toBe('ACCOUNT_NOT_SUPPORTED');
  });
});

describe('linking by paper mandate', () => {
  it('serves a printable form, and the bank approves the mandate after its delay', async () => {
    const { token, person, body } = await payer('Ibrahim <Musa> & Sons');
    const link = await createdLink(token, body('paper_mandate'));
    expect(link).toMatchObject({ mandateType: 'paper', payInDetails: null, authParams: [] });
    expect(link.formUrl).toBe(`${ctx.config.publicUrl}/mandates/${link.id}`);
    expect((await stateOf(link.id))?.state).toBe('awaiting_authorisation');

    const form = await ctx.app.inject({ method: 'GET', url: `/mandates/${link.id}` });
    expect(form.statusCode).toBe(200);
    expect(form.headers['content-type']).toMatch(/text\/html/);
    expect(form.body).toContain('Direct debit mandate');
    expect(form.body).toContain(accountOf(person, 'paper_mandate').accountNumber);
    expect(form.body).toContain('Ibrahim &#60;Musa&#62; &#38; Sons');
    expect(form.body).not.toContain('<Musa>');

    expect((await confirm(token, link.id)).json()).toEqual({
      success: false,
      status: 'pending',
      message: 'Your bank has not approved the signed mandate yet. Please check again later.',
    });
    clock.advance(SANDBOX_PAPER_APPROVAL_MS);
    expect((await confirm(token, link.id)).json()).toMatchObject({
      success: true,
      status: 'completed',
    });
    expect((await stateOf(link.id))?.state).toBe('active');
    expect(await progressOf(link.id)).toEqual([
      expect.objectContaining({ status: 'completed', accountLinkId: link.id }),
    ]);
  });

  it("is approved on the payer's accounts once the bank's delay has passed, with no other call", async () => {
    const { token, person, body } = await payer('Ibrahim Musa');
    const link = await createdLink(token, body('paper_mandate'));
    const listed = async () => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/api/accounts/user',
        headers: bearer(token),
      });
      expect(response.statusCode, response.body).toBe(200);
      const found = response
        .json<{ accounts: TUserAccount[] }>()
        .accounts.find((a) => a.accountNumber === accountOf(person, 'paper_mandate').accountNumber);
      if (!found) throw new Error('the paper mandate account is not listed');
      return found;
    };

    // Pending: the row offers the form to print, and the account is not approved yet.
    expect(await listed()).toMatchObject({
      status: 'pending',
      linkStatus: null,
      paperMandate: { formUrl: link.formUrl, expiresAt: expect.any(String) },
    });
    clock.advance(SANDBOX_PAPER_APPROVAL_MS - 1);
    expect((await listed()).status).toBe('pending');

    clock.advance(1);
    expect(await listed()).toMatchObject({
      status: 'approved',
      linkStatus: 'approved',
      statusDetail: 'Approved',
      paperMandate: null,
    });
    expect((await stateOf(link.id))?.state).toBe('active');
    expect(await progressOf(link.id)).toEqual([
      expect.objectContaining({ status: 'completed', accountLinkId: link.id }),
    ]);
  });

  it('has no form for a link that is not a paper mandate, nor for an unknown id', async () => {
    const { token, body } = await payer();
    const link = await createdLink(token, body('links_by_test_transfer'));
    expect((await ctx.app.inject({ method: 'GET', url: `/mandates/${link.id}` })).statusCode).toBe(
      404,
    );
    expect((await ctx.app.inject({ method: 'GET', url: '/mandates/alk_nothing' })).statusCode).toBe(
      404,
    );
  });
});

describe("another payer's link", () => {
  it('reads as no link at all', async () => {
    const owner = await payer();
    const stranger = await payer('Tola Ade');
    const link = await createdLink(owner.token, owner.body('links_by_test_transfer'));
    const response = await confirm(stranger.token, link.id);
    expect(response.statusCode).toBe(404);
    expect(errorOf(response).code).toBe('NOT_FOUND');

    const { accountName, accountNumber, institutionCode } = accountOf(
      owner.person,
      'links_by_auth_params',
    );
    const alt = await createAlt(owner.token, { accountName, accountNumber, institutionCode });
    const ref = alt.json<{ accountLink: TAccountLink }>().accountLink.remitaTransRef ?? '';
    const { cardLast4, otp } = fixture('links_by_auth_params').authParams ?? {
      cardLast4: '',
      otp: '',
    };
    const theirs = await confirmAlt(stranger.token, ref, cardLast4, otp);
    expect(theirs.statusCode).toBe(404);
    const [row] = await ctx.database.db
      .select()
      .from(accountLinks)
      .where(and(eq(accountLinks.remitaTransRef, ref)));
    expect(row?.state).toBe('created');
  });
});

describe('the account-link progress stream', () => {
  const ticketFor = (token: string, accountLinkId: string) =>
    post('/api/events/tickets', token, { stream: 'account-link', accountLinkId });

  it("tells the link's own payer the moment the test transfer links it", async () => {
    const { token, person, body } = await payer();
    const link = await createdLink(token, body('links_by_test_transfer'));
    const issued = await ticketFor(token, link.id);
    expect(issued.statusCode).toBe(200);
    const { ticket } = issued.json<{ ticket: string }>();
    const { status, events: seen } = await collectSse(
      base,
      `/api/events/account-links/${link.id}?ticket=${ticket}`,
      (got) => got.some((e) => e.event === 'account_link_progress'),
      {},
      async () => {
        const payIn = link.payInDetails;
        if (!payIn) throw new Error('no pay-in details');
        const sent = await sendTransfer(
          payIn.accountNumber,
          payIn.amount,
          accountOf(person, 'links_by_test_transfer'),
        );
        expect(sent.json()).toMatchObject({ outcome: 'credited' });
      },
    );
    expect(status).toBe(200);
    expect(seen.filter((e) => e.event === 'account_link_progress').map((e) => e.data)).toEqual([
      { accountLinkId: link.id, status: 'completed' },
    ]);
  });

  it("gives no ticket for another payer's link, and a ticket opens only its own link", async () => {
    const owner = await payer();
    const stranger = await payer('Bisi Adeyemi');
    const link = await createdLink(owner.token, owner.body('links_by_auth_params'));
    const refused = await ticketFor(stranger.token, link.id);
    expect(refused.statusCode).toBe(404);
    expect(errorOf(refused).code).toBe('NOT_FOUND');

    const theirs = await createdLink(stranger.token, stranger.body('links_by_test_transfer'));
    const { ticket } = (await ticketFor(stranger.token, theirs.id)).json<{ ticket: string }>();
    const elsewhere = await collectSse(
      base,
      `/api/events/account-links/${link.id}?ticket=${ticket}`,
      () => true,
    );
    expect(elsewhere.status).toBe(401);
    const none = await collectSse(base, `/api/events/account-links/${link.id}`, () => true);
    expect(none.status).toBe(401);
  });
});

describe('the books', () => {
  it('stay balanced after every test transfer and its refund', async () => {
    expect(await checkLedger(ctx.database.db)).toMatchObject({
      unbalanced: [],
      balanceMismatches: [],
      paymentsNotBookedOnce: [],
      total: 0,
    });
  });
});
