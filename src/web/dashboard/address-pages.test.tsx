// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { PaymentsPage } from './payments-page';
import { screenAt, threePages } from './screen-at-address';

// "Load more" is a navigation (useAddressPages): its cursor goes to the address beside the
// filters, and a reload reads the same pages again.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
/** A payment row the schema takes, named by its reference. */
const row = (id: string) => ({
  paymentId: id,
  consentId: 'c',
  reference: id,
  type: 'immediate',
  status: 'pending',
  amount: 100,
  refunded: 0,
  narration: 'n',
  paidWith: null,
  createdAt: '2026-01-01T00:00:00Z',
  executedAt: null,
  dueDate: null,
  frequency: null,
  interval: null,
});
/** The screen at `search`: three pages of one payment each, the asks recorded. */
const at = (search: string) =>
  screenAt('/payments', search, <PaymentsPage />, threePages('payments', row));
it('puts each Load more’s cursor in the address; a reload reads the same pages', async () => {
  const { asked, location } = at('q=KF');
  await screen.findByText(/P1 ·/);
  fireEvent.click(screen.getByRole('button', { name: DASHBOARD_TEXTS.morePayments }));
  await screen.findByText(/P2 ·/);
  expect(location.history.at(-1)).toContain('cursor=c1');
  expect(asked).toHaveLength(2);
  fireEvent.click(screen.getByRole('button', { name: DASHBOARD_TEXTS.morePayments }));
  await screen.findByText(/P3 ·/);
  expect(screen.queryByRole('button', { name: DASHBOARD_TEXTS.morePayments })).toBeNull();
  expect(location.history).toEqual([
    '/payments?q=KF',
    '/payments?q=KF&cursor=c1',
    '/payments?q=KF&cursor=c1&cursor=c2',
  ]);
  cleanup();
  const again = at('q=KF&cursor=c1');
  await screen.findByText(/P2 ·/);
  expect(screen.getByText(/P1 ·/)).toBeTruthy();
  expect(screen.queryByText(/P3 ·/)).toBeNull();
  await waitFor(() => expect(again.asked).toHaveLength(2));
  expect(again.asked).toEqual([
    '/api/dashboard/payments?q=KF',
    '/api/dashboard/payments?q=KF&cursor=c1',
  ]);
});
