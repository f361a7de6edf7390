import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock';
import { openTestDatabase } from '../../testing/test-app';
import { paystackProvider } from './paystack-provider';
import { toPaystackReference } from './paystack-references';

// Paystack's settlement report from its list calls (GET /transaction, /transfer and /refund,
// paged as Paystack documents: meta.page and meta.pageCount). The simulator lists none of them,
// so a small server answers here what Paystack's lists answer.

const ours = (reference: string) => toPaystackReference(reference);
const LISTS: Record<string, unknown[][]> = {
  '/transaction': [
    [
      {
        id: 1,
        status: 'success',
        reference: ours('att_card1'),
        amount: 250_000,
        metadata: { oya_channel: 'card' },
      },
      {
        id: 2,
        status: 'reversed',
        reference: ours('att_debit1'),
        amount: 1_000_000,
        metadata: '{"oya_channel":"debit"}',
      },
      // Another system's charge on the same account, and a refused one of ours.
      { id: 3, status: 'success', reference: 'T123ABC.x', amount: 99, metadata: {} },
      {
        id: 4,
        status: 'failed',
        reference: ours('att_card2'),
        amount: 250_000,
        metadata: { oya_channel: 'card' },
      },
    ],
    [
      // A payment by transfer is booked from its notice, not compared line by line.
      {
        id: 5,
        status: 'success',
        reference: ours('att_transfer1'),
        amount: 70_000,
        metadata: { oya_channel: 'transfer' },
      },
      // Fully refunded by a merchant's refunds: still a charge taken, its refunds lines of their own.
      {
        id: 6,
        status: 'reversed',
        reference: ours('att_card3'),
        amount: 300_000,
        metadata: { oya_channel: 'card' },
      },
    ],
  ],
  '/transfer': [
    [
      { status: 'success', reference: ours('pyo_one1'), amount: 370_000, transfer_code: 'TRF_1' },
      { status: 'reversed', reference: ours('pyo_two2'), amount: 10_000, transfer_code: 'TRF_2' },
      { status: 'failed', reference: ours('pyo_three3'), amount: 10_000, transfer_code: 'TRF_3' },
    ],
  ],
  '/refund': [
    [
      {
        id: 11,
        status: 'processed',
        amount: 1_000_000,
        transaction: 2,
        merchant_note: `oya-giveback:${ours('att_debit1')}`,
      },
      {
        id: 12,
        status: 'processed',
        amount: 300_000,
        transaction: 6,
        merchant_note: `oya-refund:${ours('rfd_one1')}`,
      },
      {
        id: 13,
        status: 'pending',
        amount: 1_000,
        transaction: 1,
        merchant_note: `oya-refund:${ours('rfd_two2')}`,
      },
    ],
  ],
};

let server: Server;
let url = '';
/** Every list request the server got, by path and query. */
const asked: URL[] = [];
let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  database = await openTestDatabase();
  server = createServer((request, response) => {
    const target = new URL(request.url ?? '/', 'http://lists');
    asked.push(target);
    const pages = LISTS[target.pathname] ?? [];
    const page = Number(target.searchParams.get('page') ?? '1');
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        status: true,
        message: 'Retrieved',
        data: pages[page - 1] ?? [],
        meta: { page, pageCount: pages.length, perPage: 100 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await database.close();
});

describe('Paystack’s settlement report', () => {
  it('lists what took money under our references, every page: charges and debits, payouts, and merchants’ refunds', async () => {
    const provider = paystackProvider({
      secretKey: 'sk_test_lists',
      baseUrl: url,
      db: database.db,
      clock: systemClock,
    });
    const byReference = (a: { reference: string }, b: { reference: string }) =>
      a.reference.localeCompare(b.reference);
    expect([...(await provider.settlement.settlementReport())].sort(byReference)).toEqual(
      [
        { channel: 'card', reference: 'att_card1', amount: 250_000, givenBack: false },
        // Given back by us, whole: nets to nothing.
        { channel: 'debit', reference: 'att_debit1', amount: 1_000_000, givenBack: true },
        { channel: 'card', reference: 'att_card3', amount: 300_000, givenBack: false },
        { channel: 'payout', reference: 'pyo_one1', amount: 370_000, givenBack: false },
        { channel: 'payout', reference: 'pyo_two2', amount: 10_000, givenBack: true },
        { channel: 'refund', reference: 'rfd_one1', amount: 300_000, givenBack: false },
      ].sort(byReference),
    );
  });

  it('narrows every list to the period it is asked for, and reads each whole', async () => {
    const provider = paystackProvider({
      secretKey: 'sk_test_lists',
      baseUrl: url,
      db: database.db,
      clock: systemClock,
    });
    const period = {
      from: new Date('2031-06-01T00:00:00Z'),
      to: new Date('2031-07-01T00:00:00Z'),
    };
    const before = asked.length;
    expect(await provider.settlement.settlementReport(period)).toHaveLength(6);
    const lists = asked.slice(before);
    expect(new Set(lists.map((list) => list.pathname))).toEqual(
      new Set(['/transaction', '/transfer', '/refund', '/paymentrequest']),
    );
    for (const list of lists) {
      expect([list.pathname, list.searchParams.get('from'), list.searchParams.get('to')]).toEqual([
        list.pathname,
        period.from.toISOString(),
        period.to.toISOString(),
      ]);
    }
  });
});
