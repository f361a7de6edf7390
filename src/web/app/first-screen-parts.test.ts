import { describe, expect, it } from 'vitest';
import { ALL_CAPABILITIES_ON } from '../../domain/capabilities';
import { aConsent } from '../../domain/test-support/fixtures';
import type { TConsent } from '../../domain/schemas/consent';
import { firstScreenParts } from './first-screen-parts';

// The parts of a first screen whose code loads apart from the consent page: the page loads them
// before it hydrates what the server drew (first-screen.ts), and the server names their chunks.
const answersFor = (consent: TConsent) => ({
  publicConfig: {
    success: true as const,
    productName: 'Oya',
    debugTools: false,
    sandbox: true,
    capabilities: ALL_CAPABILITIES_ON,
    terminal: 'reader' as const,
  },
  webBluetooth: false,
  consent: {
    consentId: consent.consentId,
    clientId: 'cli_demo',
    answer: { success: true as const, consent, embedOrigins: [], returnUrl: null },
  },
});

describe('the first screen of a settled consent', () => {
  it.each(['granted', 'revoked', 'declined'] as const)('%s: its screens are a part', (status) => {
    const parts = firstScreenParts(answersFor(aConsent({ status })), '?clientId=cli_demo');
    expect(parts).toContain('settled');
  });

  it('pending: no settled screen is loaded before the page hydrates', () => {
    const parts = firstScreenParts(answersFor(aConsent()), '?clientId=cli_demo');
    expect(parts).not.toContain('settled');
  });
});

describe('the first screen of a pending consent', () => {
  it('the summary: its overview is a part, loaded before the page hydrates', () => {
    // aConsent asks for data sharing too: the summary, not the Immediate Payment screen.
    const parts = firstScreenParts(answersFor(aConsent()), '?clientId=cli_demo');
    expect(parts).toContain('summary');
    expect(parts).not.toContain('immediate-payment');
  });
});
