// Every request the Monnify adapter sends, checked against the request schemas of Monnify's
// published API reference (testing/monnify-simulator/monnify-request-schemas.json, which says
// where its copy came from): each body against its operation's JSON schema, each query against
// the parameters the operation names. The requests are the simulator's record of a run through
// every call the adapter makes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { systemClock } from '../../clock';
import { TEST_OTP } from '../../testing/monnify-simulator/collections';
import {
  startMonnifySimulator,
  type TMonnifySimulator,
} from '../../testing/monnify-simulator/monnify-simulator';
import schemas from '../../testing/monnify-simulator/monnify-request-schemas.json';
import { openTestDatabase } from '../../testing/test-app';
import { contractReference as reference } from '../contract/contract-references';
import { monnifyProvider } from './monnify-provider';

type TOperation = {
  body?: object;
  query?: { required?: string[]; optional?: string[] };
};
const OPERATIONS = schemas.operations as Record<string, TOperation>;

let simulator: TMonnifySimulator;
let database: Awaited<ReturnType<typeof openTestDatabase>>;

const card = (number: string, pin: string | null) => ({ number, expiry: '12/35', cvv: '123', pin });
const PAYEE = { institutionCode: '058', accountNumber: '0123456789', accountName: 'ADAEZE OKAFOR' };

beforeAll(async () => {
  database = await openTestDatabase();
  simulator = await startMonnifySimulator({ payoutOtp: true });
  const monnify = monnifyProvider({
    apiKey: simulator.apiKey,
    secretKey: simulator.secretKey,
    contractCode: simulator.contractCode,
    baseUrl: simulator.url,
    walletAccountNumber: simulator.walletAccountNumber,
    db: database.db,
    clock: systemClock,
  });
  const paidRef = reference();
  const paid = await monnify.cards.chargeCard({
    reference: paidRef,
    amount: 250_000,
    narration: 'Order 1',
    card: card('4111111111111111', '1234'),
  });
  if (paid.kind !== 'succeeded') throw new Error(`not paid: ${paid.kind}`);
  const otp = await monnify.cards.chargeCard({
    reference: reference(),
    amount: 250_000,
    narration: 'Order 2',
    card: card('5060995994247093', '1234'),
  });
  if (otp.kind !== 'otp_required') throw new Error(`no OTP: ${otp.kind}`);
  await monnify.cards.submitCardOtp({ providerReference: otp.providerReference, otp: TEST_OTP });
  await monnify.cards.chargeCard({
    reference: reference(),
    amount: 250_000,
    narration: 'Order 3',
    card: card('4000000000000002', null),
  });
  await monnify.cards.requeryCardCharge(paidRef);
  await monnify.refunds.refund({
    reference: reference(),
    providerReference: paid.providerReference,
    channel: 'card',
    amount: 1_000,
    sender: null,
    reason: 'Returned goods',
    createdAt: new Date(),
  });
  await monnify.cards.refundCard({
    providerReference: paid.providerReference,
    amount: 1_000,
    reference: paidRef,
  });
  await monnify.transfersIn.openTransferAccount({
    reference: reference(),
    amount: 50_000,
    accountName: 'Tola',
  });
  const payout = reference();
  await monnify.payouts
    ?.payOut({ reference: payout, ...PAYEE, amount: 10_000, narration: 'Release' })
    .catch(() => null);
  await monnify.authorisePayout({
    reference: payout,
    otp: simulator.disbursementOtp(payout) ?? '',
  });
  await monnify.banks.nameEnquiry(PAYEE);
  await monnify.banks.checkAccountHolder({
    payerId: 'pyr_1',
    bvn: '22200000011',
    fullName: 'Adaeze Okafor',
    institutionCode: '058',
    accountNumber: '0123456789',
  });
  await monnify.settlement.settlementReport();
});
afterAll(async () => {
  await simulator.close();
  await database.close();
});

/** The operation a request was for: its method and path, the path's reference left out. */
function operationOf(method: string, path: string): string {
  const bare = path.split('?')[0] ?? '';
  if (/^\/api\/v1\/refunds\/(?!initiate-refund$)/.test(bare))
    return `${method} /api/v1/refunds/{refundReference}`;
  if (/^\/api\/v2\/transactions\//.test(bare))
    return `${method} /api/v2/transactions/{transactionReference}`;
  return `${method} ${bare}`;
}

describe("the adapter's requests against Monnify's published request schemas", () => {
  it('sends every body as its operation takes it (a card with no PIN is the one exception)', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const posts = simulator.requests.filter(
      (r) => r.method === 'POST' && r.path !== '/api/v1/auth/login',
    );
    expect(new Set(posts.map((r) => operationOf(r.method, r.path)))).toEqual(
      new Set([
        'POST /api/v1/merchant/transactions/init-transaction',
        'POST /api/v1/merchant/bank-transfer/init-payment',
        'POST /api/v1/merchant/cards/charge',
        'POST /api/v1/merchant/cards/otp/authorize',
        'POST /api/v1/refunds/initiate-refund',
        'POST /api/v2/disbursements/single',
        'POST /api/v2/disbursements/single/validate-otp',
        'POST /api/v1/vas/bvn-account-match',
      ]),
    );
    for (const request of posts) {
      const operation = operationOf(request.method, request.path);
      const schema = OPERATIONS[operation]?.body;
      expect(schema, operation).toBeDefined();
      const validate = ajv.compile(schema as object);
      const valid = validate(request.body);
      const errors = (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
      const noPin = (request.body as { card?: { pin?: string } }).card?.pin === undefined;
      if (operation.endsWith('cards/charge') && noPin) {
        // A Visa or Mastercard charged without a PIN goes without one (its issuer asks 3-D
        // Secure); the reference marks `pin` required (docs/providers/monnify.md).
        expect(errors).toEqual(["/card must have required property 'pin'"]);
      } else {
        expect(valid, `${operation}: ${errors.join('; ')}`).toBe(true);
      }
    }
  });

  it('names only the query parameters each read takes, and every one it requires', () => {
    const reads = simulator.requests.filter((r) => r.method === 'GET');
    expect(reads.length).toBeGreaterThan(5);
    for (const request of reads) {
      const operation = operationOf(request.method, request.path);
      if (operation.includes('{')) continue;
      const query = OPERATIONS[operation]?.query;
      expect(query, operation).toBeDefined();
      const names = [...new URL(request.path, 'http://x').searchParams.keys()];
      const known = [...(query?.required ?? []), ...(query?.optional ?? [])];
      expect(
        names.filter((name) => !known.includes(name)),
        operation,
      ).toEqual([]);
      for (const name of query?.required ?? []) expect(names, operation).toContain(name);
    }
  });
});
