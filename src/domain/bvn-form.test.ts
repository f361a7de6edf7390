import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BVN_FORM_INITIAL,
  bvnFormReducer,
  toBvnCode,
  type TBvnFormAction,
  type TBvnFormState,
} from './bvn-form';

const METHODS = [
  { id: 'phone', hint: 'Sms with a verification code will be sent to phone 0818***6496' },
  { id: 'email', hint: 'An email with a verification code will be sent to tomi***jr@gmail.com' },
];
const ask: TBvnFormAction = { type: 'code_requested', bvn: '2233 4455 667' };
const openedAction: TBvnFormAction = {
  type: 'verification_opened',
  sender: 'nibss',
  methods: METHODS,
};
const choose: TBvnFormAction = { type: 'method_chosen', method: 'phone' };
const sent: TBvnFormAction = { type: 'code_sent', message: 'NIBSS sent a 6-digit code. …6496' };
const verify: TBvnFormAction = { type: 'verify_requested', code: '123456' };

const ROUTES = {
  initial: [],
  opening: [ask],
  methods: [ask, openedAction],
  sending: [ask, openedAction, choose],
  code: [ask, openedAction, choose, sent],
  resending: [ask, openedAction, choose, sent, { type: 'resend_requested' }],
  verifying: [ask, openedAction, choose, sent, verify],
} satisfies Record<string, TBvnFormAction[]>;
type TRoute = keyof typeof ROUTES;
const stateAt = (route: TRoute): TBvnFormState =>
  (ROUTES[route] as TBvnFormAction[]).reduce(bvnFormReducer, BVN_FORM_INITIAL);

const TRANSITIONS: Array<[string, TRoute, TBvnFormAction, Record<string, unknown>]> = [
  [
    'asks the registry for 11 digits, spaces allowed',
    'initial',
    ask,
    { phase: 'enter_bvn', bvn: '22334455667', busy: true, error: null },
  ],
  [
    'refuses fewer than 11 digits in the catalogue words, keeping what was typed',
    'initial',
    { type: 'code_requested', bvn: '2233' },
    { phase: 'enter_bvn', bvn: '2233', busy: false, error: 'Enter your 11-digit BVN' },
  ],
  [
    'shows the ways the registry offered, with who sends the code, none picked among several',
    'opening',
    openedAction,
    { phase: 'choose_method', sender: 'nibss', methods: METHODS, chosen: null, busy: false },
  ],
  [
    'picks the only way when there is one',
    'opening',
    { type: 'verification_opened', sender: 'sandbox', methods: [METHODS[0]!] },
    { phase: 'choose_method', chosen: 'phone' },
  ],
  [
    'says a BVN the registry does not hold on the BVN field',
    'opening',
    { type: 'open_failed', code: 'BVN_NOT_FOUND' },
    { phase: 'enter_bvn', busy: false, error: 'We could not find this BVN. Check the 11 digits.' },
  ],
  [
    'goes back to the BVN field when the registry offers no way to send the code',
    'opening',
    { type: 'verification_opened', sender: 'nibss', methods: [] },
    {
      phase: 'enter_bvn',
      bvn: '22334455667',
      busy: false,
      error: 'We could not find this BVN. Check the 11 digits.',
    },
  ],
  [
    'sends the code the way picked',
    'methods',
    choose,
    { phase: 'choose_method', chosen: 'phone', busy: true, error: null },
  ],
  [
    'refuses a way the registry did not offer',
    'methods',
    { type: 'method_chosen', method: 'whatsapp' },
    { phase: 'choose_method', busy: false, error: 'Choose where the code should go' },
  ],
  [
    'asks for the code once it went, saying where in the server’s words',
    'sending',
    sent,
    {
      phase: 'enter_code',
      method: 'phone',
      busy: false,
      notice: 'NIBSS sent a 6-digit code. …6496',
    },
  ],
  [
    'keeps the ways after a send that failed, to try again',
    'sending',
    { type: 'send_failed', code: 'BVN_REGISTRY_UNAVAILABLE' },
    {
      phase: 'choose_method',
      busy: false,
      error: 'The BVN registry did not answer. Please try again.',
    },
  ],
  [
    'starts again at the BVN when the verification expired',
    'sending',
    { type: 'send_failed', code: 'PHONE_CODE_EXPIRED' },
    {
      phase: 'enter_bvn',
      bvn: '22334455667',
      error: 'This code has expired. Please request a new code.',
    },
  ],
  [
    'sends again from the code field',
    'code',
    { type: 'resend_requested' },
    { phase: 'enter_code', resending: true, notice: null },
  ],
  [
    'says a new code went, from NIBSS',
    'resending',
    sent,
    { phase: 'enter_code', resending: false, notice: 'NIBSS sent a new code. Use the newest one.' },
  ],
  [
    'starts again at the BVN when every send was spent',
    'resending',
    { type: 'send_failed', code: 'PHONE_CODE_LOCKED' },
    { phase: 'enter_bvn', busy: false },
  ],
  [
    'goes back to the ways for another, the last one picked',
    'code',
    { type: 'other_method' },
    { phase: 'choose_method', chosen: 'phone', methods: METHODS, busy: false },
  ],
  [
    'refuses a code that is not 6 digits before any call',
    'code',
    { type: 'verify_requested', code: '12' },
    { phase: 'enter_code', busy: false, error: 'Enter the 6-digit code we sent you' },
  ],
  ['verifies', 'code', verify, { phase: 'enter_code', busy: true, error: null }],
  [
    'ends verified with the last 4 digits',
    'verifying',
    { type: 'verified', last4: '5667' },
    { phase: 'verified', last4: '5667' },
  ],
  [
    'shows the tries left after a wrong code',
    'verifying',
    {
      type: 'verify_failed',
      code: 'PHONE_CODE_INCORRECT',
      message: 'That code is not correct. 4 tries left.',
    },
    { phase: 'enter_code', busy: false, error: 'That code is not correct. 4 tries left.' },
  ],
  [
    'goes back to the BVN field for a BVN another payer verified',
    'verifying',
    { type: 'verify_failed', code: 'BVN_TAKEN' },
    { phase: 'enter_bvn', bvn: '22334455667', busy: false },
  ],
  [
    'changes the BVN from the ways',
    'methods',
    { type: 'change_bvn' },
    { phase: 'enter_bvn', bvn: '22334455667', error: null },
  ],
  [
    'changes the BVN from the code field',
    'code',
    { type: 'change_bvn' },
    { phase: 'enter_bvn', busy: false },
  ],
];

describe('bvnFormReducer', () => {
  it.each(TRANSITIONS)('%s', (_name, route, action, expected) => {
    expect(bvnFormReducer(stateAt(route), action)).toMatchObject(expected);
  });

  it.each<[string, TRoute, TBvnFormAction]>([
    ['a second Continue while opening', 'opening', ask],
    ['a second Send code while sending', 'sending', choose],
    ['a second Verify while verifying', 'verifying', verify],
    ['Send again while verifying', 'verifying', { type: 'resend_requested' }],
    ['another way while resending', 'resending', { type: 'other_method' }],
    ['Change BVN while sending', 'sending', { type: 'change_bvn' }],
    ['a code sent that nobody asked for', 'code', sent],
  ])('ignores %s', (_name, route, action) => {
    const state = stateAt(route);
    expect(bvnFormReducer(state, action)).toBe(state);
  });

  it('reads a code typed with spaces', () => {
    expect(toBvnCode('123 456')).toBe('123456');
    expect(toBvnCode('12345')).toBeNull();
  });

  it('never leaves a known phase, whatever the actions', () => {
    const pool: TBvnFormAction[] = [
      ask,
      openedAction,
      { type: 'open_failed' },
      choose,
      sent,
      { type: 'send_failed', code: 'PHONE_CODE_EXPIRED' },
      { type: 'resend_requested' },
      { type: 'other_method' },
      verify,
      { type: 'verified', last4: '5667' },
      { type: 'verify_failed' },
      { type: 'change_bvn' },
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pool), { maxLength: 40 }), (actions) => {
        const state = actions.reduce(bvnFormReducer, BVN_FORM_INITIAL);
        expect(['enter_bvn', 'choose_method', 'enter_code', 'verified']).toContain(state.phase);
      }),
    );
  });
});
