import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BVN_FORM_INITIAL,
  bvnFormReducer,
  toBvnCode,
  type TBvnFormAction,
  type TBvnFormState,
} from './bvn-form';

const send: TBvnFormAction = { type: 'code_requested', bvn: '2233 4455 667' };
const sent: TBvnFormAction = { type: 'code_sent' };
const verify: TBvnFormAction = { type: 'verify_requested', code: '123456' };

const ROUTES = {
  initial: [],
  sending: [send],
  code: [send, sent],
  resending: [send, sent, { type: 'resend_requested' }],
  verifying: [send, sent, verify],
} satisfies Record<string, TBvnFormAction[]>;
type TRoute = keyof typeof ROUTES;
const stateAt = (route: TRoute): TBvnFormState =>
  (ROUTES[route] as TBvnFormAction[]).reduce(bvnFormReducer, BVN_FORM_INITIAL);

const TRANSITIONS: Array<[string, TRoute, TBvnFormAction, Record<string, unknown>]> = [
  [
    'sends the code for 11 digits, spaces allowed',
    'initial',
    send,
    { phase: 'enter_bvn', bvn: '22334455667', busy: true, error: null },
  ],
  [
    'refuses fewer than 11 digits in the catalogue words, keeping what was typed',
    'initial',
    { type: 'code_requested', bvn: '2233' },
    { phase: 'enter_bvn', bvn: '2233', busy: false, error: 'Enter your 11-digit BVN' },
  ],
  [
    'asks for the code once it was asked for, naming no phone',
    'sending',
    sent,
    { phase: 'enter_code', busy: false, error: null, notice: null },
  ],
  [
    'shows a refused send on the BVN field',
    'sending',
    { type: 'send_failed', code: 'PHONE_CODE_RATE_LIMITED', message: 'Too many codes' },
    { phase: 'enter_bvn', busy: false, error: 'Too many codes' },
  ],
  [
    'sends again from the code field',
    'code',
    { type: 'resend_requested' },
    { phase: 'enter_code', resending: true },
  ],
  [
    'says a new code went if the BVN is on record',
    'resending',
    sent,
    {
      phase: 'enter_code',
      resending: false,
      notice:
        'If this BVN is on record, we sent a new code to the phone number it is registered with.',
    },
  ],
  [
    'keeps the code field when sending again is refused for too many codes',
    'resending',
    { type: 'send_failed', code: 'PHONE_CODE_RATE_LIMITED', message: 'Too many codes' },
    { phase: 'enter_code', resending: false, error: 'Too many codes' },
  ],
  [
    'returns to the BVN field when sending again finds the BVN malformed',
    'resending',
    { type: 'send_failed', code: 'BVN_INVALID', message: 'Enter your 11-digit BVN' },
    { phase: 'enter_bvn', error: 'Enter your 11-digit BVN' },
  ],
  ['verifies 6 digits', 'code', verify, { phase: 'enter_code', busy: true }],
  [
    'refuses a code of other than 6 digits',
    'code',
    { type: 'verify_requested', code: '12' },
    { busy: false, error: 'Enter the 6-digit code we sent you' },
  ],
  [
    'is verified',
    'verifying',
    { type: 'verified', last4: '5667' },
    { phase: 'verified', last4: '5667' },
  ],
  [
    'shows a wrong code with the tries left',
    'verifying',
    {
      type: 'verify_failed',
      code: 'PHONE_CODE_INCORRECT',
      message: 'That code is not correct. 4 tries left.',
    },
    { phase: 'enter_code', busy: false, error: 'That code is not correct. 4 tries left.' },
  ],
  [
    'keeps the code field for a locked code, whose message asks for a new one',
    'verifying',
    { type: 'verify_failed', code: 'PHONE_CODE_LOCKED' },
    { phase: 'enter_code', error: 'Too many wrong tries. Please request a new code.' },
  ],
  [
    'returns to the BVN field when the proven BVN is another payer’s',
    'verifying',
    { type: 'verify_failed', code: 'BVN_TAKEN', message: 'Taken' },
    { phase: 'enter_bvn', bvn: '22334455667', error: 'Taken' },
  ],
  [
    'goes back to the BVN field, the BVN kept',
    'code',
    { type: 'change_bvn' },
    { phase: 'enter_bvn', bvn: '22334455667', busy: false, error: null },
  ],
];

describe('bvnFormReducer', () => {
  it.each(TRANSITIONS)('%s', (_, route, action, expected) => {
    expect(bvnFormReducer(stateAt(route), action)).toMatchObject(expected);
  });

  const REFUSED: Array<[string, TRoute, TBvnFormAction]> = [
    ['a second Send code while sending', 'sending', send],
    ['a code answer nobody asked for', 'initial', sent],
    ['a second Verify while verifying', 'verifying', verify],
    ['Send again while verifying', 'verifying', { type: 'resend_requested' }],
    ['Verify while sending again', 'resending', verify],
    ['Change BVN while verifying', 'verifying', { type: 'change_bvn' }],
    ['a verification nobody asked for', 'code', { type: 'verified', last4: '1234' }],
    ['a failure nobody asked for', 'code', { type: 'verify_failed' }],
  ];
  it.each(REFUSED)('ignores %s', (_, route, action) => {
    const before = stateAt(route);
    expect(bvnFormReducer(before, action)).toBe(before);
  });

  it('reads a code of 6 digits only', () => {
    expect(toBvnCode(' 123 456 ')).toBe('123456');
    expect(toBvnCode('12345')).toBeNull();
    expect(toBvnCode('12345a')).toBeNull();
  });

  it('is verified only after a verification was asked for', () => {
    const pool: TBvnFormAction[] = [
      send,
      { type: 'code_requested', bvn: '1' },
      sent,
      { type: 'send_failed' },
      { type: 'resend_requested' },
      verify,
      { type: 'verify_requested', code: 'x' },
      { type: 'verified', last4: '5667' },
      { type: 'verify_failed' },
      { type: 'change_bvn' },
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pool), { maxLength: 40 }), (actions) => {
        let state = BVN_FORM_INITIAL;
        for (const action of actions) {
          const next = bvnFormReducer(state, action);
          if (next.phase === 'verified' && state.phase !== 'verified') {
            expect(state).toMatchObject({ phase: 'enter_code', busy: true });
          }
          state = next;
        }
      }),
      { numRuns: 300 },
    );
  });
});
