// The Paystack adapter's requests held against Paystack's published request schemas
// (testing/paystack-simulator/paystack-request-schemas.json, copied from PaystackOSS/openapi):
// the simulator refuses a body its operation's schema refuses, so every test of the adapter
// against it holds the adapter to them (paystack.contract.test.ts checks the calls its suites
// make). Here: the calls those suites do not reach, and that a body breaking a schema is refused.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock';
import { openTestDatabase } from '../../testing/test-app';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../testing/paystack-simulator/paystack-simulator';
import { contractReference } from '../contract/contract-references';
import { paystackCalls, paystackPath } from './paystack-calls';
import { paystackProvider, type TPaystackProvider } from './paystack-provider';

let simulator: TPaystackSimulator;
let paystack: TPaystackProvider;
let database: Awaited<ReturnType<typeof openTestDatabase>>;

const ACCOUNT = {
  institutionCode: '058',
  accountNumber: '0123456789',
  accountName: 'ADA OKAFOR',
  bankName: 'Guaranty Trust Bank',
};

beforeAll(async () => {
  database = await openTestDatabase();
  simulator = await startPaystackSimulator();
  paystack = paystackProvider({
    secretKey: simulator.secretKey,
    baseUrl: simulator.url,
    db: database.db,
    clock: systemClock,
  });
});
// Each test's breaches its own.
beforeEach(() => {
  simulator.contractBreaches.splice(0);
});
afterAll(async () => {
  await simulator.close();
  await database.close();
});

describe("the adapter's requests against Paystack's published request schemas", () => {
  it("asks Validate Customer with the body Paystack's schema takes", async () => {
    await expect(
      paystack.banks.checkAccountHolder({
        payerId: 'pyr_requests',
        bvn: '22200000011',
        fullName: 'Ada Okafor',
        institutionCode: ACCOUNT.institutionCode,
        accountNumber: ACCOUNT.accountNumber,
      }),
    ).resolves.toBe('pending');
    const paths = simulator.requests.filter((r) => r.method === 'POST').map((r) => r.path);
    expect(paths).toEqual([
      '/customer',
      expect.stringMatching(/^\/customer\/CUS_\w+\/identification$/),
    ]);
    expect(simulator.contractBreaches).toEqual([]);
  });

  it("retries a refund that needs attention with the account, as Paystack's schema takes it", async () => {
    const paid = await paystack.cards.chargeCard({
      reference: contractReference(),
      amount: 20_000,
      narration: 'Order 9',
      card: { number: '4084084084084081', expiry: '12/35', cvv: '408', pin: null },
    });
    if (paid.kind !== 'succeeded') throw new Error(`not paid: ${paid.kind}`);
    simulator.nextRefundNeedsAttention();
    const request = {
      reference: contractReference(),
      providerReference: paid.providerReference,
      channel: 'card' as const,
      amount: 20_000,
      sender: ACCOUNT,
      reason: null,
      createdAt: new Date(),
    };
    await paystack.refunds.refund(request);
    await paystack.refunds.refund(request);
    const retried = simulator.requests.filter((r) =>
      r.path.startsWith('/refund/retry_with_customer_details/'),
    );
    expect(retried).toHaveLength(1);
    expect(simulator.contractBreaches).toEqual([]);
  });

  it('refuses a body its published schema refuses, and keeps why', async () => {
    const client = paystackCalls({ secretKey: simulator.secretKey, baseUrl: simulator.url });
    // An amount in naira as a decimal, and no email: Create Charge takes an integer and needs one.
    const answer = await client.write('/charge', { amount: 200.5, reference: 'wrong-body' });
    expect(answer).toMatchObject({ ok: false, httpStatus: 400 });
    expect(simulator.contractBreaches).toEqual([
      {
        operation: 'POST /charge',
        errors: "(body) must have required property 'email'; /amount must be integer",
      },
    ]);
    // Refused before the charge route: no charge was made under the reference.
    const verified = await client.read(paystackPath`/transaction/verify/${'wrong-body'}`);
    expect(verified).toMatchObject({ ok: false, httpStatus: 404 });
  });
});
