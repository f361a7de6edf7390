import { describe, expect, it } from 'vitest';
import { EMBED_MESSAGE } from '../domain/embed-message-names';
import { eventFromBridgeMessage, FLUTTER_CHANNEL } from './oya-consent';

// What a merchant's app hears from the consent page in its own webview (docs/sdk.md "In a mobile
// app"): the page posts JSON strings to the bridge; the app turns each into the web's event.

const json = (message: object) => JSON.stringify(message);

describe('eventFromBridgeMessage', () => {
  it('turns each message of the page into the event a web page hears', () => {
    const consent = { consentId: 'cns_1', status: 'granted' };
    expect(
      eventFromBridgeMessage(json({ type: EMBED_MESSAGE.consentSuccess, consentData: consent })),
    ).toEqual({ type: 'granted', consentId: 'cns_1', consent });
    expect(
      eventFromBridgeMessage(
        json({
          type: EMBED_MESSAGE.paymentStatus,
          consentId: 'cns_1',
          paymentId: 'pay_1',
          status: 'completed',
          method: 'card',
        }),
      ),
    ).toEqual({
      type: 'payment',
      consentId: 'cns_1',
      paymentId: 'pay_1',
      status: 'completed',
      method: 'card',
    });
    expect(
      eventFromBridgeMessage(
        json({ type: EMBED_MESSAGE.stepChange, consentId: 'cns_1', step: 'immediate_payment' }),
      ),
    ).toEqual({ type: 'step', consentId: 'cns_1', step: 'immediate_payment' });
    expect(
      eventFromBridgeMessage(json({ type: EMBED_MESSAGE.consentDeclined, consentId: 'cns_1' })),
    ).toEqual({ type: 'declined', consentId: 'cns_1' });
    expect(
      eventFromBridgeMessage(json({ type: EMBED_MESSAGE.consentCompleted, consentId: 'cns_1' })),
    ).toEqual({ type: 'completed', consentId: 'cns_1' });
    expect(
      eventFromBridgeMessage(
        json({ type: EMBED_MESSAGE.consentFailed, consentId: null, error: 'Consent not found' }),
      ),
    ).toEqual({
      type: 'failed',
      consentId: null,
      code: 'CONSENT_FAILED',
      error: 'Consent not found',
    });
    expect(eventFromBridgeMessage(json({ type: EMBED_MESSAGE.heightUpdate, height: 640 }))).toEqual(
      { type: 'resized', height: 640 },
    );
  });

  it("takes a message already parsed (a Flutter channel's decoded map)", () => {
    expect(eventFromBridgeMessage({ type: EMBED_MESSAGE.consentDeclined, consentId: 'c' })).toEqual(
      { type: 'declined', consentId: 'c' },
    );
  });

  it("answers null to what is not the page's, or only the frame's", () => {
    for (const message of [
      'not json',
      json([]),
      json({ type: 'something-else' }),
      json({ type: EMBED_MESSAGE.closeRequest }),
      json({ type: EMBED_MESSAGE.pageDialog, open: true }),
      json({ type: EMBED_MESSAGE.paymentStatus, consentId: 'c', paymentId: 'p', status: 'odd' }),
      json({ type: EMBED_MESSAGE.heightUpdate, height: -1 }),
      42,
    ]) {
      expect(eventFromBridgeMessage(message), String(message)).toBeNull();
    }
  });

  it('names the Flutter channel the page posts to', () => {
    expect(FLUTTER_CHANNEL).toBe('OyaConsentBridge');
  });
});
