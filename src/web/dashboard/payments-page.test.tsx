// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { PaymentsPage } from './payments-page';
import { screenAt } from './screen-at-address';

// The payments screen's filters live in its address (docs/dashboard.md "Payments"): a reload
// keeps the search, Back returns to the one before, and each search asks the server once.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The screen at `search`, the server's answers recorded (an empty list each time). */
const paymentsAt = (search: string) =>
  screenAt('/payments', search, <PaymentsPage />, () => ({
    success: true,
    payments: [],
    nextCursor: null,
  }));

describe('the payments screen’s filters', () => {
  it('are read from the address: a reload shows and asks the same search', async () => {
    const { asked } = paymentsAt('q=KF-1042&status=pending&amount=2500');
    expect(screen.getByLabelText(DASHBOARD_TEXTS.searchLabel)).toHaveProperty('value', 'KF-1042');
    expect(screen.getByLabelText(DASHBOARD_TEXTS.statusLabel)).toHaveProperty('value', 'pending');
    expect(screen.getByLabelText(DASHBOARD_TEXTS.amountLabel)).toHaveProperty('value', '2500');
    // Filters set in the address are shown, not folded away.
    expect(
      screen
        .getByRole('button', { name: DASHBOARD_TEXTS.moreFilters(2) })
        .getAttribute('aria-expanded'),
    ).toBe('true');
    await waitFor(() => expect(asked).toHaveLength(1));
    expect(asked[0]).toBe('/api/dashboard/payments?q=KF-1042&status=pending&amount=250000');
  });

  it('go to the address on Search, and Back brings the earlier search back', async () => {
    const { asked, location } = paymentsAt('');
    await waitFor(() => expect(asked).toHaveLength(1));
    fireEvent.change(screen.getByLabelText(DASHBOARD_TEXTS.searchLabel), {
      target: { value: 'KF-7' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(location.history.at(-1)).toBe('/payments?q=KF-7'));
    await waitFor(() => expect(asked.at(-1)).toBe('/api/dashboard/payments?q=KF-7'));

    location.navigate('/payments');
    await waitFor(() =>
      expect(screen.getByLabelText(DASHBOARD_TEXTS.searchLabel)).toHaveProperty('value', ''),
    );
  });
});
