// Linking the account a transfer just paid from, by that payment (docs/accounts.md "Linking from a
// payment"): no second transfer, only for the payer who paid, only for the account the bank
// named as its sender, and only when that account is held under the payer's verified BVN, on the
// real routes and database (PGlite; on PostgreSQL too, the test of the payment's jsonb update).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accountLinks, payments, sandboxVirtualAccounts } from '../db/schema';
import type { TAccountScenario } from '../sandbox/fixtures';
import { mintPerson, ownPerson, type TSandboxPerson } from '../testing/bvn';
import { signUp, testPhone } from '../testing/identity';
import { consentWithPayment } from '../testing/payments';
import { useTestApp, testClock } from '../testing/test-app';

const clock = testClock('2027-05-10T09:00:00Z');
const ctx = useTestApp({ clock });

type TAccountKey = { accountNumber: string; institutionCode: string };

const keyOf = (a: TAccountKey) => ({
  accountNumber: a.accountNumber,
  institutionCode: a.institutionCode,
});

/** The person's account of `scenario`: its bank and number. */
function accountOf(person: TSandboxPerson, scenario: TAccountScenario): TAccountKey {
  const account = person.accounts.find((a) => a.scenario === scenario);
  if (!account) throw new Error(`No account of scenario ${scenario}`);
  return keyOf(account);
}

/**
 * A new payer who verified the BVN of a person of their own, and that person's account that
 * links by test transfer: the sender of the payments they pay.
 */
async function payer(name = 'Adaeze Okafor') {
  const { token, user } = await signUp(ctx.app, testPhone(), name);
  const person = await ownPerson(ctx.app, token);
  return {
    token,
    payerId: user.userId,
    person,
    sender: accountOf(person, 'links_by_test_transfer'),
  };
}

const post = (url: string, token: string | null, payload?: object) =>
  ctx.app.inject({
    method: 'POST',
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload ? { payload } : {}),
  });

type TOpened = {
  transferDetails: { accountNumber: string; amount: number };
  chargeToken?: string;
};

/** Opens the payment's one-time account: signed in (a token), or by the consent link. */
async function openTransfer(
  consent: { paymentId: string; consentId: string },
  who: { token: string } | { chargeToken?: string },
): Promise<TOpened> {
  const signedIn = 'token' in who;
  const opened = await post(
    `/api/payments/${consent.paymentId}/transfer${signedIn ? '' : `?consentId=${consent.consentId}`}`,
    signedIn ? who.token : null,
    !signedIn && who.chargeToken ? { chargeToken: who.chargeToken } : undefined,
  );
  expect(opened.statusCode, opened.body).toBe(200);
  return opened.json<TOpened>();
}

async function send(opened: TOpened, from: { accountNumber: string; institutionCode: string }) {
  const sent = await post('/api/sandbox/transfers', null, {
    accountNumber: opened.transferDetails.accountNumber,
    amount: opened.transferDetails.amount,
    from: keyOf(from),
  });
  expect(sent.json()).toMatchObject({ outcome: 'credited' });
}

/** A page without sign-in pays the payment by transfer from `from`: the token its page holds. */
async function paidAsGuest(from: TAccountKey) {
  const consent = await consentWithPayment(ctx.app, ctx.database);
  const opened = await openTransfer(consent, {});
  expect(opened.chargeToken).toMatch(/^cht_/);
  await send(opened, from);
  return { ...consent, chargeToken: opened.chargeToken };
}

const linkFromPayment = (
  token: string,
  paymentId: string,
  account?: TAccountKey,
  chargeToken?: string,
) =>
  post('/api/account-links/from-payment', token, {
    paymentId,
    ...(account ? keyOf(account) : {}),
    ...(chargeToken ? { chargeToken } : {}),
  });

const errorOf = (response: { json: () => unknown }) =>
  (response.json() as { error: { code: string } }).error.code;

const linksOf = (payerId: string) =>
  ctx.database.db.select().from(accountLinks).where(eq(accountLinks.payerId, payerId));

const oneTimeAccounts = async () =>
  (await ctx.database.db.select().from(sandboxVirtualAccounts)).length;

describe('linking the account a transfer paid from (POST /api/account-links/from-payment)', () => {
  it(
    'links it for the guest who paid, signed in since, with no second transfer',
    { tags: ['postgres'] },
    async () => {
      const { token, payerId, sender } = await payer();
      // Paid from the payer's own account on a page not signed in; they sign in afterwards.
      const guest = await paidAsGuest(sender);
      const opened = await oneTimeAccounts();
      // The page names only the payment (it sees the number masked): the sender is linked.
      const linked = await post('/api/account-links/from-payment', token, {
        paymentId: guest.paymentId,
        chargeToken: guest.chargeToken,
      });
      expect(linked.statusCode, linked.body).toBe(200);
      expect(linked.json()).toMatchObject({
        success: true,
        message: 'Your account has been linked and is ready for future payments.',
      });
      // Active at once: no one-time account for a test transfer, no test amount.
      expect(await linksOf(payerId)).toMatchObject([
        { route: 'test_transfer', state: 'active', testAmount: null, payInAccountNumber: null },
      ]);
      expect(await oneTimeAccounts()).toBe(opened);
      const accounts = await ctx.app.inject({
        url: '/api/accounts/user',
        headers: { authorization: `Bearer ${token}` },
      });
      const mine = accounts
        .json<{ accounts: Array<{ accountNumber: string; isAlreadyLinked?: boolean }> }>()
        .accounts.find((a) => a.accountNumber === sender.accountNumber);
      expect(mine).toMatchObject({ isAlreadyLinked: true });
      // The payment no longer offers its account for linking.
      const [payment] = await ctx.database.db
        .select({ origin: payments.origin })
        .from(payments)
        .where(eq(payments.id, guest.paymentId));
      expect(payment?.origin).toMatchObject({ shouldPromptBankAccountLinking: false });
      // Once: the account is linked.
      const again = await linkFromPayment(token, guest.paymentId, sender, guest.chargeToken);
      expect(again.statusCode).toBe(409);
      expect(errorOf(again)).toBe('ACCOUNT_ALREADY_LINKED');
    },
  );

  it('links it for the payer who paid while signed in', async () => {
    const { token, payerId, sender } = await payer();
    const consent = await consentWithPayment(ctx.app, ctx.database);
    await send(await openTransfer(consent, { token }), sender);
    const linked = await linkFromPayment(token, consent.paymentId);
    expect(linked.statusCode, linked.body).toBe(200);
    expect(await linksOf(payerId)).toMatchObject([{ state: 'active' }]);
  });

  it('is 404 to anyone else with the payment id: no token, a guessed one, another page’s', async () => {
    const holder = await mintPerson(ctx.app);
    const sender = accountOf(holder, 'links_by_test_transfer');
    const guest = await paidAsGuest(sender);
    const other = await paidAsGuest(sender);
    const stranger = await payer();
    for (const chargeToken of [undefined, 'cht_guessed', other.chargeToken]) {
      const refused = await linkFromPayment(stranger.token, guest.paymentId, sender, chargeToken);
      expect(refused.statusCode, String(chargeToken)).toBe(404);
      expect(errorOf(refused)).toBe('NOT_FOUND');
    }
    // Nor does a signed-in payer's payment open to another payer.
    const owner = await payer();
    const consent = await consentWithPayment(ctx.app, ctx.database);
    await send(await openTransfer(consent, { token: owner.token }), owner.sender);
    expect((await linkFromPayment(stranger.token, consent.paymentId)).statusCode).toBe(404);
    expect(await linksOf(stranger.payerId)).toEqual([]);
  });

  it('links only the account the bank named as sender', async () => {
    const { token, payerId, person, sender } = await payer();
    const guest = await paidAsGuest(sender);
    // Another account of the payer's own, which links by test transfer too, did not pay.
    const another = accountOf(person, 'insufficient_funds');
    const refused = await linkFromPayment(token, guest.paymentId, another, guest.chargeToken);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toBe('PAYMENT_NOT_PROOF_OF_ACCOUNT');
    expect(await linksOf(payerId)).toEqual([]);
  });

  it('proves nothing once its one-time account was handed to someone else', async () => {
    // Opened by one page, asked for by another without its token: either may have sent the money.
    const { token, payerId, sender } = await payer();
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const first = await openTransfer(consent, {});
    const second = await openTransfer(consent, {});
    expect(second.transferDetails.accountNumber).toBe(first.transferDetails.accountNumber);
    expect(second.chargeToken).toBeUndefined();
    await send(first, sender);
    const refused = await linkFromPayment(token, consent.paymentId, sender, first.chargeToken);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toBe('PAYMENT_NOT_PROOF_OF_ACCOUNT');
    expect(await linksOf(payerId)).toEqual([]);

    // Opened signed in, then asked for by the consent link: the same.
    const owner = await payer();
    const signedIn = await consentWithPayment(ctx.app, ctx.database);
    const opened = await openTransfer(signedIn, { token: owner.token });
    await openTransfer(signedIn, {});
    await send(opened, owner.sender);
    expect(errorOf(await linkFromPayment(owner.token, signedIn.paymentId))).toBe(
      'PAYMENT_NOT_PROOF_OF_ACCOUNT',
    );
  });

  it('is not shared by its own page asking again with its token', async () => {
    const { token, sender } = await payer();
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const first = await openTransfer(consent, {});
    await openTransfer(consent, { chargeToken: first.chargeToken });
    await send(first, sender);
    const linked = await linkFromPayment(token, consent.paymentId, sender, first.chargeToken);
    expect(linked.statusCode, linked.body).toBe(200);
  });

  it('leaves an account whose bank authorises its own mandates to the panel', async () => {
    const { token, payerId, person } = await payer();
    const mandated = accountOf(person, 'links_by_auth_params');
    const guest = await paidAsGuest(mandated);
    const refused = await linkFromPayment(token, guest.paymentId, mandated, guest.chargeToken);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused)).toBe('ACCOUNT_LINKS_BY_MANDATE');
    expect(await linksOf(payerId)).toEqual([]);
  });

  it('refuses a sender not held under the payer’s BVN, though its transfer paid: nothing linked', async () => {
    // A stranger pays on the payer's page (the page holds the token): money from an account
    // proves its holder sent it, not that the holder is this payer.
    const stranger = await mintPerson(ctx.app);
    const sender = accountOf(stranger, 'links_by_test_transfer');
    const verified = await payer();
    const paid = await paidAsGuest(sender);
    const notYours = await linkFromPayment(
      verified.token,
      paid.paymentId,
      sender,
      paid.chargeToken,
    );
    expect(notYours.statusCode).toBe(403);
    expect(notYours.json()).toEqual({
      success: false,
      error: { code: 'ACCOUNT_NOT_YOURS', message: 'This account is not registered to your BVN.' },
    });
    expect(await linksOf(verified.payerId)).toEqual([]);

    // A payer who verified no BVN is asked for one first.
    const unverified = await signUp(ctx.app, testPhone());
    const again = await paidAsGuest(sender);
    const noBvn = await linkFromPayment(
      unverified.token,
      again.paymentId,
      sender,
      again.chargeToken,
    );
    expect(noBvn.statusCode).toBe(403);
    expect(errorOf(noBvn)).toBe('BVN_NOT_VERIFIED');
    expect(await linksOf(unverified.user.userId)).toEqual([]);
  });

  it('needs a bearer token', async () => {
    const response = await post('/api/account-links/from-payment', null, {
      paymentId: 'pay_x',
      accountNumber: '0123456785',
      institutionCode: '058',
    });
    expect(response.statusCode).toBe(401);
  });
});
