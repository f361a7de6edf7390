// The server with MANDATE_PROVIDER=remita (on the Remita simulator): beside a live Paystack key
// its mandates capability is on, Remita's; and with the sandbox network, a payer's account links
// by Remita's mandate (the bank's OTP and the card's last 4 digits), a future payment granted on
// it is collected on its due date through Remita, once, and the sandbox bank debits nothing.
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import type { TDatabase } from '../../db/database';
import {
  accountLinks,
  futurePaymentAccounts,
  futurePaymentCollections,
  merchantEvents,
  payments,
} from '../../db/schema';
import { errorBody } from '../../../domain/errors';
import { revocationSigningMessage } from '../../../domain/schemas/payer-consents';
import { listOutbox } from '../../services/identity/sms-outbox';
import { cancelFuturePayments } from '../../services/consents/payer-consents';
import { STOP_MANDATE_JOB } from '../../services/linking/own-mandates';
import { runCollections } from '../../services/payments/collection-runner';
import {
  MAX_COLLECTION_CLAIMS,
  STALE_COLLECTION_MS,
} from '../../services/payments/future-collections';
import { ownAccount } from '../../testing/bvn';
import { REMITA_DEBIT_PENDING_MS } from './remita-debits';
import { testHostResolver } from '../../testing/host-resolver';
import { codeSession, payerWithPasskey, signedGrant } from '../../testing/identity';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../testing/paystack-simulator/paystack-simulator';
import { ledgerKinds, sandboxBalanceOf } from '../../testing/payments';
import {
  remitaSimulatorEnv,
  startRemitaSimulator,
  type TRemitaSimulator,
} from '../../testing/remita-simulator/remita-simulator';
import {
  createTestClient,
  openTestDatabase,
  RELAXED_RATE_LIMITS,
  testClock,
  testConfig,
  useTestApp,
} from '../../testing/test-app';

const DAY = 24 * 60 * 60 * 1_000;

let remita: TRemitaSimulator;
const remitaEnv = () => remitaSimulatorEnv(remita);

beforeAll(async () => {
  remita = await startRemitaSimulator();
});
afterAll(async () => {
  await remita.close();
});

describe('a live Paystack key with MANDATE_PROVIDER=remita', () => {
  let paystack: TPaystackSimulator;
  let database: TDatabase;
  let app: FastifyInstance;
  const LIVE_KEY = 'sk_live_simulated0000000000000000';
  beforeAll(async () => {
    paystack = await startPaystackSimulator({ secretKey: LIVE_KEY });
    database = await openTestDatabase();
    app = await buildApp({
      config: testConfig({
        PAYMENT_PROVIDER: 'paystack',
        PAYSTACK_SECRET_KEY: LIVE_KEY,
        PAYSTACK_BASE_URL: paystack.url,
        ...remitaEnv(),
      }),
      database,
      logger: false,
      rateLimits: RELAXED_RATE_LIMITS,
      providers: { dns: testHostResolver() },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await paystack.close();
  });

  it('starts with the mandates capability on, served by Remita', async () => {
    const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
    const { capabilities } = ready.json<{
      capabilities: { capability: string; state: string; adapter: string | null }[];
    }>();
    expect(capabilities.find((c) => c.capability === 'mandates')).toMatchObject({
      state: 'on',
      adapter: 'remita',
    });
    // The debits on Paystack's own mandates stay Paystack's.
    expect(capabilities.find((c) => c.capability === 'debits')).toMatchObject({
      state: 'on',
      adapter: 'paystack',
    });
  });
});

describe('a future payment on a Remita mandate', () => {
  const clock = testClock('2031-03-02T09:00:00Z');
  // Made once the simulator has started (beforeAll), whose address and keys it names.
  const ctx = useTestApp(() => ({ clock, env: remitaEnv(), webhookDelivery: 'manual' }));
  // Remita's days are the test's: a mandate's dates are the consent's, on this clock.
  beforeAll(() => remita.useClock(() => clock.now()));

  /** A merchant's new consent to future payments of `amount` kobo, due in each of `dueIns` ms. */
  async function futureConsent(amount: number, ...dueIns: number[]) {
    const merchant = await createTestClient(ctx.database, { name: 'Lagos Fitness Club' });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/consents',
      headers: { authorization: merchant.authorization },
      payload: {
        payments: dueIns.map((dueIn) => ({
          type: 'future',
          amount,
          amountType: 'fixed',
          narration: 'Classes',
          dueDate: new Date(clock.now().getTime() + dueIn).toISOString(),
        })),
        requirements: { requiresAuth: true },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json<{ consentId: string }>().consentId;
  }

  /**
   * A new payer's own account whose link, made for the consent `consentId`, waits for the bank's
   * OTP on Remita's mandate.
   */
  async function openRemitaLink(cardLast4: string, consentId?: string) {
    const forConsent = consentId ?? (await futureConsent(500_000, 7 * DAY));
    const { token, soft, phone } = await payerWithPasskey(ctx.app, ctx.config);
    const headers = { authorization: `Bearer ${token}` };
    const account = await ownAccount(ctx.app, token, 'links_by_test_transfer');
    const { institutionCode, accountNumber, accountName } = account;
    remita.accounts.push({
      bankCode: institutionCode,
      accountNumber,
      balanceKobo: 100_000_000,
      activation: 'otp',
      cardLast4,
    });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/account-links/create',
      headers,
      payload: {
        accountNumber,
        institutionCode,
        accountName,
        bankName: 'Any Bank',
        consentId: forConsent,
      },
    });
    const link = created.json<{ accountLink: { id: string; remitaTransRef: string } }>()
      .accountLink;
    /** The payer's answers: the bank's OTP (or `otp`) and the card's last 4 digits. */
    const confirm = (otp = remita.otp) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/transactionservicealt/confirm',
        headers,
        payload: {
          remitaTransRef: link.remitaTransRef,
          authParams: [
            { param1: 'OTP', value: otp },
            { param1: 'CARD', value: cardLast4 },
          ],
        },
      });
    return { token, phone, headers, soft, created, link, account, accountNumber, confirm };
  }

  /**
   * A new payer whose own account links by Remita's mandate for the consent `consentId`,
   * activated by the bank's OTP.
   */
  async function linkedByRemita(consentId: string) {
    const { headers, phone, soft, link, account, accountNumber, confirm } = await openRemitaLink(
      '1357',
      consentId,
    );
    const confirmed = await confirm();
    expect(confirmed.json(), confirmed.body).toMatchObject({ success: true });
    const listed = await ctx.app.inject({ method: 'GET', url: '/api/accounts/user', headers });
    const accountId = listed
      .json<{ accounts: Array<{ bankId?: string; accountNumber: string | null }> }>()
      .accounts.find((a) => a.accountNumber === accountNumber)?.bankId;
    if (!accountId) throw new Error('The linked account is not among the payer’s accounts');
    return { headers, phone, soft, linkId: link.id, accountId, account };
  }

  type TRemitaPayer = Pick<
    Awaited<ReturnType<typeof linkedByRemita>>,
    'accountId' | 'headers' | 'soft'
  > & { phone?: string };

  /** A merchant's consent to one future payment. */
  async function consentTo(
    merchant: { authorization: string },
    payment: {
      amount: number;
      amountType: 'fixed' | 'variable';
      narration: string;
      dueDate: string;
    },
  ) {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/consents',
      headers: { authorization: merchant.authorization },
      payload: { payments: [{ type: 'future', ...payment }], requirements: { requiresAuth: true } },
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json<{ consentId: string }>().consentId;
  }

  /** The payer's grant of the consent `consentId` on their Remita-linked account. */
  async function grantOn(payer: TRemitaPayer, consentId: string) {
    const { accountId, headers, soft } = payer;
    const data = {
      originalRequestId: null,
      consentData: { consentId },
      userAuthenticated: true,
      attestDiscoveryId: null,
      futurePayments: {
        granted: true,
        selectedAccounts: [accountId],
        paymentMethods: [{ type: 'account' as const, accountId }],
      },
    };
    const token = headers.authorization.slice('Bearer '.length);
    return ctx.app.inject({
      method: 'POST',
      url: `/api/consent/${consentId}/grant`,
      headers,
      payload: await signedGrant(ctx.app, soft, token, consentId, data),
    });
  }

  /** The consent `consentId` granted on the payer's Remita-linked account: its future payment. */
  async function grantedOn(payer: TRemitaPayer, consentId: string) {
    const granted = await grantOn(payer, consentId);
    expect(granted.statusCode, granted.body).toBe(200);
    const [row] = await ctx.database.db
      .select({ id: payments.id })
      .from(payments)
      .where(eq(payments.consentId, consentId));
    if (!row) throw new Error('No future payment');
    return { consentId, paymentId: row.id };
  }

  /**
   * The payer revokes the consent with their passkey; signed in again by a code where the clock
   * has moved past their first session (a merchant's collection waits a day for its notice).
   */
  async function revokedBy(payer: TRemitaPayer, consentId: string) {
    const { soft } = payer;
    const headers = payer.phone
      ? { authorization: `Bearer ${await codeSession(ctx.app, payer.phone)}` }
      : payer.headers;
    const issued = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/consents/${consentId}/revocation-challenges`,
      headers,
    });
    expect(issued.statusCode, issued.body).toBe(200);
    const { nonce } = issued.json<{ nonce: string }>();
    const digest = createHash('sha256')
      .update(revocationSigningMessage({ consentId, nonce }))
      .digest('base64url');
    const revoked = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/consents/${consentId}/revoke`,
      headers,
      payload: { nonce, response: soft.assert(digest) },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
  }

  it('links the account by the bank OTP and collects the payment on its date through Remita, once', async () => {
    const merchant = await createTestClient(ctx.database, { name: 'Tola Stores' });
    const consent = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/consents',
      headers: { authorization: merchant.authorization },
      payload: {
        payments: [
          {
            type: 'future',
            amount: 1_500_000,
            amountType: 'fixed',
            narration: 'Gym membership',
            dueDate: new Date(clock.now().getTime() + 2 * DAY).toISOString(),
          },
        ],
        requirements: { requiresAuth: true },
      },
    });
    expect(consent.statusCode, consent.body).toBe(201);
    const { consentId } = consent.json<{ consentId: string }>();
    const { soft, headers, created, link, account, accountNumber, confirm } = await openRemitaLink(
      '4321',
      consentId,
    );
    const { institutionCode } = account;
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json<{ accountLink: unknown }>().accountLink).toMatchObject({
      mandateType: 'otp',
      remitaTransRef: expect.any(String),
    });
    // The mandate allows what the consent grants: one debit of ₦15,000.00, on its due date.
    const setup = remita.requests.find(
      (r) => r.path === 'setup' && (r.body as { requestId?: string }).requestId === link.id,
    );
    expect(setup?.body).toMatchObject({
      amount: '15000',
      maxNoOfDebits: '1',
      startDate: '04/03/2031',
      endDate: '04/03/2031',
      mandateType: 'DD',
    });
    const wrong = await confirm('9999');
    expect(wrong.statusCode).toBe(400);
    const confirmed = await confirm();
    expect(confirmed.json(), confirmed.body).toMatchObject({ success: true });
    const [row] = await ctx.database.db
      .select()
      .from(accountLinks)
      .where(eq(accountLinks.id, link.id));
    const mandate = remita.mandateOf(link.id);
    expect(mandate?.state).toBe('active');
    expect(row).toMatchObject({
      state: 'active',
      mandateProvider: 'remita',
      debitAuthorization: mandate?.mandateId,
    });

    const listed = await ctx.app.inject({ method: 'GET', url: '/api/accounts/user', headers });
    const accountId = listed
      .json<{ accounts: Array<{ bankId?: string; accountNumber: string | null }> }>()
      .accounts.find((a) => a.accountNumber === accountNumber)?.bankId;
    if (!accountId) throw new Error('The linked account is not among the payer’s accounts');

    const payment = {
      id: (await grantedOn({ accountId, headers, soft }, consentId)).paymentId,
    };
    const sandboxBefore = await sandboxBalanceOf(ctx.database, account);
    const sent = () => remita.requests.filter((r) => r.path === 'payment/send');

    // The payer's notice a day before; the debit on its date, not a moment before.
    clock.advance(DAY - 1);
    await runCollections(ctx.context);
    clock.advance(DAY);
    await runCollections(ctx.context);
    expect(sent()).toHaveLength(0);

    clock.advance(1);
    expect(await runCollections(ctx.context)).toMatchObject({ collected: 1, failed: 0 });
    await runCollections(ctx.context);
    expect(sent()).toEqual([
      {
        path: 'payment/send',
        body: expect.objectContaining({
          mandateId: mandate?.mandateId,
          totalAmount: '15000',
          fundingAccount: accountNumber,
          fundingBankCode: institutionCode,
        }),
      },
    ]);
    const [collection] = await ctx.database.db
      .select()
      .from(futurePaymentCollections)
      .where(eq(futurePaymentCollections.paymentId, payment.id));
    expect(collection).toMatchObject({ status: 'succeeded' });
    const [paid] = await ctx.database.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(paid?.status).toBe('executed');
    expect(remita.accounts.at(-1)?.balanceKobo).toBe(100_000_000 - 1_500_000);
    // The sandbox bank, which serves the debits capability, debited nothing.
    expect(await sandboxBalanceOf(ctx.database, account)).toBe(sandboxBefore);
    // Remita, which took it, gives no refunds: the merchant is told, and nothing is booked.
    const refund = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/payments/${payment.id}/refunds`,
      headers: { authorization: merchant.authorization },
      payload: {},
    });
    expect(refund.json()).toEqual(errorBody('REFUND_UNAVAILABLE_AT_PROVIDER'));
    expect(refund.statusCode).toBe(409);
    expect(await ledgerKinds(ctx.database, payment.id)).toEqual(['future_payment_debit']);
  });

  it('links no account by Remita’s mandate outside a consent with future payments to pay', async () => {
    const { token } = await payerWithPasskey(ctx.app, ctx.config);
    const { institutionCode, accountNumber, accountName } = await ownAccount(
      ctx.app,
      token,
      'links_by_test_transfer',
    );
    const setups = remita.requests.filter((r) => r.path === 'setup').length;
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/account-links/create',
      headers: { authorization: `Bearer ${token}` },
      payload: { accountNumber, institutionCode, accountName, bankName: 'Any Bank' },
    });
    expect(created.statusCode, created.body).toBe(409);
    expect(created.json<{ error?: { code: string } }>().error?.code).toBe('MANDATE_NEEDS_CONSENT');
    expect(remita.requests.filter((r) => r.path === 'setup')).toHaveLength(setups);
  });

  it('links the account when the answer to the payer’s OTP was lost after Remita took it', async () => {
    const { link, confirm } = await openRemitaLink('2468');
    // Remita activates the mandate and its answer never arrives: the status says it took.
    remita.loseNextAnswer();
    const confirmed = await confirm();
    expect(confirmed.json(), confirmed.body).toMatchObject({ success: true });
    expect(remita.mandateOf(link.id)?.state).toBe('active');
    const [row] = await ctx.database.db
      .select({ state: accountLinks.state, authTries: accountLinks.authTries })
      .from(accountLinks)
      .where(eq(accountLinks.id, link.id));
    expect(row).toEqual({ state: 'active', authTries: 1 });
  });

  it('asks the mandate’s status, and sends no used OTP again, when a try’s answer and the status after it were lost', async () => {
    const { link, confirm } = await openRemitaLink('3579');
    const validations = () =>
      remita.requests.filter(
        (r) =>
          r.path === 'validateAuthorization' &&
          (r.body as { remitaTransRef?: string }).remitaTransRef === link.remitaTransRef,
      );
    // Remita activates the mandate; neither that answer nor the status asked after it arrives.
    remita.loseNextAnswer(2);
    const lost = await confirm();
    expect(lost.statusCode, lost.body).toBe(502);
    expect(remita.mandateOf(link.id)?.state).toBe('active');
    // The payer sends the same answers again: the status is asked, the used OTP is not sent.
    const confirmed = await confirm();
    expect(confirmed.json(), confirmed.body).toMatchObject({ success: true });
    expect(validations()).toHaveLength(1);
    const [row] = await ctx.database.db
      .select({ state: accountLinks.state })
      .from(accountLinks)
      .where(eq(accountLinks.id, link.id));
    expect(row).toEqual({ state: 'active' });
  });

  it('cancels the link when the answer to its last try was lost and the mandate is not active', async () => {
    const { link, confirm } = await openRemitaLink('2468');
    for (let i = 0; i < 4; i += 1) expect((await confirm('9999')).statusCode).toBe(400);
    // The fifth, wrong, is taken by Remita; neither its answer nor the status asked after arrives.
    remita.loseNextAnswer(2);
    expect((await confirm('9999')).statusCode).toBe(502);
    const after = await confirm();
    expect(after.json<{ error?: { code: string } }>().error?.code).toBe('AUTH_PARAMS_LOCKED');
    const [row] = await ctx.database.db
      .select({ state: accountLinks.state })
      .from(accountLinks)
      .where(eq(accountLinks.id, link.id));
    expect(row).toEqual({ state: 'cancelled' });
  });

  it(
    'sends at most five of twelve wrong tries made at once to Remita, and cancels the link',
    { tags: ['postgres'] },
    async () => {
      const { link, confirm } = await openRemitaLink('8642');
      const answers = await Promise.all(Array.from({ length: 12 }, () => confirm('9999')));
      const validations = remita.requests.filter(
        (r) =>
          r.path === 'validateAuthorization' &&
          (r.body as { remitaTransRef?: string }).remitaTransRef === link.remitaTransRef,
      );
      expect(validations).toHaveLength(5);
      const codes = answers.map((a) => a.json<{ error?: { code: string } }>().error?.code);
      expect(codes.filter((c) => c === 'AUTH_PARAMS_INCORRECT')).toHaveLength(4);
      expect(codes.filter((c) => c === 'AUTH_PARAMS_LOCKED')).toHaveLength(8);
      const [row] = await ctx.database.db
        .select({ state: accountLinks.state, authTries: accountLinks.authTries })
        .from(accountLinks)
        .where(eq(accountLinks.id, link.id));
      expect(row).toEqual({ state: 'cancelled', authTries: 5 });
      // Used up, the tries send nothing more, even the right one.
      const late = await confirm();
      expect(late.json<{ error?: { code: string } }>().error?.code).toBe('AUTH_PARAMS_LOCKED');
      expect(remita.mandateOf(link.id)?.state).toBe('inactive');
    },
  );

  it('stops the Remita mandate once the payer revokes the last consent whose future payments it bound', async () => {
    // The mandate is set up for a consent of two payments, 7 and 14 days on; two consents of one
    // each, on those days, are granted on it: together they ask no more than it allows.
    const first = await futureConsent(500_000, 7 * DAY);
    const second = await futureConsent(500_000, 14 * DAY);
    const payer = await linkedByRemita(await futureConsent(500_000, 7 * DAY, 14 * DAY));
    const { linkId } = payer;
    const grant = (consentId: string) => grantedOn(payer, consentId);
    const revoke = (consentId: string) => revokedBy(payer, consentId);
    const linkState = async () =>
      (await ctx.database.db.select().from(accountLinks).where(eq(accountLinks.id, linkId)))[0]
        ?.state;
    await grant(first);
    await grant(second);

    // Another consent's future payment still runs on the mandate: it stays.
    await revoke(first);
    expect(await ctx.context.jobs.drain([STOP_MANDATE_JOB])).toBe(0);
    expect(await linkState()).toBe('active');
    expect(remita.mandateOf(linkId)?.state).toBe('active');

    // The last one revoked: the link ends with it, and the mandate stops at Remita once.
    await revoke(second);
    expect(await linkState()).toBe('cancelled');
    expect(await ctx.context.jobs.drain([STOP_MANDATE_JOB])).toBe(1);
    expect(remita.mandateOf(linkId)?.state).toBe('stopped');
    expect(remita.requests.filter((r) => r.path === 'stop')).toHaveLength(1);
    const [ended] = await ctx.database.db
      .select({ mandateEnd: accountLinks.mandateEnd })
      .from(accountLinks)
      .where(eq(accountLinks.id, linkId));
    expect(ended).toEqual({ mandateEnd: 'stopped' });
  });

  it('refuses a grant that would have the mandate serve more than it was set up to allow', async () => {
    const payer = await linkedByRemita(await futureConsent(500_000, 7 * DAY));
    const grant = (consentId: string) => grantOn(payer, consentId);
    const boundTo = async (consentId: string) =>
      ctx.database.db
        .select({ paymentId: futurePaymentAccounts.paymentId })
        .from(futurePaymentAccounts)
        .innerJoin(payments, eq(payments.id, futurePaymentAccounts.paymentId))
        .where(eq(payments.consentId, consentId));
    // More per debit, a debit past its end date, a second debit in the month it allows one.
    for (const consentId of [
      await futureConsent(500_001, 7 * DAY),
      await futureConsent(500_000, 40 * DAY),
      await futureConsent(500_000, 7 * DAY, 7 * DAY),
    ]) {
      const refused = await grant(consentId);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error.code).toBe('MANDATE_TERMS_EXCEEDED');
      expect(await boundTo(consentId)).toEqual([]);
    }
    // What it allows is granted.
    const within = await futureConsent(400_000, 7 * DAY);
    const granted = await grant(within);
    expect(granted.statusCode, granted.body).toBe(200);
    expect(await boundTo(within)).toHaveLength(1);
  });

  describe('a debit that waits at Remita', () => {
    /** The merchant asks; once the payer's notice has had its lead, the runner asks Remita. */
    const collect = async (
      authorization: string,
      paymentId: string,
      amount: number,
      key: string,
    ) => {
      const asked = await ctx.app.inject({
        method: 'POST',
        url: `/api/v1/payments/${paymentId}/collect`,
        headers: { authorization, 'idempotency-key': key },
        payload: { amount },
      });
      if (asked.statusCode === 202) {
        clock.advance(DAY);
        await runCollections(ctx.context);
      }
      return asked;
    };
    const collectionOf = async (paymentId: string) =>
      (
        await ctx.database.db
          .select()
          .from(futurePaymentCollections)
          .where(eq(futurePaymentCollections.paymentId, paymentId))
      )[0];
    const sentFor = (collectionId: string) =>
      remita.requests.filter(
        (r) =>
          r.path === 'payment/send' &&
          String((r.body as { requestId?: string }).requestId).startsWith(collectionId),
      );
    const stopsOf = (collectionId: string) =>
      remita.requests.filter(
        (r) =>
          r.path === 'payment/stop' &&
          (r.body as { requestId?: string }).requestId === `${collectionId}.0`,
      );
    /** A variable future payment granted on a new payer's Remita-linked account. */
    async function collectable(merchantName: string) {
      const merchant = await createTestClient(ctx.database, { name: merchantName });
      const consentId = await consentTo(merchant, {
        amount: 800_000,
        amountType: 'variable',
        narration: 'Data bundle',
        dueDate: new Date(clock.now().getTime() + 30 * DAY).toISOString(),
      });
      const payer = await linkedByRemita(consentId);
      const { paymentId } = await grantedOn(payer, consentId);
      return { payer, merchant, consentId, paymentId };
    }
    afterAll(() => remita.holdDebits(false));

    it('gives back a debit Remita took after the payer revoked, booked, with the payer and merchant told', async () => {
      const { payer, merchant, consentId, paymentId } = await collectable('Naija Data');
      remita.holdDebits(true);
      const asked = await collect(merchant.authorization, paymentId, 600_000, 'revoked-1');
      expect(asked.statusCode, asked.body).toBe(202);
      const waiting = await collectionOf(paymentId);
      expect(waiting).toMatchObject({ status: 'collecting' });
      expect(waiting?.pendingDebit).toMatchObject({
        accountId: payer.accountId,
        reference: `${waiting!.id}.0`,
        // Remita's transactionRef, which payment/stop names, kept on the row.
        providerReference: expect.stringMatching(/^\d+:.+:\d+$/),
      });

      await revokedBy(payer, consentId);
      // The bank debits the account before the collection is asked about again.
      remita.holdDebits(false);
      const sandboxBefore = await sandboxBalanceOf(ctx.database, payer.account);
      clock.advance(STALE_COLLECTION_MS + 1);
      await runCollections(ctx.context);

      expect(remita.debitsTaken()).toContainEqual({
        requestId: `${waiting!.id}.0`,
        amountKobo: 600_000,
      });
      const ended = await collectionOf(paymentId);
      expect(ended).toMatchObject({
        status: 'cancelled',
        failureReason: 'consent_revoked',
        accountId: payer.accountId,
        pendingDebit: null,
      });
      // Given back by a payout to the debited account, booked in and out.
      expect(await sandboxBalanceOf(ctx.database, payer.account)).toBe(sandboxBefore + 600_000);
      expect(await ledgerKinds(ctx.database, paymentId)).toEqual([
        'cancelled_debit',
        'cancelled_debit_return',
      ]);
      const told = await ctx.database.db
        .select({ type: merchantEvents.type, data: merchantEvents.data })
        .from(merchantEvents)
        .where(eq(merchantEvents.consentId, consentId))
        .orderBy(merchantEvents.id);
      expect(told.at(-1)).toEqual({
        type: 'future_payment.given_back',
        data: expect.objectContaining({
          paymentId,
          collectionId: waiting!.id,
          amount: 600_000,
          accountId: payer.accountId,
          reason: 'consent_revoked',
        }),
      });
      // The payer's SMS, handed to the sandbox's outbox by its job after the run.
      await expect
        .poll(async () =>
          (await listOutbox(ctx.database.db, { limit: 1_000 }))
            .filter((sms) => sms.body.includes('sent back'))
            .map((sms) => sms.body),
        )
        .toEqual([
          'Oya Money: Naija Data debited ₦6,000.00 for Data bundle after it was cancelled. It ' +
            'has been sent back to your account.',
        ]);

      // Asked again later: nothing more is given back.
      clock.advance(STALE_COLLECTION_MS + 1);
      await runCollections(ctx.context);
      expect(await sandboxBalanceOf(ctx.database, payer.account)).toBe(sandboxBefore + 600_000);
    });

    it('cancels at Remita a debit still awaiting it when the payer revokes: nothing taken', async () => {
      const { payer, merchant, consentId, paymentId } = await collectable('Kano Power');
      remita.holdDebits(true);
      const asked = await collect(merchant.authorization, paymentId, 300_000, 'revoked-2');
      expect(asked.statusCode, asked.body).toBe(202);
      const { id } = (await collectionOf(paymentId))!;
      await revokedBy(payer, consentId);
      clock.advance(STALE_COLLECTION_MS + 1);
      await runCollections(ctx.context);
      expect(stopsOf(id)).toHaveLength(1);
      expect(await collectionOf(paymentId)).toMatchObject({
        status: 'cancelled',
        failureReason: 'consent_revoked',
      });
      remita.holdDebits(false);
      clock.advance(STALE_COLLECTION_MS + 1);
      await runCollections(ctx.context);
      expect(remita.debitsTaken().filter((d) => d.requestId.startsWith(id))).toEqual([]);
      expect(await ledgerKinds(ctx.database, paymentId)).toEqual([]);
    });

    it('cancels at Remita a debit awaiting it when the merchant cancels the future payments', async () => {
      const { merchant, consentId, paymentId } = await collectable('Enugu Gas');
      remita.holdDebits(true);
      const asked = await collect(merchant.authorization, paymentId, 100_000, 'cancelled-1');
      expect(asked.statusCode, asked.body).toBe(202);
      const { id } = (await collectionOf(paymentId))!;
      // The statements of the dashboard's "Cancel future payments".
      await ctx.database.db.transaction((tx) =>
        cancelFuturePayments(tx, consentId, 'future_payments_cancelled', clock.now()),
      );
      expect(await collectionOf(paymentId)).toMatchObject({ status: 'collecting' });
      clock.advance(STALE_COLLECTION_MS + 1);
      await runCollections(ctx.context);
      expect(stopsOf(id)).toHaveLength(1);
      expect(await collectionOf(paymentId)).toMatchObject({
        status: 'cancelled',
        failureReason: 'future_payments_cancelled',
      });
      remita.holdDebits(false);
      clock.advance(STALE_COLLECTION_MS + 1);
      await runCollections(ctx.context);
      expect(remita.debitsTaken().filter((d) => d.requestId.startsWith(id))).toEqual([]);
      expect(await ledgerKinds(ctx.database, paymentId)).toEqual([]);
    });

    it('asks about a debit waiting at Remita though its mandate ended meanwhile, and records what the bank took', async () => {
      const { payer, merchant, paymentId } = await collectable('Jos Fibre');
      remita.holdDebits(true);
      const asked = await collect(merchant.authorization, paymentId, 250_000, 'ended-1');
      expect(asked.statusCode, asked.body).toBe(202);
      const { id } = (await collectionOf(paymentId))!;
      // The link's mandate ends here while its debit waits at the bank, which then takes it.
      await ctx.database.db
        .update(accountLinks)
        .set({ state: 'cancelled' })
        .where(eq(accountLinks.id, payer.linkId));
      remita.holdDebits(false);
      clock.advance(STALE_COLLECTION_MS + 1);
      await runCollections(ctx.context);
      expect(remita.debitsTaken()).toContainEqual({ requestId: `${id}.0`, amountKobo: 250_000 });
      expect(await collectionOf(paymentId)).toMatchObject({ status: 'succeeded' });
      expect(await ledgerKinds(ctx.database, paymentId)).toEqual(['future_payment_debit']);
    });

    it('keeps asking about a debit waiting at Remita past ten claims, never sends a second, and fails it once Remita confirms its cancellation', async () => {
      const { merchant, paymentId } = await collectable('Abuja Cable');
      remita.holdDebits(true);
      const asked = await collect(merchant.authorization, paymentId, 200_000, 'pending-1');
      expect(asked.statusCode, asked.body).toBe(202);
      const { id } = (await collectionOf(paymentId))!;
      for (let claim = 0; claim < MAX_COLLECTION_CLAIMS + 2; claim += 1) {
        clock.advance(STALE_COLLECTION_MS + 1);
        await runCollections(ctx.context);
      }
      expect(await collectionOf(paymentId)).toMatchObject({ status: 'collecting' });
      // Its fate unknown, the payment takes no second instruction.
      const again = await collect(merchant.authorization, paymentId, 200_000, 'pending-2');
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json().error.code).toBe('PAYMENT_IN_PROGRESS');
      expect(sentFor(id)).toHaveLength(1);
      expect(stopsOf(id)).toHaveLength(0);

      // Past what a Remita debit may take, it is cancelled there, and only then failed.
      clock.advance(REMITA_DEBIT_PENDING_MS);
      await runCollections(ctx.context);
      expect(stopsOf(id)).toHaveLength(1);
      expect(await collectionOf(paymentId)).toMatchObject({
        status: 'failed',
        failureReason: 'bank_did_not_debit',
      });
      remita.holdDebits(false);
      expect(remita.debitsTaken().filter((d) => d.requestId.startsWith(id))).toEqual([]);
      expect(sentFor(id)).toHaveLength(1);
    });

    it('asks Remita about a debit whose instruction was answered with a refusal', async () => {
      const { merchant, paymentId } = await collectable('Ibadan Water');
      remita.answerNextSendWith({ statuscode: '999', status: 'System Error' });
      const asked = await collect(merchant.authorization, paymentId, 150_000, 'refused-1');
      expect(asked.statusCode, asked.body).toBe(202);
      const { id } = (await collectionOf(paymentId))!;
      expect(await collectionOf(paymentId)).toMatchObject({ status: 'succeeded', amount: 150_000 });
      expect(remita.debitsTaken()).toContainEqual({ requestId: `${id}.0`, amountKobo: 150_000 });
      expect(await ledgerKinds(ctx.database, paymentId)).toEqual(['future_payment_debit']);
    });
  });
});
