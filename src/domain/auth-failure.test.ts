import { describe, expect, it } from 'vitest';
import { authFailureAction, isApprovalNotGiven } from './auth-failure';
import type { TErrorCode } from './errors';

describe('authFailureAction', () => {
  it.each<[TErrorCode | null, ReturnType<typeof authFailureAction>]>([
    ['TEMPORARY_KEY_EXPIRED', { kind: 'reauthenticate', statusText: 'Re-authenticating...' }],
    [
      'TEMPORARY_KEY_USED',
      { kind: 'show_error', message: 'Authentication failed. Please try again.' },
    ],
    [
      'GRANT_SIGNATURE_INVALID',
      { kind: 'show_error', message: 'Authentication failed. Please try again.' },
    ],
    [null, { kind: 'show_error', message: 'Authentication failed. Please try again.' }],
  ])('%j → %j', (code, action) => {
    expect(authFailureAction(code)).toEqual(action);
  });
});

describe('isApprovalNotGiven', () => {
  it("knows a passkey prompt that ended without approval by WebAuthn's error names", () => {
    const named = (name: string) => Object.assign(new Error('x'), { name });
    expect(isApprovalNotGiven(named('NotAllowedError'))).toBe(true);
    expect(isApprovalNotGiven(named('AbortError'))).toBe(true);
    expect(isApprovalNotGiven(named('TypeError'))).toBe(false);
    expect(isApprovalNotGiven('NotAllowedError')).toBe(false);
  });
});
