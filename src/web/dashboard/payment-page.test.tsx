// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERROR_CATALOGUE } from '../../domain/errors';
import type { TDashboardSession } from '../../domain/schemas/dashboard';
import { PaymentPage } from './payment-page';

// A payment's refund form (docs/dashboard.md "Payments"): a transfer whose notice named no sender
// is refused with what to do, and the form then asks for the payer's account and refunds to it.

const session: TDashboardSession = {
  success: true,
  fullName: 'Ada Owner',
  phoneNumber: '+2348030000000',
  method: 'passkey',
  csrfToken: 'csrf',
  merchant: { merchantId: 'mer_1', name: 'Tola Stores' },
  role: 'owner',
  refundLimit: null,
  actions: [],
  sandbox: false,
  changesFrom: null,
};

const detail = {
  success: true,
  payment: {
    paymentId: 'pay_1',
    consentId: 'cns_1',
    reference: null,
    type: 'immediate',
    status: 'executed',
    amount: 250_000,
    refunded: 0,
    narration: 'Order #1042',
    paidWith: 'Transfer',
    createdAt: '2026-11-20T10:00:00.000Z',
    executedAt: '2026-11-20T10:05:00.000Z',
    dueDate: null,
    frequency: null,
    interval: null,
  },
  refunds: [],
  refundable: 250_000,
  timeline: [],
};

const processed = {
  success: true,
  refund: {
    refundId: 'rfd_1',
    paymentId: 'pay_1',
    amount: 100_000,
    reason: 'Order cancelled',
    status: 'processed',
    failureReason: null,
    createdAt: '2026-11-20T11:00:00.000Z',
    endedAt: '2026-11-20T11:00:01.000Z',
  },
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The server: the payment, the banks, and refunds refused until an account is given. */
function server() {
  const refunds: unknown[] = [];
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/dashboard/payments/pay_1') return json(200, detail);
    if (url === '/api/dashboard/banks') {
      return json(200, {
        success: true,
        banks: [
          { institutionCode: '044', name: 'Access Bank' },
          { institutionCode: '058', name: 'Guaranty Trust Bank' },
        ],
      });
    }
    const body = JSON.parse(init?.body as string) as { refundTo?: unknown };
    refunds.push(body);
    if (!body.refundTo) {
      const { message } = ERROR_CATALOGUE.REFUND_SENDER_UNKNOWN;
      return json(409, { success: false, error: { code: 'REFUND_SENDER_UNKNOWN', message } });
    }
    return json(201, processed);
  });
  vi.stubGlobal('fetch', fetch);
  return refunds;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the refund form of a transfer that named no sender', () => {
  it('says to ask the payer, asks for their bank and account, and refunds to that account', async () => {
    const refunds = server();
    render(
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <PaymentPage paymentId="pay_1" session={session} />
      </QueryClientProvider>,
    );
    fireEvent.change(await screen.findByLabelText('Amount to refund in naira'), {
      target: { value: '1000' },
    });
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Order cancelled' } });
    expect(screen.queryByLabelText("Payer's bank")).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Refund' }));

    expect(await screen.findByText(ERROR_CATALOGUE.REFUND_SENDER_UNKNOWN.message)).toBeTruthy();
    const bank = await screen.findByLabelText("Payer's bank");
    await screen.findByRole('option', { name: 'Guaranty Trust Bank' });
    // Without the account the form says what is missing and asks nothing.
    fireEvent.click(screen.getByRole('button', { name: 'Refund' }));
    expect(
      await screen.findByText(
        'Choose the bank and enter the 10-digit account number the payer gave.',
      ),
    ).toHaveProperty('role', 'alert');
    expect(refunds).toHaveLength(1);

    fireEvent.change(bank, { target: { value: '058' } });
    fireEvent.change(screen.getByLabelText("Payer's account number (10 digits)"), {
      target: { value: '0123456789' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Refund of ₦1,000.00: processed.')).toBeTruthy();
    expect(refunds).toEqual([
      { amount: 100_000, reason: 'Order cancelled' },
      {
        amount: 100_000,
        reason: 'Order cancelled',
        refundTo: { institutionCode: '058', accountNumber: '0123456789' },
      },
    ]);
  });
});
