import { describe, expect, it } from 'vitest';
import {
  debitReport,
  nextAttempt,
  paymentReport,
  type TPaymentAttempt,
} from './embed-payment-report';

const card: TPaymentAttempt = { n: 1, method: 'card', failed: false };

describe('paymentReport (oya-money-payment-status)', () => {
  it('tells nothing before the payer begins a way of paying', () => {
    expect(paymentReport('pay_1', 'pending', null)).toBeNull();
  });

  it('tells an attempt started, with its method, until the payment answers', () => {
    for (const phase of ['pending', 'awaiting_3ds', 'received', 'retrying'] as const) {
      expect(paymentReport('pay_1', phase, card)).toEqual({
        paymentId: 'pay_1',
        status: 'started',
        method: 'card',
        attempt: '1',
      });
    }
  });

  it('tells completed once the server reports it, and failed when the payer sees a failure', () => {
    expect(paymentReport('pay_1', 'processed', card)?.status).toBe('completed');
    expect(paymentReport('pay_1', 'completed', card)?.status).toBe('completed');
    expect(paymentReport('pay_1', 'failed', card)?.status).toBe('failed');
    const chip: TPaymentAttempt = { n: 2, method: 'chip_card', failed: true };
    expect(paymentReport('pay_1', 'pending', chip)).toEqual({
      paymentId: 'pay_1',
      status: 'failed',
      method: 'chip_card',
      attempt: '2',
    });
  });

  it('tells a payment found under way on opening as started, method unknown', () => {
    expect(paymentReport('pay_1', 'awaiting_transfer', null)).toEqual({
      paymentId: 'pay_1',
      status: 'started',
      attempt: '0',
    });
    expect(paymentReport('pay_1', 'completed', null)?.status).toBe('completed');
  });

  it('names each attempt, so a retry is told again and the same attempt is not', () => {
    const again = { ...card, n: 2 };
    expect(paymentReport('pay_1', 'retrying', again)?.attempt).toBe('2');
  });
});

describe("debitReport (a saved account's debit by the flow's grant)", () => {
  it('follows the grant once it reached the server', () => {
    expect(debitReport('pay_1', 'processing', 1)).toEqual({
      paymentId: 'pay_1',
      status: 'started',
      method: 'account',
      attempt: 'debit 1',
    });
    expect(debitReport('pay_1', 'completing', 1)?.status).toBe('completed');
    expect(debitReport('pay_1', 'failed', 2)?.attempt).toBe('debit 2');
  });

  it('tells nothing of a grant that never reached the server, nor while idle or signing', () => {
    expect(debitReport('pay_1', 'failed', 0)).toBeNull();
    expect(debitReport('pay_1', 'signing', 1)).toBeNull();
    expect(debitReport('pay_1', 'idle', 1)).toBeNull();
  });
});

describe('nextAttempt', () => {
  it('counts each card charge as a new attempt', () => {
    const first = nextAttempt(null, 'card');
    expect(first).toEqual({ n: 1, method: 'card', failed: false });
    expect(nextAttempt(first, 'card')).toEqual({ n: 2, method: 'card', failed: false });
  });

  it('keeps the attempt when the server hands back the same one-time account', () => {
    const opened = nextAttempt(null, 'bank_transfer', '9912345678');
    expect(opened).toEqual({ n: 1, method: 'bank_transfer', failed: false, key: '9912345678' });
    // Asked again while open (after Cancel, or from the processing view): the same attempt, so
    // paymentReport tells its parent 'started' once.
    const again = nextAttempt(opened, 'bank_transfer', '9912345678');
    expect(again).toBe(opened);
    expect(paymentReport('pay_1', 'awaiting_transfer', again)).toEqual(
      paymentReport('pay_1', 'awaiting_transfer', opened),
    );
  });

  it('starts a new attempt for a new account, another method, or after a failure', () => {
    const opened = nextAttempt(null, 'bank_transfer', '9912345678');
    expect(nextAttempt(opened, 'bank_transfer', '9987654321')).toMatchObject({ n: 2 });
    expect(nextAttempt(opened, 'card')).toMatchObject({ n: 2, method: 'card' });
    expect(nextAttempt({ ...opened, failed: true }, 'bank_transfer', '9912345678')).toMatchObject({
      n: 2,
      failed: false,
    });
  });
});
