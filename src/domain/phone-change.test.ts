import { describe, expect, it } from 'vitest';
import { phoneChangeCodeMessage, phoneChangedMessage } from './phone-change';

describe('phoneChangeCodeMessage', () => {
  it('names what the code is for and ends with the WebOTP line', () => {
    expect(
      phoneChangeCodeMessage({
        productName: 'Oya Money',
        code: '012345',
        minutes: 5,
        host: 'localhost',
      }),
    ).toBe(
      'Oya Money: your code is 012345, to make this number your sign-in number. It expires in 5 minutes. Never share it with anyone.\n\n@localhost #012345',
    );
  });
});

describe('phoneChangedMessage', () => {
  it('tells the old number when, to which masked number, and what to do if it was not the payer', () => {
    expect(
      phoneChangedMessage({
        productName: 'Oya Money',
        newPhoneNumber: '+2348031234542',
        changedAt: new Date('2026-11-25T02:57:00Z'),
        accountPageUrl: 'https://pay.example/consents#devices',
      }),
    ).toBe(
      'The sign-in number of your Oya Money account was changed from this number to 0803 *** **42 on 25 Nov 2026, 3:57 am. If it was not you, sign in with your passkey at https://pay.example/consents#devices, change the number back and remove any device you do not know, and ask your mobile network whether your SIM was swapped.',
    );
  });
});
