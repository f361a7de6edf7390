import { describe, expect, it } from 'vitest';
import {
  newDeviceMessage,
  passkeySignsFrom,
  teamPasskeyMessage,
  UNAPPROVED_PASSKEY_WAIT_MS,
} from './passkey-trust';

const addedAt = new Date('2026-11-25T02:57:00Z');

describe('passkeySignsFrom', () => {
  it('is the moment it was added when it needed no approval or had one', () => {
    expect(passkeySignsFrom({ approval: 'not-needed', createdAt: addedAt })).toEqual(addedAt);
    expect(passkeySignsFrom({ approval: 'approved', createdAt: addedAt })).toEqual(addedAt);
  });

  it('is 24 hours later for a passkey added without approval', () => {
    expect(UNAPPROVED_PASSKEY_WAIT_MS).toBe(86_400_000);
    expect(passkeySignsFrom({ approval: 'none', createdAt: addedAt })).toEqual(
      new Date('2026-11-26T02:57:00Z'),
    );
  });
});

describe('newDeviceMessage', () => {
  const base = {
    productName: 'Oya Money',
    addedAt,
    accountPageUrl: 'https://pay.example/consents#devices',
  };

  it('says when, from when it may approve payments, and where to remove it', () => {
    const text = newDeviceMessage({
      ...base,
      approval: 'none',
      signsFrom: passkeySignsFrom({ approval: 'none', createdAt: addedAt }),
    });
    expect(text).toBe(
      'A new device was added to your Oya Money account on 25 Nov 2026, 3:57 am. It can sign you in, and can approve payments, mandates and account links from 26 Nov 2026, 3:57 am. If it was not you, remove it now on your account page: https://pay.example/consents#devices',
    );
  });

  it('says that one of the payer’s passkeys approved it', () => {
    expect(newDeviceMessage({ ...base, approval: 'approved', signsFrom: addedAt })).toBe(
      'A new device was added to your Oya Money account on 25 Nov 2026, 3:57 am, approved with one of your passkeys. If it was not you, remove it on your account page: https://pay.example/consents#devices',
    );
  });
});

describe('teamPasskeyMessage', () => {
  it('names the member, the team, until when the passkey changes nothing, and the Team page', () => {
    expect(
      teamPasskeyMessage({
        productName: 'Oya Money',
        memberName: 'Bisi Adeyemi',
        memberPhone: '0803 000 0001',
        merchantName: 'Kemi Fabrics',
        addedAt,
        changesFrom: passkeySignsFrom({ approval: 'none', createdAt: addedAt }),
        teamPageUrl: 'https://pay.example/dashboard/team',
      }),
    ).toBe(
      "Oya Money: Bisi Adeyemi (0803 000 0001) of Kemi Fabrics's dashboard team added a passkey on 25 Nov 2026, 3:57 am with an SMS code alone. It can change nothing on the dashboard until 26 Nov 2026, 3:57 am. If it was not them, remove them on the Team page: https://pay.example/dashboard/team",
    );
  });
});
