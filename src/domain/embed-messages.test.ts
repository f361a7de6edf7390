import { describe, expect, it } from 'vitest';
import { parseMessageFromParent } from './embed-messages';

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
