import { describe, expect, it } from 'vitest';
import { dashboardPaymentFacts } from './dashboard-payment-row';
import type { TDashboardPaymentRow } from './schemas/dashboard';

const row = (over: Partial<TDashboardPaymentRow>): TDashboardPaymentRow => ({
  paymentId: 'pay_1',
  consentId: 'con_1',
  reference: null,
  type: 'immediate',
  status: 'pending',
  amount: 500_000,
  refunded: 0,
  narration: 'Rent',
  paidWith: null,
  createdAt: '2026-11-27T05:44:00.000Z',
  executedAt: null,
  dueDate: null,
  frequency: null,
  interval: null,
  ...over,
});

describe('dashboardPaymentFacts', () => {
  it('says a future payment still owed is scheduled, dated by when it falls due', () => {
    const facts = dashboardPaymentFacts(
      row({ type: 'future', dueDate: '2026-12-05T09:00:00.000Z' }),
    );
    expect(facts).toEqual({ status: 'scheduled', paid: 'Not due yet', when: 'Due 5 Dec 2026' });
  });

  it('says a future payment the payer skipped is skipped, not scheduled, and not paid', () => {
    const facts = dashboardPaymentFacts(
      row({ type: 'future', status: 'skipped', dueDate: '2026-12-05T09:00:00.000Z' }),
    );
    expect(facts).toMatchObject({ status: 'skipped', paid: 'Not paid' });
  });

  it('says how often a recurring one repeats', () => {
    const facts = dashboardPaymentFacts(
      row({
        type: 'future',
        dueDate: '2026-12-01T09:00:00.000Z',
        frequency: 'monthly',
        interval: 2,
      }),
    );
    expect(facts.when).toBe('Due 1 Dec 2026 · Every 2 months');
  });

  it('dates any other payment by its asking, and names how it was paid', () => {
    expect(dashboardPaymentFacts(row({}))).toEqual({
      status: 'pending',
      paid: 'Not paid',
      when: '27 Nov 2026, 6:44 am',
    });
    const paid = row({ status: 'executed', paidWith: 'Card 408408******0003' });
    expect(dashboardPaymentFacts(paid).paid).toBe('Card 408408******0003');
    const collected = row({
      type: 'future',
      status: 'executed',
      paidWith: 'Collection from GTBank ****1234',
    });
    expect(dashboardPaymentFacts(collected).status).toBe('executed');
  });
});
