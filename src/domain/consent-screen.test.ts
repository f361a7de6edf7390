import { describe, expect, it } from 'vitest';
import {
  consentPageView,
  type TConsentLoad,
  type TConsentScreenInput,
  type TConsentScreenKind,
} from './consent-screen';
import type { TConsent } from './schemas/consent';
import { aConsent, aPayment, anImmediatePayment } from './test-support/fixtures';

const pending = aConsent({ payments: [aPayment()] });
const granted = aConsent({ status: 'granted', grantedAt: '2026-11-20T14:30:00Z' });
const requiresAuth = aConsent({
  payments: [aPayment()],
  requirements: { requiresAuth: true, requiresAccount: false },
});
const withForm = aConsent({ payments: [aPayment()], formId: 'frm_1' });
const immediateOnly = aConsent({ payments: [anImmediatePayment()] });

const loaded = (consent: TConsent): TConsentLoad => ({ state: 'loaded', consent });
const failed = (status: number | null, serverMessage: string | null): TConsentLoad => ({
  state: 'failed',
  status,
  serverMessage,
});

type TRow = {
  name: string;
  input: Partial<Omit<TConsentScreenInput, 'params'>> & {
    params?: Partial<TConsentScreenInput['params']>;
  };
  screen: TConsentScreenKind;
  message?: string;
  /** For Consent Not Found: whether 'Try Again' may succeed. */
  retryable?: boolean;
  header: boolean;
  /** The merchant's byline where the header is hidden (embedded); false unless said. */
  byline?: boolean;
};

const view = ({ params, ...rest }: TRow['input']) =>
  consentPageView({
    load: { state: 'pending' },
    signedIn: false,
    productName: 'Oya Money',
    ...rest,
    params: { clientId: 'cli_1', embed: false, isPublic: false, ...params },
  });

describe('consentPageView: the screen of the consent page (spec §2, §6, §8)', () => {
  it.each<TRow>([
    {
      name: 'no clientId shows Missing Client ID, whatever the load says',
      input: { params: { clientId: null }, load: loaded(pending) },
      screen: 'missing-client-id',
      header: false,
    },
    {
      name: 'no clientId while nothing is asked for shows Missing Client ID',
      input: { params: { clientId: null } },
      screen: 'missing-client-id',
      header: false,
    },
    {
      name: 'a load on its way shows Loading',
      input: {},
      screen: 'loading',
      header: false,
    },
    {
      name: "a 404 shows Consent Not Found with the server's message",
      input: { load: failed(404, 'Consent not found or has expired') },
      screen: 'not-found',
      message: 'Consent not found or has expired',
      retryable: false,
      header: false,
    },
    {
      name: "a 403 shows Consent Not Found with the server's message",
      input: {
        load: failed(403, 'Unauthorized: This clientId is not authorized to access this consent'),
      },
      screen: 'not-found',
      message: 'Unauthorized: This clientId is not authorized to access this consent',
      retryable: false,
      header: false,
    },
    {
      name: "a 500 shows Consent Not Found with 'Failed to load consent data'",
      input: { load: failed(500, 'Something broke') },
      screen: 'not-found',
      message: 'Failed to load consent data',
      retryable: true,
      header: false,
    },
    {
      name: "an unreachable server shows Consent Not Found with 'Failed to load consent data'",
      input: { load: failed(null, null) },
      screen: 'not-found',
      message: 'Failed to load consent data',
      retryable: true,
      header: false,
    },
    {
      name: 'a granted consent shows Consent Granted, without the header',
      input: { load: loaded(granted) },
      screen: 'granted',
      header: false,
    },
    {
      name: 'a granted consent needing auth shows Consent Granted to an anonymous visitor',
      input: { load: loaded({ ...requiresAuth, status: 'granted' }) },
      screen: 'granted',
      header: false,
    },
    {
      name: 'a revoked consent shows that it was revoked, signed in or not, without the header',
      input: { load: loaded({ ...granted, status: 'revoked' }), signedIn: true },
      screen: 'revoked',
      header: false,
    },
    {
      name: 'a revoked consent needing auth shows that it was revoked to an anonymous visitor',
      input: { load: loaded({ ...requiresAuth, status: 'revoked' }) },
      screen: 'revoked',
      header: false,
    },
    {
      name: 'a declined consent says so, signed in or not, and offers no step to grant',
      input: { load: loaded({ ...pending, status: 'declined' }), signedIn: true },
      screen: 'declined',
      header: false,
    },
    {
      name: 'a pending consent with nothing in the way shows its summary and the header',
      input: { load: loaded(pending) },
      screen: 'pending-summary',
      header: true,
    },
    {
      name: "a pending consent embedded shows its summary with the merchant's byline, not the header",
      input: { params: { embed: true }, load: loaded(pending) },
      screen: 'pending-summary',
      header: false,
      byline: true,
    },
    {
      name: "signed in, embedded: the flow, with the merchant's byline, not the header",
      input: { params: { embed: true }, load: loaded(requiresAuth), signedIn: true },
      screen: 'flow',
      header: false,
      byline: true,
    },
    {
      name: 'embedded, the auth prompt names the merchant itself: no byline',
      input: { params: { embed: true }, load: loaded(requiresAuth) },
      screen: 'auth-prompt',
      header: false,
    },
    {
      name: 'embedded, an immediate payment only, signed in: no byline, as standalone',
      input: { params: { embed: true }, load: loaded(immediateOnly), signedIn: true },
      screen: 'flow',
      header: false,
    },
    {
      name: 'a consent of an immediate payment only is paid on its screen, without the header',
      input: { load: loaded(immediateOnly) },
      screen: 'immediate-payment',
      header: false,
    },
    {
      name: 'a consent with an immediate payment and a form goes through the steps of the flow',
      input: {
        load: loaded(aConsent({ payments: [anImmediatePayment()], formId: 'frm_1' })),
        signedIn: true,
      },
      screen: 'flow',
      header: true,
    },
    {
      name: 'an immediate payment only, signed in: the flow (saved accounts too), no header',
      input: { load: loaded(immediateOnly), signedIn: true },
      screen: 'flow',
      header: false,
    },
    {
      name: 'an immediate payment only, public viewer: the summary, nothing to pay',
      input: { params: { isPublic: true }, load: loaded(immediateOnly) },
      screen: 'pending-summary',
      header: false,
    },
    {
      name: 'auth required, anonymous: the auth prompt, with the header',
      input: { load: loaded(requiresAuth) },
      screen: 'auth-prompt',
      header: true,
    },
    {
      name: 'a form, anonymous: the auth prompt',
      input: { load: loaded(withForm) },
      screen: 'auth-prompt',
      header: true,
    },
    {
      name: 'auth required, product name not loaded yet: Loading, the header not yet',
      input: { load: loaded(requiresAuth), productName: null },
      screen: 'loading',
      header: false,
    },
    {
      name: 'auth required, signed in: the flow',
      input: { load: loaded(requiresAuth), signedIn: true },
      screen: 'flow',
      header: true,
    },
    {
      name: 'auth required, public viewer: the summary',
      input: { params: { isPublic: true }, load: loaded(requiresAuth) },
      screen: 'pending-summary',
      header: true,
    },
  ])('$name', ({ input, screen, message, retryable, header, byline = false }) => {
    const result = view(input);
    expect(result.screen.kind).toBe(screen);
    if (message !== undefined) {
      expect(result.screen).toEqual({ kind: 'not-found', message, retryable });
    }
    expect(result.header !== null).toBe(header);
    expect(result.byline !== null).toBe(byline);
  });

  it('hands the screen the consent it shows, and the header its counterparty', () => {
    expect(view({ load: loaded(pending) })).toEqual({
      screen: { kind: 'pending-summary', consent: pending, canSignIn: true },
      header: pending.counterparty,
      byline: null,
      consentsLink: false,
    });
    expect(view({ load: loaded(requiresAuth), productName: 'Oya Money' }).screen).toEqual({
      kind: 'auth-prompt',
      consent: requiresAuth,
      productName: 'Oya Money',
    });
    expect(view({ load: loaded(granted) }).screen).toEqual({ kind: 'granted', consent: granted });
  });
});

describe("a signed-out payer's way to sign in, and a signed-in payer's to 'Your consents'", () => {
  // Granted by its payment, the link of the account that paid still offered (after-payment.ts).
  const paidOffer = aConsent({
    status: 'granted',
    payments: [
      anImmediatePayment({
        status: 'executed',
        origin: { paymentMethod: 'bank_transfer', shouldPromptBankAccountLinking: true },
      }),
    ],
  });

  it('offers the sign-in on a payment alone, and opens the auth prompt once asked', () => {
    const offered = view({ load: loaded(immediateOnly) }).screen;
    expect(offered).toMatchObject({ kind: 'immediate-payment', canSignIn: true });
    const asked = view({ load: loaded(immediateOnly), signInAsked: true });
    expect(asked.screen).toEqual({
      kind: 'auth-prompt',
      consent: immediateOnly,
      productName: 'Oya Money',
    });
    // A payment alone has no header, its auth prompt neither: nothing above it moves.
    expect(asked.header).toBeNull();
    // Back: the payment as it was.
    expect(view({ load: loaded(immediateOnly), signInAsked: false }).screen.kind).toBe(
      'immediate-payment',
    );
  });

  it('offers no sign-in the prompt could not name, nor one asked without it', () => {
    const noProduct = { load: loaded(immediateOnly), productName: null };
    expect(view(noProduct).screen).toMatchObject({ kind: 'immediate-payment', canSignIn: false });
    expect(view({ ...noProduct, signInAsked: true }).screen.kind).toBe('immediate-payment');
  });

  it("opens the summary's sign-in as before; never in public mode", () => {
    expect(view({ load: loaded(pending), signInAsked: true }).screen.kind).toBe('auth-prompt');
    const publicView = { params: { isPublic: true }, load: loaded(pending), signInAsked: true };
    expect(view(publicView).screen.kind).toBe('pending-summary');
  });

  it('links "Your consents" on a signed-in payer\'s consent only', () => {
    expect(view({ load: loaded(pending), signedIn: true }).consentsLink).toBe(true);
    expect(view({ load: loaded(immediateOnly), signedIn: true }).consentsLink).toBe(true);
    expect(
      view({ params: { embed: true }, load: loaded(pending), signedIn: true }).consentsLink,
    ).toBe(true);
    expect(view({ load: loaded(pending) }).consentsLink).toBe(false);
    expect(view({ load: loaded(immediateOnly) }).consentsLink).toBe(false);
    // Public mode is read-only, signed in or not; Consent Granted links it itself.
    expect(
      view({ params: { isPublic: true }, load: loaded(pending), signedIn: true }).consentsLink,
    ).toBe(false);
    expect(view({ load: loaded(granted), signedIn: true }).consentsLink).toBe(false);
  });

  it('offers no sign-in on a payment already paid (its prompts after the payment do)', () => {
    expect(view({ load: loaded(paidOffer) }).screen).toMatchObject({
      kind: 'immediate-payment',
      canSignIn: false,
    });
    expect(view({ load: loaded(paidOffer), signInAsked: true }).screen.kind).toBe(
      'immediate-payment',
    );
  });
});
