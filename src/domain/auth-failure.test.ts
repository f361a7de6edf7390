import { describe, expect, it } from 'vitest';
import { authFailureAction } from './auth-failure';

describe('authFailureAction', () => {
  it.each([
    ['Temporary key expired', { kind: 'reauthenticate', statusText: 'Re-authenticating...' }],
    [
      'Error: temporary key expired at 12:00',
      { kind: 'reauthenticate', statusText: 'Re-authenticating...' },
    ],
    [
      'Signature invalid',
      { kind: 'show_error', message: 'Authentication failed. Please try again.' },
    ],
    [null, { kind: 'show_error', message: 'Authentication failed. Please try again.' }],
  ])('%j → %j', (cause, action) => {
    expect(authFailureAction(cause)).toEqual(action);
  });
});
