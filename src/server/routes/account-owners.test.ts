// Owners of accounts by the BVN registry (services/linking/account-owners.ts,
// docs/providers/mono.md "Owners of accounts"): with BVN_REGISTRY=mono (on its simulator) an
// account links only when Mono's account-number lookup answers the payer's verified BVN, whatever
// the bank's name enquiry says; each account is looked up once (the answer kept by its BVN's keyed
// hash), only when the payer asks to link it, within the payer's and the address's limits. The
// rails share one check (account-owners.ts): a link by transfer and a card link are tried here.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBankValidationEvent } from '../../domain/schemas/user-account';
import { accountOwnerLookups, payerAccounts, payers } from '../db/schema';
import { nipCodeOf } from '../providers/mono/mono-bank-codes';
import {
  startMonoSimulator,
  type TMonoPerson,
  type TMonoSimulator,
} from '../testing/mono-simulator/mono-simulator';
import { signedUpPayer, type TSignedUpPayer } from '../testing/identity';
import { encryptedCard, sandboxTransfer } from '../testing/payments';
import { expectRateLimited } from '../testing/rate-limits';
import {
  mintPerson,
  personAccount,
  personCard,
  type TMintedPerson,
} from '../testing/sandbox-people';
import { collectSse } from '../testing/sse';
import { startTestApp } from '../testing/test-app';

const LOOKUPS_PER_PAYER = { max: 4, windowMs: 60 * 60_000 };

let mono: TMonoSimulator;
let ctx: Awaited<ReturnType<typeof startTestApp>>;
let base: string;
beforeAll(async () => {
  mono = await startMonoSimulator();
  ctx = await startTestApp({
    env: { BVN_REGISTRY: 'mono', MONO_SECRET_KEY: mono.secretKey, MONO_BASE_URL: mono.url },
    rateLimits: { ownerLookupsPerPayer: LOOKUPS_PER_PAYER },
  });
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await ctx.close();
  await mono.close();
});

let bvnSeq = 0;
/** A BVN of NIBSS's (Mono's) that the sandbox's banks know nothing of. */
const newBvn = () => `229${String(Date.now()).slice(-6)}${String(bvnSeq++).padStart(2, '0')}`;

/**
 * A person NIBSS holds (on Mono's simulator) with `accounts` under their BVN: sandbox accounts,
 * whose banks' name enquiry names another BVN (the sandbox person minted with them).
 */
function monoPerson(accounts: TMintedPerson['accounts']): TMonoPerson {
  const person: TMonoPerson = {
    bvn: newBvn(),
    firstName: 'Ngozi',
    middleName: null,
    lastName: 'Obi',
    dob: '1991-04-12',
    phone: `0803${String(Date.now()).slice(-7)}`,
    email: null,
    accounts: accounts.map((a) => ({
      nipCode: nipCodeOf(a.institutionCode) ?? '',
      bankCode: a.institutionCode,
      accountNumber: a.accountNumber,
      name: a.accountName,
    })),
  };
  mono.addPerson(person);
  return person;
}

const post = (url: string, payer: TSignedUpPayer, payload: object) =>
  ctx.app.inject({ method: 'POST', url, headers: payer.headers, payload });

/** The payer proves `person`'s BVN through NIBSS's code (Mono's simulator). */
async function verifyAtMono(payer: TSignedUpPayer, person: TMonoPerson) {
  const opened = await post('/api/identity/bvn', payer, { bvn: person.bvn });
  expect(opened.statusCode, opened.body).toBe(200);
  const sent = await post('/api/identity/bvn/code', payer, { method: 'phone' });
  expect(sent.statusCode, sent.body).toBe(200);
  const code = mono.sentCodes.at(-1)?.code ?? '';
  const verified = await post('/api/identity/bvn/verify', payer, { code });
  expect(verified.statusCode, verified.body).toBe(200);
}

const link = (payer: TSignedUpPayer, account: TMintedPerson['accounts'][number]) =>
  post('/api/account-links/create', payer, {
    accountNumber: account.accountNumber,
    institutionCode: account.institutionCode,
    accountName: account.accountName,
    bankName: 'Any Bank',
  });

/** How many account-number lookups Mono billed for `accountNumber`. */
const lookupsOf = (accountNumber: string) =>
  mono.requests.filter(
    (r) =>
      r.path === '/v3/lookup/account-number' &&
      (r.body as { account_number?: string }).account_number === accountNumber,
  ).length;

/** A payer whose BVN Mono proved, holding there the sandbox accounts of a person minted now. */
async function payerWithOwnAccounts() {
  const payer = await signedUpPayer(ctx.app);
  const minted = await mintPerson(ctx.app);
  const person = monoPerson(minted.accounts);
  await verifyAtMono(payer, person);
  return { payer, own: personAccount(minted, 'links_by_test_transfer') };
}

describe('an account’s owner by Mono’s account-number lookup', () => {
  it('links the payer’s own account, held under their BVN at NIBSS though the bank names another', async () => {
    const { payer, own } = await payerWithOwnAccounts();
    const created = await link(payer, own);
    expect(created.statusCode, created.body).toBe(200);
    expect(lookupsOf(own.accountNumber)).toBe(1);
    const payIn = created.json<{
      accountLink: { payInDetails: { accountNumber: string; amount: number } };
    }>().accountLink.payInDetails;
    const sent = await sandboxTransfer(ctx.app, {
      accountNumber: payIn.accountNumber,
      amount: payIn.amount,
      from: { institutionCode: own.institutionCode, accountNumber: own.accountNumber },
    });
    expect(sent.json()).toMatchObject({ outcome: 'credited' });
    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/api/accounts/user',
      headers: payer.headers,
    });
    expect(
      listed
        .json<{ accounts: Array<{ accountNumber: string; linkStatus: string | null }> }>()
        .accounts.find((a) => a.accountNumber === own.accountNumber),
    ).toMatchObject({ linkStatus: 'approved' });
    // The account is held under the payer's BVN as Mono said: its keyed hash, never the BVN.
    const [row] = await ctx.database.db
      .select({ account: payerAccounts.bvnHash, payer: payers.bvnHash })
      .from(payerAccounts)
      .innerJoin(payers, eq(payers.id, payerAccounts.payerId))
      .where(eq(payerAccounts.accountNumber, own.accountNumber));
    expect(row?.account).toBe(row?.payer);
    const [kept] = await ctx.database.db
      .select()
      .from(accountOwnerLookups)
      .where(eq(accountOwnerLookups.accountNumber, own.accountNumber));
    expect(kept?.ownerBvnHash).toBe(row?.payer);
  });

  it('refuses a stranger’s account, and one Mono names no owner of, asking Mono once for each', async () => {
    const { payer } = await payerWithOwnAccounts();
    const stranger = await mintPerson(ctx.app);
    monoPerson(stranger.accounts);
    const theirs = personAccount(stranger, 'links_by_test_transfer');
    const unknown = personAccount(await mintPerson(ctx.app), 'links_by_test_transfer');
    for (const account of [theirs, unknown]) {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const refused = await link(payer, account);
        expect(refused.statusCode, refused.body).toBe(403);
        expect(refused.json()).toMatchObject({ error: { code: 'ACCOUNT_NOT_YOURS' } });
      }
      expect(lookupsOf(account.accountNumber)).toBe(1);
    }
  });

  it('links a card to the payer’s own account only, by Mono’s owner of the account', async () => {
    const payer = await signedUpPayer(ctx.app);
    const minted = await mintPerson(ctx.app);
    await verifyAtMono(payer, monoPerson(minted.accounts));
    const stranger = await mintPerson(ctx.app);
    monoPerson(stranger.accounts);
    const cardLink = async (card: ReturnType<typeof personCard>) =>
      post('/api/payments/card', payer, {
        saveCard: true,
        saveToAccount: card.account,
        cardDetails: await encryptedCard(ctx.app, card),
      });
    const theirs = personCard(stranger, 'pin_only');
    const refused = await cardLink(theirs);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'ACCOUNT_NOT_YOURS' } });
    expect(lookupsOf(theirs.account.accountNumber)).toBe(1);
    const mine = personCard(minted, 'pin_only');
    const linked = await cardLink(mine);
    expect(linked.statusCode, linked.body).toBe(200);
    expect(lookupsOf(mine.account.accountNumber)).toBe(1);
  });

  it('asks Mono nothing for a payer with no verified BVN', async () => {
    const payer = await signedUpPayer(ctx.app);
    const account = personAccount(await mintPerson(ctx.app), 'links_by_test_transfer');
    const refused = await link(payer, account);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'BVN_NOT_VERIFIED' } });
    expect(lookupsOf(account.accountNumber)).toBe(0);
  });

  it('says Mono’s failure, keeping no answer, so the payer may try again', async () => {
    const { payer, own } = await payerWithOwnAccounts();
    mono.failNext(503);
    const failed = await link(payer, own);
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({ error: { code: 'BVN_REGISTRY_UNAVAILABLE' } });
    expect((await link(payer, own)).statusCode).toBe(200);
  });

  it('looks nothing up for an account search: what is not known yet is checked when linked', async () => {
    const { payer, own } = await payerWithOwnAccounts();
    const started = await ctx.app.inject({
      method: 'GET',
      url: `/api/accounts/search?by=bank&q=${own.accountNumber}&v=new`,
      headers: payer.headers,
    });
    expect(started.statusCode, started.body).toBe(200);
    const body = started.json<{
      banks: { results: Array<{ validationId: string }> };
      stream: { ticket: string };
    }>();
    const { events } = await collectSse(
      base,
      `/api/events/bank-validation/${body.banks.results[0]?.validationId ?? ''}?ticket=${body.stream.ticket}`,
      (seen) =>
        seen.some(
          (e) =>
            e.event === 'bank_validation' && ['completed', 'failed'].includes(String(e.data.type)),
        ),
    );
    const found = events
      .filter((e) => e.event === 'bank_validation')
      .map((e) => e.data as TBankValidationEvent)
      .flatMap((e) => (e.type === 'result' ? [e.account] : []))
      .find((a) => a.institutionCode === own.institutionCode);
    expect(found?.ownership).toBe('to_check');
    expect(lookupsOf(own.accountNumber)).toBe(0);
  });

  it('counts lookups per payer: past the limit 429, and an account already known asks nothing', async () => {
    const { payer, own } = await payerWithOwnAccounts();
    expect((await link(payer, own)).statusCode).toBe(200);
    // The verification's adoption asked nothing (no link before BVNs): one lookup so far.
    const others = await Promise.all(
      [1, 2, 3, 4].map(async () =>
        personAccount(await mintPerson(ctx.app), 'links_by_auth_params'),
      ),
    );
    for (const account of others.slice(0, LOOKUPS_PER_PAYER.max - 1)) {
      expect((await link(payer, account)).statusCode).toBe(403);
    }
    const past = others[LOOKUPS_PER_PAYER.max - 1];
    if (!past) throw new Error('no account past the limit');
    expectRateLimited(await link(payer, past), LOOKUPS_PER_PAYER.windowMs);
    expect(lookupsOf(past.accountNumber)).toBe(0);
    // Known already (kept): asked nothing, so counted nothing.
    const known = others[0];
    if (!known) throw new Error('no account looked up');
    expect((await link(payer, known)).statusCode).toBe(403);
    expect(lookupsOf(known.accountNumber)).toBe(1);
  });
});
