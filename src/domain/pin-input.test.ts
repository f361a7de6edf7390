import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canSubmitPin, sanitizePinInput } from './pin-input';

describe('sanitizePinInput', () => {
  it.each([
    ['12a3', '123'],
    ['123456', '1234'],
  ])('keeps at most 4 digits: %j → %j', (raw, pin) => {
    expect(sanitizePinInput(raw)).toBe(pin);
  });

  it('is idempotent and never exceeds 4 characters', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const once = sanitizePinInput(raw);
        expect(sanitizePinInput(once)).toBe(once);
        expect(once.length).toBeLessThanOrEqual(4);
      }),
    );
  });
});

describe('canSubmitPin', () => {
  it.each([
    ['123', false],
    ['1234', true],
    ['12345', false],
    ['12a4', false],
  ])('needs exactly 4 digits: %j → %s', (pin, ok) => {
    expect(canSubmitPin(pin)).toBe(ok);
  });
});
