import { describe, expect, it } from 'vitest';
import { authFailureAction } from './auth-failure';
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
