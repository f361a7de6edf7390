import { describe, expect, it } from 'vitest';
import { cardSaveNotSupportedMessage } from './card-save';

describe('cardSaveNotSupportedMessage', () => {
  it("keeps the spec's 'Not supported', names the bank and offers another account", () => {
    expect(cardSaveNotSupportedMessage('Access Bank')).toBe(
      'Not supported: Access Bank does not take cards, so your card cannot be saved to this account. Choose another account, or enter another account number.',
    );
  });
});
