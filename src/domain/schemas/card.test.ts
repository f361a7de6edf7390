import { describe, expect, it } from 'vitest';
import {
  ZCardChargeRequest,
  ZCardCompleteRequest,
  ZEncryptedCard,
  ZEncryptedField,
  ZPublicCardChargeRequest,
} from './card';

const envelope = {
  keyId: 'key_1',
  encryptedAesKey: 'QUJD',
  iv: 'AAAAAAAAAAAAAAAA',
  encryptedData: 'ZGF0YQ==',
  algorithm: 'RSA-OAEP+AES-GCM',
  version: '1.0',
};
const cardDetails = {
  encryptedCardNumber: envelope,
  encryptedExpiryDate: envelope,
  encryptedCvv: envelope,
};

describe('ZEncryptedField', () => {
  it('accepts an RSA-OAEP+AES-GCM 1.0 envelope', () => {
    expect(ZEncryptedField.safeParse(envelope).success).toBe(true);
  });

  it.each([
    ['another algorithm', { algorithm: 'RSA-PKCS1' }],
    ['another version', { version: '2.0' }],
    ['data that is not base64', { encryptedData: 'not base64!' }],
    ['no key id', { keyId: '' }],
  ])('refuses %s', (_, change) => {
    expect(ZEncryptedField.safeParse({ ...envelope, ...change }).success).toBe(false);
  });

  it('makes the PIN envelope optional', () => {
    expect(ZEncryptedCard.safeParse(cardDetails).success).toBe(true);
    expect(ZEncryptedCard.safeParse({ ...cardDetails, encryptedPin: envelope }).success).toBe(true);
  });
});

describe('card charge requests', () => {
  const linking = {
    saveCard: true,
    saveToAccount: { accountNumber: '0123456789', institutionCode: '000014' },
    cardDetails,
  };
  const payment = { paymentId: 'pay_1', cardDetails, saveCard: false };
  const savedSource = { paymentId: 'pay_1', sourceAccountId: 'acc_1', amount: 100, narration: 'x' };

  it.each([
    ['linking', linking],
    ['a card payment', payment],
    ['a saved-source payment', savedSource],
  ])('accepts %s on the authenticated endpoint', (_, body) => {
    expect(ZCardChargeRequest.safeParse(body).success).toBe(true);
  });

  it('refuses a body mixing two variants', () => {
    expect(ZCardChargeRequest.safeParse({ ...payment, sourceAccountId: 'acc_1' }).success).toBe(
      false,
    );
  });

  it('needs the consentId on the public endpoint and takes no saved source there', () => {
    expect(ZPublicCardChargeRequest.safeParse(payment).success).toBe(false);
    expect(ZPublicCardChargeRequest.safeParse({ ...payment, consentId: 'cns_1' }).success).toBe(
      true,
    );
    expect(ZPublicCardChargeRequest.safeParse({ ...linking, consentId: 'cns_1' }).success).toBe(
      true,
    );
    expect(ZPublicCardChargeRequest.safeParse({ ...savedSource, consentId: 'cns_1' }).success).toBe(
      false,
    );
  });

  it('takes an OTP or a bank token, never a blank one', () => {
    expect(ZCardCompleteRequest.safeParse({ paymentId: 'p', otp: '123456' }).success).toBe(true);
    expect(ZCardCompleteRequest.safeParse({ paymentId: 'p', otp: 'TKN-1' }).success).toBe(true);
    expect(ZCardCompleteRequest.safeParse({ paymentId: 'p', otp: '  ' }).success).toBe(false);
  });
});
