import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, errorBody, errorStatus, formatErrorMessage, isErrorCode } from './errors';
import { ZApiErrorBody } from './schemas/api-error';

type TDocRow = { code: string; status: number; message: string };

/** Rows of the ERRORS.md table: | `CODE` | 404 | Message |. */
function parseErrorsDoc(markdown: string): TDocRow[] {
  return [...markdown.matchAll(/^\|\s*`([A-Z0-9_]+)`\s*\|\s*(\d{3})\s*\|\s*(.+?)\s*\|$/gm)].map(
    ([, code = '', status = '', message = '']) => ({ code, status: Number(status), message }),
  );
}

const doc = parseErrorsDoc(readFileSync(new URL('./ERRORS.md', import.meta.url), 'utf8'));
const catalogue = Object.entries(ERROR_CATALOGUE).map(([code, e]) => ({ code, ...e }));

describe('ERRORS.md and the catalogue', () => {
  it('documents every catalogue code with its status and message', () => {
    expect(doc).toEqual(expect.arrayContaining(catalogue));
  });

  it('documents no code the catalogue lacks, and each code once', () => {
    const documented = doc.map((row) => row.code);
    expect(documented.filter((code) => !isErrorCode(code))).toEqual([]);
    expect(new Set(documented).size).toBe(documented.length);
  });

  it('has a parser that notices a missing or a wrong row', () => {
    const rows = parseErrorsDoc(
      '| `A_CODE` | 404 | Gone |\n| not a row |\n| `B`    | 500    | Oops   |',
    );
    expect(rows).toEqual([
      { code: 'A_CODE', status: 404, message: 'Gone' },
      { code: 'B', status: 500, message: 'Oops' },
    ]);
  });
});

// spec §8 (and the §4/§5 messages a page or server raises), copied exactly.
const SPEC_MESSAGES = [
  'Consent not found or has expired',
  'Unauthorized: This clientId is not authorized to access this consent',
  'Failed to load consent data',
  'Missing clientId parameter',
  'No consent data available for this payment request',
  'Failed to create consent request',
  'clientId URL parameter is required',
  'Failed to create account link',
  'Failed to confirm payment',
  'Payment not yet confirmed. Please wait and try again.',
  'Failed to verify account',
  'Failed to link card',
  'Failed to submit OTP',
  'OTP verification failed',
  '3DS authentication failed',
  'Card linking failed',
  'Card linking failed due to connection error',
  'Failed to reconnect to server',
  'Failed to retry card linking',
  'No stored card details found for retry',
  'Card payment failed',
  'Failed to process card payment',
  'Failed to save card. Please try again.',
  'Failed to start account validation',
  'Failed to validate account',
  'No immediate payment found',
  'Failed to grant consent',
  'Payment failed',
  'Direct debit payment failed',
  'Consent was rejected by user',
  'No OTP data available',
  'Consent failed',
  'Authentication failed. Please try again.',
  'Login failed',
  'Authentication failed',
  'Authentication token not available',
  'Failed to delete account',
  'Failed to get encryption key',
  'Failed to encrypt card details',
  'Failed to encrypt field',
  'API request failed',
  'API call failed: {status}',
  'Token expired - redirecting to login',
  'Transaction timed out',
  'Device is busy, please wait',
  'Invalid transaction parameters. Please try again with a different amount or reset the device.',
  'Transaction amount is out of range. Please use a smaller amount.',
  'Invalid transaction format. Please reset the device and try again.',
  'Device error: {code}',
  'Transaction declined by card or issuer',
  'Please use chip card insertion',
  'Failed to load QPOS SDK',
  'Failed to discover Bluetooth device',
  'Failed to connect to device',
  'Not connected to device',
  'Bluetooth characteristics not properly set up',
  'Failed to reset device',
  'Some payments failed. Please try again.',
  'Something went wrong. Please try again.',
  'Please enter a valid account number (minimum 10 digits)',
  'No payment ID found for OTP submission',
  'No account link ID found',
  'No Remita transaction reference found for auth submission',
  'No account details found for card linking',
  'Discovery ID is required for authentication',
  'Card number must be 16 digits',
  'Card number must contain only digits',
  'Please select a valid month',
  'Please select a valid year',
  'Card has expired',
  'CVV must be 3 or 4 digits',
  'CVV must contain only digits',
  'PIN must be 4 digits',
  'PIN must contain only digits',
];

describe('ERROR_CATALOGUE', () => {
  const messages = new Set<string>(catalogue.map((e) => e.message));

  it.each(SPEC_MESSAGES)('has a code for %j', (message) => {
    expect(messages.has(message)).toBe(true);
  });

  it('answers only 4xx and 5xx statuses', () => {
    for (const { status } of catalogue) {
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
    }
  });

  it.each([
    ['TOKEN_EXPIRED', 401],
    ['DISCOVERY_ID_REQUIRED', 400],
    ['CONSENT_NOT_FOUND', 404],
    ['CONSENT_FORBIDDEN', 403],
  ] as const)('%s answers %i', (code, status) => {
    expect(errorStatus(code)).toBe(status);
  });
});

describe('errorBody and formatErrorMessage', () => {
  it('builds the server failure body with the catalogue message or a more precise one', () => {
    expect(errorBody('NO_OTP_DATA')).toEqual({
      success: false,
      error: { code: 'NO_OTP_DATA', message: 'No OTP data available' },
    });
    expect(ZApiErrorBody.parse(errorBody('NOT_FOUND', 'No such card'))).toMatchObject({
      error: { message: 'No such card' },
    });
  });

  it.each([
    ['API_CALL_FAILED', { status: 503 }, 'API call failed: 503'],
    ['TERMINAL_DEVICE_ERROR', { code: 'E42' }, 'Device error: E42'],
    ['TERMINAL_DEVICE_ERROR', {}, 'Device error: {code}'],
    ['CARD_EXPIRED', { code: 'x' }, 'Card has expired'],
  ] as const)('fills %s with %j', (code, values, message) => {
    expect(formatErrorMessage(code, values)).toBe(message);
  });

  it('tells catalogue codes from other strings', () => {
    expect(isErrorCode('TOKEN_EXPIRED')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
  });
});
