import { describe, expect, it } from 'vitest';
import { ZAccountLink, ZAltServiceConfirmRequest, ZCreateAccountLinkRequest } from './account-link';

const link = {
  id: 'lnk_1',
  payInDetails: null,
  authParams: [],
  remitaTransRef: null,
  requestId: null,
  remitaLogoUrl: null,
  formUrl: null,
};

describe('ZAccountLink', () => {
  it('defaults the mandate type to otp', () => {
    expect(ZAccountLink.parse(link).mandateType).toBe('otp');
  });

  it('needs the form URL of a paper mandate', () => {
    expect(ZAccountLink.safeParse({ ...link, mandateType: 'paper' }).success).toBe(false);
    expect(
      ZAccountLink.safeParse({ ...link, mandateType: 'paper', formUrl: 'https://x/f.pdf' }).success,
    ).toBe(true);
  });
});

describe('account-link requests', () => {
  it.each([
    ['9 digits', '012345678', false],
    ['10 digits', '0123456789', true],
    ['11 digits', '01234567891', false],
  ])('creates a link only for a 10-digit account number: %s', (_, accountNumber, ok) => {
    const body = {
      accountNumber,
      bankName: 'Access Bank',
      accountName: 'Ada',
      institutionCode: '000014',
    };
    expect(ZCreateAccountLinkRequest.safeParse(body).success).toBe(ok);
  });

  it('refuses blank verification values (spec §5: required and non-blank)', () => {
    const body = (value: string) => ({
      remitaTransRef: 'rrr',
      authParams: [{ param1: 'OTP', value }],
    });
    expect(ZAltServiceConfirmRequest.safeParse(body('123456')).success).toBe(true);
    expect(ZAltServiceConfirmRequest.safeParse(body('  ')).success).toBe(false);
  });
});
