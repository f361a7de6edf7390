import { describe, expect, it } from 'vitest';
import { EMBED_MESSAGE, ZEmbedMessage, carriesConsentData } from './embed-messages';
import { parseMessageFromParent } from './parent-messages';

describe('parseMessageFromParent (spec §7 messages from the parent)', () => {
  it('takes the shapes the spec lists', () => {
    expect(parseMessageFromParent({ type: 'authentication-updated' })).toEqual({
      type: 'authentication-updated',
    });
    expect(parseMessageFromParent({ type: 'attest-height-update', height: 320 })).toEqual({
      type: 'attest-height-update',
      height: 320,
    });
  });

  it('ignores anything else', () => {
    expect(parseMessageFromParent('authentication-updated')).toBeNull();
    expect(parseMessageFromParent({ type: 'oya-money-height-update', height: 3 })).toBeNull();
    expect(parseMessageFromParent({ type: 'attest-height-update', height: -1 })).toBeNull();
    expect(parseMessageFromParent(null)).toBeNull();
  });
});

describe('our step, payment and decline messages to the parent', () => {
  const ours = [
    { type: EMBED_MESSAGE.stepChange, consentId: 'cns_1', step: 'future_payments' },
    {
      type: EMBED_MESSAGE.paymentStatus,
      consentId: 'cns_1',
      paymentId: 'pay_1',
      status: 'started',
      method: 'bank_transfer',
    },
    { type: EMBED_MESSAGE.paymentStatus, consentId: 'cns_1', paymentId: 'pay_1', status: 'failed' },
    { type: EMBED_MESSAGE.consentDeclined, consentId: 'cns_1' },
  ];

  it('parses each as it is sent', () => {
    for (const message of ours) expect(ZEmbedMessage.parse(message)).toEqual(message);
  });

  it('refuses a step the flow does not have, and a status or method the payment does not', () => {
    const refused = [
      { type: EMBED_MESSAGE.stepChange, consentId: 'cns_1', step: 'payment' },
      { type: EMBED_MESSAGE.paymentStatus, consentId: 'cns_1', paymentId: 'p', status: 'paid' },
      {
        type: EMBED_MESSAGE.paymentStatus,
        consentId: 'cns_1',
        paymentId: 'p',
        status: 'started',
        method: 'cash',
      },
      { type: EMBED_MESSAGE.consentDeclined },
    ];
    for (const message of refused) expect(ZEmbedMessage.safeParse(message).success).toBe(false);
  });

  it('go only to a registered origin, as they carry the consent', () => {
    for (const message of ours) expect(carriesConsentData(ZEmbedMessage.parse(message))).toBe(true);
  });
});

describe('the page telling how its frame is shown: Escape and its own dialogs', () => {
  const shown = [
    { type: EMBED_MESSAGE.closeRequest },
    { type: EMBED_MESSAGE.pageDialog, open: true },
    { type: EMBED_MESSAGE.pageDialog, open: false },
  ];

  it('parses each as it is sent, and refuses a dialog message without its state', () => {
    for (const message of shown) expect(ZEmbedMessage.parse(message)).toEqual(message);
    expect(ZEmbedMessage.safeParse({ type: EMBED_MESSAGE.pageDialog }).success).toBe(false);
  });

  it("go to the parent's own origin, as they carry nothing of the consent", () => {
    for (const message of shown) {
      expect(carriesConsentData(ZEmbedMessage.parse(message))).toBe(false);
    }
  });
});
