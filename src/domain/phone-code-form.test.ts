import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from './errors';
import {
  phoneCodeFormInitial,
  phoneCodeFormReducer,
  sendProblem,
  verifyProblem,
  type TPhoneCodeFormAction,
  type TPhoneCodeFormState,
} from './phone-code-form';

const run = (state: TPhoneCodeFormState, ...actions: TPhoneCodeFormAction[]) =>
  actions.reduce(phoneCodeFormReducer, state);

const typed = (
  state: TPhoneCodeFormState,
  values: Partial<Record<'fullName' | 'phone' | 'code', string>>,
) =>
  run(
    state,
    ...Object.entries(values).map(
      ([field, value]) => ({ type: 'edited', field, value }) as TPhoneCodeFormAction,
    ),
  );

/** A sign-in whose code was sent to 0803 123 4567. */
const atCode = () =>
  run(
    typed(phoneCodeFormInitial('sign-in'), { phone: '0803 123 4567' }),
    { type: 'sending' },
    { type: 'sent', message: 'Code sent to +2348031234567' },
  );

describe('the phone-code form', () => {
  it('asks the name first on sign-up, and only the number on sign-in', () => {
    expect(phoneCodeFormInitial('sign-up')).toMatchObject({ step: 'phone', askName: true });
    expect(phoneCodeFormInitial('sign-in')).toMatchObject({ step: 'phone', askName: false });
  });

  it('checks the name and the number before a code is sent', () => {
    const signUp = phoneCodeFormInitial('sign-up');
    expect(sendProblem(signUp, 'sign-up')).toMatchObject({ field: 'fullName' });
    const named = typed(signUp, { fullName: 'Adaeze Okafor', phone: '12' });
    expect(sendProblem(named, 'sign-up')).toEqual({
      field: 'phone',
      message: ERROR_CATALOGUE.PHONE_NUMBER_INVALID.message,
    });
    expect(sendProblem(typed(named, { phone: '0803 123 4567' }), 'sign-up')).toBeNull();
    // Sign-in asks no name to send a code.
    expect(
      sendProblem(typed(phoneCodeFormInitial('sign-in'), { phone: '08031234567' }), 'sign-in'),
    ).toBeNull();
  });

  it('shows the code step once sent, with what the server said, the code empty', () => {
    const sent = atCode();
    expect(sent).toMatchObject({
      step: 'code',
      code: '',
      sentMessage: 'Code sent to +2348031234567',
      busy: false,
      error: null,
    });
  });

  it('keeps digits only in the code, and checks its six before verifying', () => {
    const typedCode = typed(atCode(), { code: '12 3-4' });
    expect(typedCode.code).toBe('1234');
    expect(verifyProblem(typedCode)).toEqual({
      field: 'code',
      message: ERROR_CATALOGUE.PHONE_CODE_FORMAT_INVALID.message,
    });
    expect(verifyProblem(typed(typedCode, { code: '123456' }))).toBeNull();
  });

  it('goes back to the number when the code could not be sent, and stays where it is otherwise', () => {
    const notSent = run(
      atCode(),
      { type: 'sending' },
      {
        type: 'send_failed',
        code: 'PHONE_NUMBER_UNREACHABLE',
        message: 'We could not send the code. Please check the number and try again.',
      },
    );
    expect(notSent).toMatchObject({
      step: 'phone',
      sentMessage: null,
      busy: false,
      error: { field: 'phone' },
    });
    // Refused for a reason of the server's own: back to the number all the same, to send again.
    const refused = run(
      atCode(),
      { type: 'sending' },
      {
        type: 'send_failed',
        code: 'CODE_NOT_SENT',
        message: 'We could not send the code. Please try again later.',
      },
    );
    expect(refused).toMatchObject({ step: 'phone', sentMessage: null, busy: false });
    const limited = run(
      atCode(),
      { type: 'sending' },
      {
        type: 'send_failed',
        code: 'PHONE_CODE_RATE_LIMITED',
        message: 'Too many codes',
      },
    );
    expect(limited).toMatchObject({ step: 'code', busy: false, error: { field: 'phone' } });
  });

  it('asks a name when the number has no account, and then checks it', () => {
    const unknown = run(
      typed(atCode(), { code: '123456' }),
      { type: 'verifying' },
      {
        type: 'verify_failed',
        code: 'PAYER_NOT_FOUND',
        message: 'No account has this number yet',
      },
    );
    expect(unknown).toMatchObject({ askName: true, busy: false, error: { field: 'fullName' } });
    expect(verifyProblem(unknown)).toMatchObject({ field: 'fullName' });
    expect(verifyProblem(typed(unknown, { fullName: 'Adaeze Okafor' }))).toBeNull();
  });

  it('says a wrong code at the code, and lets the payer use a different number when idle', () => {
    const wrong = run(
      typed(atCode(), { code: '000000' }),
      { type: 'verifying' },
      {
        type: 'verify_failed',
        code: 'PHONE_CODE_INVALID',
        message: 'That code is not right',
      },
    );
    expect(wrong).toMatchObject({ step: 'code', error: { field: 'code' } });
    expect(run(wrong, { type: 'change_number' })).toMatchObject({ step: 'phone', error: null });
    // While a call is out, nothing moves the form.
    const busy = run(wrong, { type: 'verifying' });
    expect(run(busy, { type: 'change_number' })).toBe(busy);
    expect(run(busy, { type: 'sending' })).toBe(busy);
  });
});
