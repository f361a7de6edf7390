// What a lookup of one of our refunds costs at Paystack: the refunds of the transaction it gave
// back from, made around when it was asked for, never a walk through every refund the integration
// ever made. Against the Paystack simulator, which lists refunds newest first, a page at a time
// (100 at most), as Paystack does, and records every request it gets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock';
import { openTestDatabase } from '../../testing/test-app';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../testing/paystack-simulator/paystack-simulator';
import { contractReference as reference } from '../contract/contract-references';
import type { TRefundRequery } from '../payments';
import { paystackProvider, type TPaystackProvider } from './paystack-provider';

/** Refunds of other transactions in the integration: five pages' worth of Paystack's list. */
const UNRELATED_REFUNDS = 500;
const CHARGES = 20;

let simulator: TPaystackSimulator;
let provider: TPaystackProvider;
let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  database = await openTestDatabase();
  simulator = await startPaystackSimulator({});
  provider = paystackProvider({
    secretKey: simulator.secretKey,
    baseUrl: simulator.url,
    db: database.db,
    clock: systemClock,
    readRetryDelaysMs: [20, 200],
  });
});
afterAll(async () => {
  await simulator.close();
  await database.close();
});

/** A card charge of ours the simulator took: the transaction a refund gives back from. */
async function paidCharge(amount: number): Promise<string> {
  const paid = await provider.cards.chargeCard({
    reference: reference(),
    amount,
    narration: 'Order 41',
    card: { number: '4084084084084081', expiry: '12/35', cvv: '408', pin: null },
  });
  if (paid.kind !== 'succeeded') throw new Error(`expected success, got ${paid.kind}`);
  return paid.providerReference;
}

/** Another system's refunds on the same integration, each of a transaction of its own. */
async function unrelatedRefunds(count: number): Promise<void> {
  const call = (path: string, body: unknown) =>
    fetch(`${simulator.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${simulator.secretKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    }).then((answer) => answer.json() as Promise<{ data: { reference: string } }>);
  const perCharge = count / CHARGES;
  await Promise.all(
    Array.from({ length: CHARGES }, async (_, charge) => {
      const { data } = await call('/charge', {
        email: 'someone@example.com',
        amount: perCharge * 100,
        reference: `T${Date.now()}x${charge}`,
        card: { number: '4084084084084081', cvv: '408', expiry_month: '12', expiry_year: '2035' },
      });
      for (let refund = 0; refund < perCharge; refund += 1) {
        await call('/refund', { transaction: data.reference, amount: 100 });
      }
    }),
  );
}

/** The refund list requests the simulator got from `from` on. */
const refundListsSince = (from: number) =>
  simulator.requests
    .slice(from)
    .filter((request) => request.method === 'GET' && /^\/refund(\?|$)/.test(request.path));

const DAY_MS = 24 * 60 * 60 * 1000;

/** A refund list's request names a time (`from`, `to`) from a day before `first` to a day after `last`. */
function expectWithin(path: string | undefined, first: Date, last: Date) {
  const query = new URL(path ?? '', simulator.url).searchParams;
  const from = Date.parse(query.get('from') ?? '');
  const to = Date.parse(query.get('to') ?? '');
  expect(from).toBeLessThanOrEqual(first.getTime());
  expect(from).toBeGreaterThanOrEqual(first.getTime() - DAY_MS);
  expect(to).toBeGreaterThanOrEqual(last.getTime());
  expect(to).toBeLessThanOrEqual(last.getTime() + 2 * DAY_MS);
}

describe('looking up one of our refunds at Paystack', () => {
  let transaction: string;
  let ours: TRefundRequery;

  beforeAll(async () => {
    transaction = await paidCharge(300_000);
    ours = {
      reference: reference(),
      providerReference: transaction,
      channel: 'card',
      createdAt: new Date(),
    };
    const asked = await provider.refunds.refund({
      ...ours,
      amount: 100_000,
      sender: null,
      reason: null,
    });
    expect(asked.kind).not.toBe('failed');
    // Made after ours, the others come first in Paystack's list, newest first.
    await unrelatedRefunds(UNRELATED_REFUNDS);
    const all = await fetch(`${simulator.url}/refund?perPage=1`, {
      headers: { authorization: `Bearer ${simulator.secretKey}` },
    });
    const { meta } = (await all.json()) as { meta: { total: number } };
    expect(meta.total).toBe(UNRELATED_REFUNDS + 1);
  }, 60_000);

  it('finds a refund among many others of the integration reading one page of its transaction', async () => {
    // Paystack processes a refund a moment after its answer.
    await expect
      .poll(() => provider.refunds.requeryRefund(ours))
      .toMatchObject({ kind: 'processed' });
    const before = simulator.requests.length;
    expect(await provider.refunds.requeryRefund(ours)).toMatchObject({ kind: 'processed' });
    expect(refundListsSince(before)).toHaveLength(1);
  });

  it('asks for that transaction’s refunds made within a day of when ours was asked for', async () => {
    const before = simulator.requests.length;
    await provider.refunds.requeryRefund(ours);
    const [list] = refundListsSince(before);
    const query = new URL(list?.path ?? '', simulator.url).searchParams;
    expect(query.get('transaction')).toBe(transaction);
    const from = Date.parse(query.get('from') ?? '');
    const to = Date.parse(query.get('to') ?? '');
    expect(from).toBeLessThanOrEqual(ours.createdAt.getTime());
    expect(to).toBeGreaterThanOrEqual(ours.createdAt.getTime());
    expect(to - from).toBeLessThanOrEqual(2 * 24 * 60 * 60 * 1000);
  });

  it('asked again, looks for the earlier ask among the refunds made since the refund was created', async () => {
    const before = simulator.requests.length;
    const again = await provider.refunds.refund({
      ...ours,
      amount: 100_000,
      sender: null,
      reason: null,
    });
    expect(again).toMatchObject({ kind: 'processed' });
    const lists = refundListsSince(before);
    expect(lists).toHaveLength(1);
    expectWithin(lists[0]?.path, ours.createdAt, new Date());
    // Found, not asked for again: no refund was made.
    expect(simulator.requests.slice(before).some((r) => r.method === 'POST')).toBe(false);
  });

  it('gives a charge back once, looking for an earlier give-back among those made since the charge', async () => {
    const charged = new Date();
    const charge = await paidCharge(40_000);
    const giveBack = { providerReference: charge, amount: 40_000, reference: reference() };
    expect(await provider.cards.refundCard(giveBack)).toEqual({ refunded: true });
    const before = simulator.requests.length;
    expect(await provider.cards.refundCard(giveBack)).toEqual({ refunded: true });
    const lists = refundListsSince(before);
    expect(lists).toHaveLength(1);
    expectWithin(lists[0]?.path, charged, new Date());
    expect(simulator.requests.slice(before).some((r) => r.method === 'POST')).toBe(false);
  });

  it('answers a refund that never arrived failed after reading one page, not every refund', async () => {
    const never: TRefundRequery = {
      reference: reference(),
      providerReference: await paidCharge(50_000),
      channel: 'card',
      createdAt: new Date(),
    };
    const before = simulator.requests.length;
    expect(await provider.refunds.requeryRefund(never)).toMatchObject({ kind: 'failed' });
    expect(refundListsSince(before)).toHaveLength(1);
  });
});
