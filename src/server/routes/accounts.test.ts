// A payer's bank accounts (spec §7): finding an account by its number across banks over the
// bank-validation stream, the payer's accounts with how each is linked, bank lookups, and the
// testers' delete behind the server's debug flag.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidNuban, nubanCheckDigit } from '../../domain/nuban';
import type { TBankValidationEvent } from '../../domain/schemas/user-account';
import { buildApp } from '../app';
import { accountLinks, payerAccounts } from '../db/schema';
import { SANDBOX_ACCOUNTS, SANDBOX_BANKS, type TAccountScenario } from '../sandbox/fixtures';
import { startTestApp, testConfig } from '../testing/test-app';
import { signUp, testPhone } from '../testing/identity';
import { collectSse } from '../testing/sse';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let base: string;
beforeAll(async () => {
  ctx = await startTestApp({
    // Small enough for one test to pass it: 'refuses a payer past their searches per minute'.
    rateLimits: { accountSearchesPerPayer: { max: 8, windowMs: 60_000 } },
  });
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

async function payer(name = 'Adaeze Okafor') {
  const { token, user } = await signUp(ctx.app, testPhone(), name);
  return { token, payerId: user.userId };
}

async function search(token: string, q: string) {
  return ctx.app.inject({
    method: 'GET',
    url: `/api/accounts/search?by=bank&q=${q}&v=new`,
    headers: bearer(token),
  });
}

/** Searches and reads the validation's stream to its end. */
async function searchToEnd(token: string, q: string): Promise<TBankValidationEvent[]> {
  const started = await search(token, q);
  expect(started.statusCode).toBe(200);
  const body = started.json<{
    banks: { results: Array<{ validationId: string }> };
    stream: { ticket: string };
  }>();
  const validationId = body.banks.results[0]?.validationId ?? '';
  const { status, events } = await collectSse(
    base,
    `/api/events/bank-validation/${validationId}?ticket=${body.stream.ticket}`,
    (seen) =>
      seen.some(
        (e) =>
          e.event === 'bank_validation' && ['completed', 'failed'].includes(String(e.data.type)),
      ),
  );
  expect(status).toBe(200);
  const validation = events
    .filter((e) => e.event === 'bank_validation')
    .map((e) => e.data as TBankValidationEvent);
  for (const event of validation) expect(event.validationId).toBe(validationId);
  return validation;
}

/** Adds an account to a payer with an active mandate, as a completed link leaves it. */
async function linkedAccount(
  payerId: string,
  scenario: TAccountScenario,
  route: 'test_transfer' | 'card',
) {
  const account = fixture(scenario);
  const id = `acc_${randomBytes(8).toString('hex')}`;
  await ctx.database.db.insert(payerAccounts).values({
    id,
    payerId,
    institutionCode: account.institutionCode,
    accountNumber: account.accountNumber,
    accountName: account.accountName,
    bankName: SANDBOX_BANKS.find((b) => b.institutionCode === account.institutionCode)?.name ?? '',
  });
  await ctx.database.db.insert(accountLinks).values({
    id: `alk_${randomBytes(8).toString('hex')}`,
    payerId,
    accountId: id,
    route,
    state: 'active',
    expiresAt: new Date(Date.now() + 86_400_000),
    activatedAt: new Date(),
  });
  return id;
}

describe('GET /api/accounts/search and its bank-validation stream', () => {
  it('needs a signed-in payer', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/accounts/search?by=bank&q=${fixture('links_by_test_transfer').accountNumber}&v=new`,
    });
    expect(response.statusCode).toBe(401);
  });

  it('streams the account each bank holds under the number, with its holder and ways to link, then completed', async () => {
    const { token } = await payer();
    const account = fixture('links_by_test_transfer');
    const events = await searchToEnd(token, account.accountNumber);
    const results = events.flatMap((e) => (e.type === 'result' ? [e.account] : []));
    expect(results).toEqual([
      expect.objectContaining({
        accountNumber: account.accountNumber,
        accountName: account.accountName,
        institutionCode: account.institutionCode,
        bankName: 'Guaranty Trust Bank',
        logo: `/api/bank-logos/${account.institutionCode}`,
        nameEnquiryId: expect.any(String),
        isOyaUser: false,
        oyaUser: null,
        integrations: expect.objectContaining({
          transactionService: { possible: true, authorized: false, approved: false, linked: false },
        }),
      }),
    ]);
    expect(events.at(-1)?.type).toBe('completed');
  });

  it('finds a not-supported account with no way to link it', async () => {
    const { token } = await payer();
    const events = await searchToEnd(token, fixture('not_supported').accountNumber);
    const result = events.find((e) => e.type === 'result');
    expect(result?.type === 'result' && result.account.integrations).toEqual({});
  });

  it("ends with 'Failed to validate account' when no bank's check digit fits the number", async () => {
    const { token } = await payer();
    let number = 1_000_000_000;
    const fitsNoBank = (n: string) =>
      SANDBOX_BANKS.every((b) => !isValidNuban(b.institutionCode, n));
    while (!fitsNoBank(String(number))) number += 1;
    const events = await searchToEnd(token, String(number));
    expect(events).toEqual([
      expect.objectContaining({ type: 'failed', message: 'Failed to validate account' }),
    ]);
  });

  it('completes with no result when the check digit fits but no bank holds the account', async () => {
    const { token } = await payer();
    // A number of Guaranty Trust Bank's form that none of the sandbox's accounts has.
    let serial = 100_000_000;
    let number = '';
    while (!number || SANDBOX_ACCOUNTS.some((a) => a.accountNumber === number)) {
      serial += 1;
      number = `${serial}${nubanCheckDigit('058', String(serial))}`;
    }
    const events = await searchToEnd(token, number);
    expect(events.map((e) => e.type)).toEqual(['completed']);
  });

  it('names the field of a number that is not 10 digits', async () => {
    const { token } = await payer();
    const response = await search(token, '012345678');
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: { message: string } }>().error.message).toMatch(/\bq\b/);
  });

  it("opens a validation's stream only with the ticket its search gave", async () => {
    const { token } = await payer();
    const first = (await search(token, fixture('links_by_card').accountNumber)).json<{
      banks: { results: Array<{ validationId: string }> };
      stream: { ticket: string };
    }>();
    const second = (await search(token, fixture('paper_mandate').accountNumber)).json<{
      banks: { results: Array<{ validationId: string }> };
    }>();
    const other = second.banks.results[0]?.validationId ?? '';
    const { status } = await collectSse(
      base,
      `/api/events/bank-validation/${other}?ticket=${first.stream.ticket}`,
      () => true,
    );
    expect(status).toBe(401);
  });

  it('tells a payer which results they linked, and anyone else that the holder uses the product', async () => {
    const owner = await payer('Funmilayo Adebayo');
    await linkedAccount(owner.payerId, 'links_by_card', 'card');
    const number = fixture('links_by_card').accountNumber;

    const own = (await searchToEnd(owner.token, number)).find((e) => e.type === 'result');
    expect(own?.type === 'result' && own.account.integrations.card).toMatchObject({
      possible: true,
      linked: true,
    });

    const stranger = await payer('Tunde Bakare');
    const seen = (await searchToEnd(stranger.token, number)).find((e) => e.type === 'result');
    expect(seen?.type === 'result' && seen.account).toMatchObject({
      isOyaUser: true,
      oyaUser: { userId: owner.payerId, fullName: 'Funmilayo Adebayo' },
      integrations: { card: { possible: true, linked: false } },
    });
  });

  it('refuses a payer past their searches per minute with 429', async () => {
    const { token } = await payer();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      statuses.push(
        (await search(token, fixture('links_by_test_transfer').accountNumber)).statusCode,
      );
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(8);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('GET /api/accounts/user', () => {
  it('needs a signed-in payer: 401 makes the page clear its session (spec §6)', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/accounts/user' });
    expect(response.statusCode).toBe(401);
  });

  it("lists the payer's own accounts only, linked ones 'Approved'", async () => {
    const { token, payerId } = await payer();
    const empty = await ctx.app.inject({
      method: 'GET',
      url: '/api/accounts/user',
      headers: bearer(token),
    });
    expect(empty.json()).toEqual({ success: true, accounts: [] });

    const accountId = await linkedAccount(payerId, 'links_by_test_transfer', 'test_transfer');
    const other = await payer();
    await linkedAccount(other.payerId, 'links_by_auth_params', 'test_transfer');

    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/accounts/user?includeBvn=true',
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(200);
    const account = fixture('links_by_test_transfer');
    expect(response.json<{ accounts: unknown[] }>().accounts).toEqual([
      expect.objectContaining({
        accountId,
        accountNumber: account.accountNumber,
        accountName: account.accountName,
        institutionCode: account.institutionCode,
        linkStatus: 'approved',
        statusDetail: 'Approved',
        isAlreadyLinked: true,
        integrations: expect.objectContaining({
          transactionService: { possible: true, authorized: true, approved: true, linked: true },
        }),
      }),
    ]);
    // Its bank links no cards (docs/sandbox.md): the account has no card integration at all.
    const [listed] = response.json<{ accounts: Array<{ integrations: object }> }>().accounts;
    expect(listed?.integrations).not.toHaveProperty('card');
  });
});

describe('GET /api/bank-lookups/{institutionCode}', () => {
  it('answers the ways a bank links accounts', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/bank-lookups/011' });
    expect(response.statusCode).toBe(200);
    const bank = SANDBOX_BANKS.find((b) => b.institutionCode === '011');
    expect(response.json()).toEqual({
      success: true,
      bank: {
        integrations: Object.fromEntries(
          (bank?.integrations ?? []).map((k) => [k, { possible: true }]),
        ),
      },
    });
  });

  it('offers no way whose capability is off: without a mandate service, no paper mandate', async () => {
    const { capabilities } = ctx.context;
    const at = capabilities.findIndex((line) => line.capability === 'mandates');
    const was = capabilities[at];
    if (!was) throw new Error('No mandates capability line');
    capabilities[at] = {
      capability: 'mandates',
      state: 'off',
      adapter: null,
      providers: [],
      note: 'test',
    };
    try {
      // Bank 044 offers the transaction service and NIBSS's paper mandate (sandbox/fixtures.ts).
      const response = await ctx.app.inject({ method: 'GET', url: '/api/bank-lookups/044' });
      expect(response.json().bank.integrations).toEqual({ transactionService: { possible: true } });
    } finally {
      capabilities[at] = was;
    }
  });

  it('answers 404 for a code no bank has and 400 for one that is not a code', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/bank-lookups/999' })).statusCode).toBe(
      404,
    );
    const bad = await ctx.app.inject({ method: 'GET', url: '/api/bank-lookups/abc' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('DELETE /api/accounts/{id}', () => {
  it('does not exist while the debug flag is off', async () => {
    const { token, payerId } = await payer();
    const accountId = await linkedAccount(payerId, 'links_by_test_transfer', 'test_transfer');
    const response = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/accounts/${accountId}`,
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(404);
  });

  it("deletes the payer's own account, and no one else's, with the debug flag on", async () => {
    const debug = await buildApp({
      config: { ...testConfig(), debugRoutes: true },
      database: ctx.database,
      logger: false,
    });
    try {
      const { token, payerId } = await payer();
      const other = await payer();
      const own = await linkedAccount(payerId, 'links_by_test_transfer', 'test_transfer');
      const theirs = await linkedAccount(other.payerId, 'links_by_test_transfer', 'test_transfer');
      const remove = (id: string) =>
        debug.inject({ method: 'DELETE', url: `/api/accounts/${id}`, headers: bearer(token) });
      expect((await remove(theirs)).statusCode).toBe(404);
      const deleted = await remove(own);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ message: 'Account deleted' });
      expect((await remove(own)).statusCode).toBe(404);
      const left = await debug.inject({
        method: 'GET',
        url: '/api/accounts/user',
        headers: bearer(token),
      });
      expect(left.json()).toEqual({ success: true, accounts: [] });
    } finally {
      await debug.close();
    }
  });
});
