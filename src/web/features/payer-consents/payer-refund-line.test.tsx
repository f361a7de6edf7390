// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TPayerConsent } from '../../../domain/schemas/payer-consents';
import type { TPayerRefund } from '../../../domain/schemas/refunds';
import { consentRefunds } from './payer-consent-facts';

// A refund's line on /consents and the SMS receipt's page: a pending one says the date it is
// expected by (domain/refund-clocks.ts), one given back says nothing of a date; a reversal (a
// debit or charge we gave back) says its date, given back or not.

afterEach(cleanup);

const refund = (over: Partial<TPayerRefund>): TPayerRefund => ({
  refundId: 'rfd_1',
  paymentId: 'pay_1',
  amount: 50_000,
  status: 'pending',
  createdAt: '2031-06-05T10:00:00.000Z',
  kind: 'refund',
  channel: 'debit',
  expectedBy: '2031-06-10',
  ...over,
});

const renderRefunds = (refunds: TPayerRefund[]) =>
  render(<>{consentRefunds({ refunds } as TPayerConsent, 'Tola Stores')}</>);

describe('a refund’s line', () => {
  it('says when a pending refund is expected', () => {
    renderRefunds([refund({})]);
    const list = screen.getByRole('region', { name: 'Refunds from Tola Stores' });
    expect(within(list).getByText('Expected by 10 Jun 2031')).toBeTruthy();
    expect(within(list).getByText('Refund pending')).toBeTruthy();
  });

  it('says no date once the refund is back', () => {
    renderRefunds([refund({ status: 'processed', expectedBy: null })]);
    const list = screen.getByRole('region', { name: 'Refunds from Tola Stores' });
    expect(within(list).queryByText(/Expected by/)).toBeNull();
    expect(within(list).getByText('Refunded')).toBeTruthy();
  });

  it('says when a reversal given back is expected in the account', () => {
    renderRefunds([
      refund({
        kind: 'reversal',
        status: 'processed',
        refundId: 'col_1',
        expectedBy: '2031-06-10',
      }),
    ]);
    const list = screen.getByRole('region', { name: 'Refunds from Tola Stores' });
    expect(within(list).getByText('Expected by 10 Jun 2031')).toBeTruthy();
    expect(within(list).getByText('Given back')).toBeTruthy();
  });
});
