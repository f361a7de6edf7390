// The payer's BVN and ownership by it (docs/identity.md "The BVN", docs/accounts.md "Ownership"):
// a code the BVN registry sends to the contact the payer picks among its masked hints verifies it,
// one BVN belongs to one payer, and an account links and debits only when its holder's BVN is the
// payer's verified BVN. Each verification is billed by the registry: counted per payer and per
// BVN before it is asked, its sends limited, BVN_TAKEN said only to whoever proved the code. On the real routes and
// database (PGlite; on PostgreSQL too, the unique BVN's test), with the probe's cases of a
// stranger's account: paid into a one-time account the attacker opened, and sent a test transfer.
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { BVN_CODE_SENDS_PER_VERIFICATION, BVN_CODES_PER_PAYER_PER_HOUR } from '../../domain/bvn';
import { accountLinks, bvnCodes, payers } from '../db/schema';
import { DEFAULT_RATE_LIMITS } from '../rate-limits';
import { SANDBOX_ACCOUNTS, SANDBOX_PEOPLE } from '../sandbox/fixtures';
import { DEMO_PAYER, seedDemo } from '../services/demo/demo-seed';
import {
  mintPerson,
  ownPerson,
  requestBvnCode,
  sendBvnCodeBy,
  startBvnVerification,
  submitBvnCode,
  verifyBvn,
  type TSandboxPerson,
} from '../testing/bvn';
import {
  addPasskey,
  codeSession,
  latestCode,
  oneTapGrant,
  provenPayer,
  signedUpPayer,
  softAuthenticatorFor,
} from '../testing/identity';
import { consentWithPayment, linkByTestTransfer, sandboxTransfer } from '../testing/payments';
import { expectRateLimited } from '../testing/rate-limits';
import { testClock, useTestApp } from '../testing/test-app';
import { usable } from '../providers/off';

const clock = testClock('2027-05-10T09:00:00Z');
const logLines: string[] = [];
const ctx = useTestApp({
  clock,
  // The BVN's own limit as deployed: no test here asks for one BVN more often than it allows.
  rateLimits: { bvnCodesPerBvn: DEFAULT_RATE_LIMITS.bvnCodesPerBvn },
  logger: true,
  env: { LOG_LEVEL: 'trace' },
  logStream: new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  }),
});

const post = (url: string, token: string | null, payload?: object) =>
  ctx.app.inject({
    method: 'POST',
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload ? { payload } : {}),
  });

const errorOf = (response: { json: () => unknown }) =>
  (response.json() as { error?: { code: string; message: string } }).error;

/** Opens a link of `account` for the payer of `token`: the server's answer. */
const createLink = (
  token: string,
  account: { accountNumber: string; institutionCode: string; accountName: string },
) =>
  post('/api/account-links/create', token, {
    accountNumber: account.accountNumber,
    institutionCode: account.institutionCode,
    accountName: account.accountName,
    bankName: 'Any Bank',
  });

const accountOf = (person: TSandboxPerson, scenario: string) => {
  const account = person.accounts.find((a) => a.scenario === scenario);
  if (!account) throw new Error(`no ${scenario} account`);
  return account;
};

describe('verifying a BVN', () => {
  it('has the registry send its code the way chosen, to the phone the BVN is registered with, and records the BVN', async () => {
    const payer = await signedUpPayer(ctx.app, 'Chukwuemeka Eze');
    // Chukwuemeka Eze's BVN is registered to an old line (docs/sandbox.md).
    const person = SANDBOX_PEOPLE.find((p) => p.phoneNumber !== p.signInPhone);
    if (!person) throw new Error('the sandbox has a BVN registered to another phone');
    const opened = await startBvnVerification(ctx.app, payer.token, person.bvn);
    expect(opened.statusCode, opened.body).toBe(200);
    const national = `0${person.phoneNumber.slice(4)}`;
    expect(opened.json()).toEqual({
      success: true,
      expiresAt: new Date(clock.now().getTime() + 10 * 60_000).toISOString(),
      codeSender: 'sandbox',
      methods: [{ id: 'phone', hint: `SMS to ${national.slice(0, 4)}***${national.slice(-4)}` }],
    });
    // The hint is the registry's, masked: the page never sees the phone.
    expect(opened.body).not.toContain(person.phoneNumber.slice(-7));
    const sent = await sendBvnCodeBy(ctx.app, payer.token, 'phone');
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({
      success: true,
      message: `The sandbox BVN registry sent a 6-digit code the way you chose: SMS to ${national.slice(0, 4)}***${national.slice(-4)}`,
    });
    const code = await latestCode(ctx.app, person.phoneNumber);

    const verified = await submitBvnCode(ctx.app, payer.token, code);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({
      success: true,
      bvn: { last4: person.bvn.slice(-4) },
    });
    const status = await ctx.app.inject({
      method: 'GET',
      url: '/api/identity/bvn',
      headers: payer.headers,
    });
    expect(status.json()).toMatchObject({ bvn: { last4: person.bvn.slice(-4) } });
    expect(JSON.stringify(status.json())).not.toContain(person.bvn);

    // Never kept nor logged in clear.
    const [row] = await ctx.database.db.select().from(payers).where(eq(payers.id, payer.userId));
    expect(row?.bvnHash).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(person.bvn);
    const codes = await ctx.database.db.select().from(bvnCodes);
    expect(JSON.stringify(codes)).not.toContain(person.bvn);
    expect(logLines.join('')).not.toContain(person.bvn);
  });

  it('answers a payer with no verified BVN with none', async () => {
    const payer = await signedUpPayer(ctx.app);
    const status = await ctx.app.inject({
      method: 'GET',
      url: '/api/identity/bvn',
      headers: payer.headers,
    });
    expect(status.json()).toEqual({ success: true, bvn: null });
  });

  it('refuses a BVN that is not 11 digits', async () => {
    const payer = await signedUpPayer(ctx.app);
    const malformed = await requestBvnCode(ctx.app, payer.token, '2220000001');
    expect(malformed.statusCode).toBe(400);
    expect(errorOf(malformed)).toEqual({ code: 'BVN_INVALID', message: 'Enter your 11-digit BVN' });
  });

  it('says at once that the registry holds no such BVN, and counts the ask all the same', async () => {
    const payer = await signedUpPayer(ctx.app);
    const unknown = await startBvnVerification(ctx.app, payer.token, '29999999999');
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)?.code).toBe('BVN_NOT_FOUND');
    const rows = await ctx.database.db
      .select()
      .from(bvnCodes)
      .where(eq(bvnCodes.payerId, payer.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.supersededAt).not.toBeNull();
    // Nothing to send a code for.
    const send = await sendBvnCodeBy(ctx.app, payer.token, 'phone');
    expect(send.statusCode).toBe(400);
    expect(errorOf(send)?.code).toBe('PHONE_CODE_NOT_FOUND');
  });

  it('sends only a way the registry offered, and at most 3 codes a verification', async () => {
    const person = await mintPerson(ctx.app);
    const payer = await signedUpPayer(ctx.app);
    expect((await startBvnVerification(ctx.app, payer.token, person.bvn)).statusCode).toBe(200);
    const elsewhere = await sendBvnCodeBy(ctx.app, payer.token, 'email');
    expect(elsewhere.statusCode).toBe(400);
    expect(errorOf(elsewhere)?.code).toBe('BVN_METHOD_UNKNOWN');
    for (let i = 0; i < BVN_CODE_SENDS_PER_VERIFICATION; i += 1) {
      expect((await sendBvnCodeBy(ctx.app, payer.token, 'phone')).statusCode).toBe(200);
    }
    const more = await sendBvnCodeBy(ctx.app, payer.token, 'phone');
    expect(more.statusCode).toBe(429);
    expect(errorOf(more)?.code).toBe('PHONE_CODE_LOCKED');
    // The newest code is the right one.
    const verified = await submitBvnCode(
      ctx.app,
      payer.token,
      await latestCode(ctx.app, person.phoneNumber),
    );
    expect(verified.statusCode, verified.body).toBe(200);
  });

  it('answers 502 when the registry does not answer, and gives the try back', async () => {
    const person = await mintPerson(ctx.app);
    const payer = await signedUpPayer(ctx.app);
    expect((await requestBvnCode(ctx.app, payer.token, person.bvn)).statusCode).toBe(200);
    const registry = vi
      .spyOn(usable(ctx.context.providers.payments.bvn), 'finishVerification')
      .mockRejectedValueOnce(new Error('connect ETIMEDOUT'));
    try {
      const down = await submitBvnCode(ctx.app, payer.token, '123456');
      expect(down.statusCode).toBe(502);
      expect(errorOf(down)?.code).toBe('BVN_REGISTRY_UNAVAILABLE');
    } finally {
      registry.mockRestore();
    }
    const [row] = await ctx.database.db
      .select({ wrongTries: bvnCodes.wrongTries })
      .from(bvnCodes)
      .where(eq(bvnCodes.payerId, payer.userId));
    expect(row?.wrongTries).toBe(0);
  });

  it(
    'gives one BVN to one payer, and says it is taken only to whoever proved the code',
    { tags: ['postgres'] },
    async () => {
      const person = await mintPerson(ctx.app);
      const first = await signedUpPayer(ctx.app);
      const second = await signedUpPayer(ctx.app);
      // Both ask before either verifies: the unique BVN decides at verification.
      expect((await requestBvnCode(ctx.app, first.token, person.bvn)).statusCode).toBe(200);
      const firstCode = await latestCode(ctx.app, person.phoneNumber);
      expect((await requestBvnCode(ctx.app, second.token, person.bvn)).statusCode).toBe(200);
      const secondCode = await latestCode(ctx.app, person.phoneNumber);
      expect((await submitBvnCode(ctx.app, first.token, firstCode)).statusCode).toBe(200);
      const late = await submitBvnCode(ctx.app, second.token, secondCode);
      expect(late.statusCode).toBe(409);
      expect(errorOf(late)?.code).toBe('BVN_TAKEN');
      // Asked again once it is taken: a verification like any; whoever proves the code is told.
      const asked = await requestBvnCode(ctx.app, second.token, person.bvn);
      expect(asked.statusCode).toBe(200);
      const proven = await submitBvnCode(
        ctx.app,
        second.token,
        await latestCode(ctx.app, person.phoneNumber),
      );
      expect(proven.statusCode).toBe(409);
      expect(errorOf(proven)?.code).toBe('BVN_TAKEN');
    },
  );

  it('counts wrong codes: 5 tries, then even the right code is refused', async () => {
    const person = await mintPerson(ctx.app);
    const payer = await signedUpPayer(ctx.app);
    expect((await requestBvnCode(ctx.app, payer.token, person.bvn)).statusCode).toBe(200);
    const right = await latestCode(ctx.app, person.phoneNumber);
    const wrong = right === '000000' ? '111111' : '000000';
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await submitBvnCode(ctx.app, payer.token, wrong));
    expect(answers.map((a) => a.statusCode)).toEqual([400, 400, 400, 400, 429]);
    expect(errorOf(answers[0]!)?.message).toBe('That code is not correct. 4 tries left.');
    const locked = await submitBvnCode(ctx.app, payer.token, right);
    expect(locked.statusCode).toBe(429);
    expect(errorOf(locked)?.code).toBe('PHONE_CODE_LOCKED');
  });

  it('limits the verifications a payer may open in an hour, whether the registry knows the BVNs or not', async () => {
    const payer = await signedUpPayer(ctx.app);
    for (let i = 0; i < BVN_CODES_PER_PAYER_PER_HOUR; i += 1) {
      const known = i % 2 === 1;
      const bvn = known ? (await mintPerson(ctx.app)).bvn : `2999999990${i}`;
      expect((await startBvnVerification(ctx.app, payer.token, bvn)).statusCode).toBe(
        known ? 200 : 404,
      );
    }
    const refused = await requestBvnCode(ctx.app, payer.token, (await mintPerson(ctx.app)).bvn);
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused)?.code).toBe('PHONE_CODE_RATE_LIMITED');
  });

  it('limits the codes asked for one BVN, from any payer and address, whether the registry knows it or not', async () => {
    const { max, windowMs } = DEFAULT_RATE_LIMITS.bvnCodesPerBvn;
    const askers = [];
    for (let i = 0; i <= max; i += 1) askers.push(await signedUpPayer(ctx.app));
    for (const [n, bvn] of [(await mintPerson(ctx.app)).bvn, '29999999990'].entries()) {
      const ask = (token: string, i: number) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/identity/bvn',
          remoteAddress: `10.41.${n}.${i}`,
          headers: { authorization: `Bearer ${token}` },
          payload: { bvn },
        });
      for (let i = 0; i < max; i += 1) {
        expect((await ask(askers[i]!.token, i)).statusCode, `ask ${i + 1}`).toBe(
          n === 0 ? 200 : 404,
        );
      }
      expectRateLimited(await ask(askers[max]!.token, max), windowMs);
    }
  });

  it('replaces a verified BVN only in a session a trusted passkey proved', async () => {
    const payer = await provenPayer(ctx.app, ctx.config);
    await verifyBvn(ctx.app, payer.token, await mintPerson(ctx.app));
    const phone = await ctx.database.db
      .select({ phone: payers.phoneNumber })
      .from(payers)
      .where(eq(payers.id, payer.userId));
    const byCode = await codeSession(ctx.app, phone[0]!.phone);
    const other = await mintPerson(ctx.app);
    const refused = await requestBvnCode(ctx.app, byCode, other.bvn);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)?.code).toBe('PASSKEY_PROOF_REQUIRED');
    // The passkey's session may.
    await verifyBvn(ctx.app, payer.token, other);
    const [row] = await ctx.database.db
      .select({ last4: payers.bvnLast4 })
      .from(payers)
      .where(eq(payers.id, payer.userId));
    expect(row?.last4).toBe(other.bvn.slice(-4));
  });
});

describe('linking only the payer’s own accounts', () => {
  it('asks a payer with no verified BVN to verify one first', async () => {
    const payer = await signedUpPayer(ctx.app);
    const person = await mintPerson(ctx.app);
    const refused = await createLink(payer.token, accountOf(person, 'links_by_test_transfer'));
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)?.code).toBe('BVN_NOT_VERIFIED');
  });

  it('refuses a stranger’s account by every route, saying why', async () => {
    const payer = await signedUpPayer(ctx.app);
    await ownPerson(ctx.app, payer.token);
    const stranger = await mintPerson(ctx.app);
    for (const scenario of ['links_by_test_transfer', 'links_by_auth_params', 'paper_mandate']) {
      const refused = await createLink(payer.token, accountOf(stranger, scenario));
      expect(refused.statusCode, scenario).toBe(403);
      expect(errorOf(refused), scenario).toEqual({
        code: 'ACCOUNT_NOT_YOURS',
        message: 'This account is not registered to your BVN.',
      });
    }
    const links = await ctx.database.db
      .select()
      .from(accountLinks)
      .where(eq(accountLinks.payerId, payer.userId));
    expect(links).toEqual([]);
  });

  it('links the payer’s own account and records the BVN it was made under', async () => {
    const payer = await signedUpPayer(ctx.app);
    await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
    const [link] = await ctx.database.db
      .select()
      .from(accountLinks)
      .where(eq(accountLinks.payerId, payer.userId));
    const [row] = await ctx.database.db.select().from(payers).where(eq(payers.id, payer.userId));
    expect(link?.state).toBe('active');
    expect(link?.bvnHash).toBe(row?.bvnHash);
  });

  it('probe: a stranger who pays into the one-time account the attacker opened does not get linked', async () => {
    const attacker = await signedUpPayer(ctx.app);
    await ownPerson(ctx.app, attacker.token);
    const victim = await mintPerson(ctx.app);
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const opened = await post(`/api/payments/${consent.paymentId}/transfer`, attacker.token);
    expect(opened.statusCode, opened.body).toBe(200);
    const details = opened.json<{ transferDetails: { accountNumber: string; amount: number } }>()
      .transferDetails;
    const from = accountOf(victim, 'links_by_test_transfer');
    const sent = await sandboxTransfer(ctx.app, {
      accountNumber: details.accountNumber,
      amount: details.amount,
      from: { accountNumber: from.accountNumber, institutionCode: from.institutionCode },
    });
    expect(sent.json()).toMatchObject({ outcome: 'credited' });

    const linked = await post('/api/account-links/from-payment', attacker.token, {
      paymentId: consent.paymentId,
    });
    expect(linked.statusCode).toBe(403);
    expect(errorOf(linked)?.code).toBe('ACCOUNT_NOT_YOURS');
    const links = await ctx.database.db
      .select()
      .from(accountLinks)
      .where(eq(accountLinks.payerId, attacker.userId));
    expect(links).toEqual([]);
  });

  it('probe: a test transfer the stranger was talked into sending links nothing', async () => {
    const attacker = await signedUpPayer(ctx.app);
    await ownPerson(ctx.app, attacker.token);
    const victim = await mintPerson(ctx.app);
    // The link is refused before any one-time account is opened for the stranger to pay.
    const refused = await createLink(attacker.token, accountOf(victim, 'links_by_test_transfer'));
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)?.code).toBe('ACCOUNT_NOT_YOURS');
  });

  it('a link made before BVNs were checked debits nothing until the payer verifies the BVN it is under', async () => {
    const payer = await signedUpPayer(ctx.app);
    const soft = softAuthenticatorFor(ctx.config);
    await addPasskey(ctx.app, payer.token, soft);
    const accountId = await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
    // As the migration left every link made before: no BVN recorded, and none verified.
    await ctx.database.db
      .update(accountLinks)
      .set({ bvnHash: null })
      .where(eq(accountLinks.payerId, payer.userId));
    const person = await ownPerson(ctx.app, payer.token);
    await ctx.database.db
      .update(payers)
      .set({ bvnHash: null, bvnSealed: null, bvnLast4: null, bvnVerifiedAt: null })
      .where(eq(payers.id, payer.userId));

    // The account's row says why (account-row.ts says what to do about it).
    const holdOf = async () => {
      const read = await ctx.app.inject({
        method: 'GET',
        url: '/api/accounts/user',
        headers: payer.headers,
      });
      expect(read.statusCode, read.body).toBe(200);
      const accounts = read.json<{ accounts: Array<{ bankId: string; bvnHold?: string | null }> }>()
        .accounts;
      return accounts.find((a) => a.bankId === accountId)?.bvnHold;
    };
    expect(await holdOf()).toBe('bvn_unverified');

    const consent = await consentWithPayment(ctx.app, ctx.database);
    const refused = await oneTapGrant(ctx.app, { ...payer, soft }, consent.consentId, accountId);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)?.code).toBe('BVN_NOT_VERIFIED');

    await verifyBvn(ctx.app, payer.token, person);
    expect(await holdOf()).toBeNull();
    const paid = await oneTapGrant(ctx.app, { ...payer, soft }, consent.consentId, accountId);
    expect(paid.statusCode, paid.body).toBe(200);
  });

  it('lists the accounts under the payer’s BVN as linkable, none before one is verified', async () => {
    const payer = await signedUpPayer(ctx.app);
    const before = await ctx.app.inject({
      method: 'GET',
      url: '/api/accounts/bvn',
      headers: payer.headers,
    });
    expect(before.json()).toEqual({ success: true, accounts: [] });
    const person = await ownPerson(ctx.app, payer.token);
    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/api/accounts/bvn',
      headers: payer.headers,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const accounts = listed.json<{
      accounts: Array<{ accountNumber: string; accountName: string; ownership: string }>;
    }>().accounts;
    expect(accounts.map((a) => a.accountNumber).sort()).toEqual(
      person.accounts.map((a) => a.accountNumber).sort(),
    );
    expect(new Set(accounts.map((a) => a.ownership))).toEqual(new Set(['yours']));
  });

  it('lists the demo payer’s accounts under her BVN, as the seed verified it', async () => {
    await seedDemo(ctx.database.db, ctx.config, clock.now());
    const token = await codeSession(ctx.app, DEMO_PAYER.phone);
    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/api/accounts/bvn',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const bvn = SANDBOX_PEOPLE.find((person) => person.fullName === DEMO_PAYER.fullName)?.bvn;
    expect(
      listed
        .json<{ accounts: Array<{ accountNumber: string }> }>()
        .accounts.map((a) => a.accountNumber)
        .sort(),
    ).toEqual(
      SANDBOX_ACCOUNTS.filter((a) => a.bvn === bvn)
        .map((a) => a.accountNumber)
        .sort(),
    );
  });
});
