import { describe, expect, it } from 'vitest';
import { codeSentMessage, signInCodeMessage } from './phone-code-texts';

describe('phone code texts', () => {
  it('gives the sign-in code, its lifetime and the WebOTP line', () => {
    expect(
      signInCodeMessage({
        productName: 'Oya Money',
        code: '012345',
        minutes: 5,
        host: 'localhost',
      }),
    ).toBe(
      'Oya Money: your code is 012345. It expires in 5 minutes. Never share it with anyone.\n\n@localhost #012345',
    );
  });

  it('says where a code went, in the national format', () => {
    expect(codeSentMessage('+2348031234567')).toBe('We sent a 6-digit code to 0803 123 4567');
  });
});
