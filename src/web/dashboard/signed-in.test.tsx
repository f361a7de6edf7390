// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { ROLE_ACTIONS, type TStaffRole } from '../../domain/dashboard-roles';
import type { TDashboardSession } from '../../domain/schemas/dashboard';
import { Shell } from './signed-in';

afterEach(cleanup);

const sessionOf = (role: TStaffRole): TDashboardSession => ({
  success: true,
  fullName: 'Bola Ade',
  phoneNumber: '+2348030000000',
  method: 'passkey',
  csrfToken: 'csrf',
  merchant: { merchantId: 'mer_1', name: 'Kemi Fabrics' },
  role,
  refundLimit: role === 'support' ? 100_000 : null,
  actions: [...ROLE_ACTIONS[role]],
  sandbox: true,
  changesFrom: null,
});

function shellAt(path: string, role: TStaffRole) {
  const { hook } = memoryLocation({ path });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Router hook={hook}>
        <Shell session={sessionOf(role)} />
      </Router>
    </QueryClientProvider>,
  );
}

describe('a screen the role may not open', () => {
  it.each([
    ['/team', 'Team'],
    ['/developers', 'Developers'],
    ['/events', 'Events'],
    ['/sandbox', 'Sandbox tools'],
    ['/routes', 'Routes'],
  ])('support reaching %s by its address is told so, without its forms', (path, title) => {
    shellAt(path, 'support');
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeTruthy();
    expect(
      screen.getByText(
        'Your role (Support) does not allow this page. An owner of Kemi Fabrics can change your role on the Team page.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.queryByRole('link', { name: title })).toBeNull();
  });

  it('is opened, and offered in the bar, to a role that may', () => {
    shellAt('/team', 'owner');
    expect(screen.queryByText(/does not allow this page/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Team' })).toBeTruthy();
  });
});
