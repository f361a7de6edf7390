// @vitest-environment jsdom
import { ALL_CAPABILITIES_ON } from '../../../domain/capabilities';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TConsent } from '../../../domain/schemas/consent';
import { aConsent, aPayment, anImmediatePayment } from '../../../domain/test-support/fixtures';
import type {
  TAuthPromptScreenProps,
  TFormStepProps,
  TPayNowScreenProps,
  TPostToParent,
} from '../../contracts/consent-slots';
import { ConsentPage } from './consent-page';

// The page renders the screen the domain chooses (src/domain/consent-screen.ts, tested there
// state by state); here: that each choice reaches its screen, that a screen another feature
// owns gets what it needs, and that the parent hears what the embed protocol says.

const EMBED_ORIGINS = ['https://shop.example'];

function answerWith(consent: TConsent | null) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/public-config') {
        return new Response(
          JSON.stringify({
            success: true,
            productName: 'Oya Money',
            debugTools: false,
            sandbox: true,
            capabilities: ALL_CAPABILITIES_ON,
            terminal: 'reader',
          }),
        );
      }
      if (url === `/api/consent/${consent?.consentId ?? 'cns_1'}?clientId=cli_1` && consent) {
        return new Response(
          JSON.stringify({ success: true, consent, embedOrigins: EMBED_ORIGINS, returnUrl: null }),
        );
      }
      const error = { code: 'CONSENT_NOT_FOUND', message: 'Consent not found or has expired' };
      return new Response(JSON.stringify({ success: false, error }), { status: 404 });
    }),
  );
}

function AuthPromptStub({ consent, productName, params }: TAuthPromptScreenProps) {
  return (
    <p>
      auth prompt for {consent.consentId} by {productName} with {params.clientId}
    </p>
  );
}

function PayNowStub({ payment, onPaymentStatus }: TPayNowScreenProps) {
  // A card charged, the same status said again (a re-render), then the payment completed.
  const pay = () => {
    const report = { paymentId: payment.paymentId, method: 'card', attempt: '1' } as const;
    onPaymentStatus?.({ ...report, status: 'started' });
    onPaymentStatus?.({ ...report, status: 'started' });
    onPaymentStatus?.({ ...report, status: 'completed' });
  };
  return (
    <button type="button" onClick={pay}>
      pay now {payment.paymentId}
    </button>
  );
}

function FormStepStub({ consent, clientId, readOnly }: TFormStepProps) {
  return (
    <p>
      form {consent.formId} of {consent.consentId} with {clientId}
      {readOnly ? ', read-only' : ''}
    </p>
  );
}

function renderPage(search: string, postToParent: TPostToParent = vi.fn(() => true)) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ConsentPage
        consentId="cns_1"
        search={search}
        signedIn={false}
        screens={{
          AuthPrompt: AuthPromptStub,
          PayNow: PayNowStub,
          RepaymentAccounts: () => <p>Repayment accounts</p>,
          SavedAccounts: () => <p>Saved accounts</p>,
          SaveCardPrompt: () => <p>Save Your Card</p>,
          LinkAccountPanel: () => <p>Link Account</p>,
          BvnVerification: () => <p>Verify your BVN</p>,
          FormStep: FormStepStub,
          ChipTerminal: () => <p>Chip Card Terminal</p>,
          PushedTerminal: () => <p>Chip Card Terminal</p>,
          AddPasskey: () => <p>Create a passkey</p>,
          signGrant: () => Promise.reject(new Error('no passkey in this test')),
        }}
        postToParent={postToParent}
      />
    </QueryClientProvider>,
  );
  return postToParent;
}

beforeEach(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ConsentPage', () => {
  it('shows a pending consent under its header', async () => {
    answerWith(aConsent({ payments: [aPayment()] }));
    renderPage('?clientId=cli_1');
    expect(await screen.findByRole('heading', { name: 'They would like to:' })).toBeTruthy();
    expect(screen.getByRole('banner').textContent).toContain('FitLife Gym');
  });

  it('shows the form of a consent read-only in public mode (spec §2), and not otherwise', async () => {
    answerWith(aConsent({ formId: 'frm_1', payments: [aPayment()] }));
    renderPage('?clientId=cli_1&public=true');
    expect(await screen.findByText('form frm_1 of cns_1 with cli_1, read-only')).toBeTruthy();
    cleanup();
    // A summary of a consent without a form has none.
    answerWith(aConsent({ formId: null, payments: [aPayment()] }));
    renderPage('?clientId=cli_1&public=true');
    expect(await screen.findByRole('heading', { name: 'They would like to:' })).toBeTruthy();
    expect(screen.queryByText(/^form /)).toBeNull();
  });

  it("hands the auth prompt, another feature's screen, the consent, product and clientId", async () => {
    answerWith(
      aConsent({
        payments: [aPayment()],
        requirements: { requiresAuth: true, requiresAccount: false },
      }),
    );
    renderPage('?clientId=cli_1');
    expect(await screen.findByText('auth prompt for cns_1 by Oya Money with cli_1')).toBeTruthy();
  });

  it("shows Consent Not Found with the server's message", async () => {
    answerWith(null);
    renderPage('?clientId=cli_1');
    expect((await screen.findByRole('alert')).textContent).toBe('Consent not found or has expired');
    expect(screen.queryByRole('banner')).toBeNull();
  });

  it('tells an embedding parent of a missing clientId, and shows Missing Client ID', async () => {
    answerWith(null);
    const postToParent = renderPage('?embed=true');
    expect(await screen.findByRole('heading', { name: 'Missing Client ID' })).toBeTruthy();
    expect(postToParent).toHaveBeenCalledWith({
      type: 'oya-money-consent-failed',
      consentId: 'cns_1',
      error: 'Missing clientId parameter',
    });
  });

  it('tells a registered parent of a granted consent once', async () => {
    const granted = aConsent({ status: 'granted', grantedAt: '2026-11-20T14:30:00Z' });
    answerWith(granted);
    const postToParent = renderPage('?clientId=cli_1&embed=true');
    expect(await screen.findByRole('heading', { name: 'Consent Granted' })).toBeTruthy();
    const successes = vi
      .mocked(postToParent)
      .mock.calls.filter(([message]) => message.type === 'oya-money-consent-success');
    expect(successes).toEqual([
      [{ type: 'oya-money-consent-success', consentData: granted }, EMBED_ORIGINS],
    ]);
  });

  it('hands a registered parent the consent once it has loaded (oya-money-consent-data)', async () => {
    const pending = aConsent();
    answerWith(pending);
    const postToParent = renderPage('?clientId=cli_1&embed=true');
    expect(await screen.findByRole('main')).toBeTruthy();
    await waitFor(() =>
      expect(
        vi.mocked(postToParent).mock.calls.filter(([m]) => m.type === 'oya-money-consent-data'),
      ).toEqual([[{ type: 'oya-money-consent-data', consentData: pending }, EMBED_ORIGINS]]),
    );
  });

  const ours = (postToParent: TPostToParent) =>
    vi
      .mocked(postToParent)
      .mock.calls.filter(([m]) =>
        [
          'oya-money-step-change',
          'oya-money-payment-status',
          'oya-money-consent-declined',
        ].includes(m.type),
      );

  it('tells a registered parent the one step of a payment alone, and each payment status once', async () => {
    answerWith(aConsent({ payments: [anImmediatePayment()] }));
    const postToParent = renderPage('?clientId=cli_1&embed=true');
    (await screen.findByRole('button', { name: 'pay now pay_now' })).click();
    const payment = { consentId: 'cns_1', paymentId: 'pay_now', method: 'card' };
    await waitFor(() =>
      expect(ours(postToParent)).toEqual([
        [
          { type: 'oya-money-step-change', consentId: 'cns_1', step: 'immediate_payment' },
          EMBED_ORIGINS,
        ],
        [{ type: 'oya-money-payment-status', ...payment, status: 'started' }, EMBED_ORIGINS],
        [{ type: 'oya-money-payment-status', ...payment, status: 'completed' }, EMBED_ORIGINS],
      ]),
    );
  });

  it('tells a registered parent of a declined consent once', async () => {
    answerWith(aConsent({ status: 'declined' }));
    const postToParent = renderPage('?clientId=cli_1&embed=true');
    expect(await screen.findByRole('heading', { name: 'Consent Declined' })).toBeTruthy();
    await waitFor(() =>
      expect(ours(postToParent)).toEqual([
        [{ type: 'oya-money-consent-declined', consentId: 'cns_1' }, EMBED_ORIGINS],
      ]),
    );
  });

  it('tells a page not embedded nothing of steps and payments', async () => {
    answerWith(aConsent({ payments: [anImmediatePayment()] }));
    const postToParent = renderPage('?clientId=cli_1');
    (await screen.findByRole('button', { name: 'pay now pay_now' })).click();
    expect(ours(postToParent)).toEqual([]);
  });
});
