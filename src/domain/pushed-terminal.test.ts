import { describe, expect, it } from 'vitest';
import {
  isPushPastExpiry,
  PUSHED_TERMINAL_EXPIRY_MS,
  PUSHED_TERMINAL_INITIAL,
  PUSHED_TERMINAL_SEND_STALL_MS,
  PUSHED_TERMINAL_STALL_MS,
  pushedTerminalBadge,
  pushedTerminalBusy,
  pushedTerminalCanRetry,
  pushedTerminalOffersClose,
  pushedTerminalInstruction,
  pushedTerminalReducer,
  pushedTerminalStallMs,
  type TPushedTerminalAction,
  type TPushedTerminalState,
} from './pushed-terminal';

const TILL_1 = { id: 'trm_1', name: 'Till 1' };
const TILL_2 = { id: 'trm_2', name: 'Till 2' };

const run = (...actions: TPushedTerminalAction[]): TPushedTerminalState =>
  actions.reduce(pushedTerminalReducer, PUSHED_TERMINAL_INITIAL);

const waiting = (): TPushedTerminalState =>
  run({ type: 'terminals_loaded', terminals: [TILL_1] }, { type: 'push_answered' });

describe('the pushed terminal modal', () => {
  it('sends to the only terminal at once, then waits for it', () => {
    const sending = run({ type: 'terminals_loaded', terminals: [TILL_1] });
    expect(sending).toMatchObject({ step: 'sending', terminal: TILL_1, sends: 1 });
    expect(pushedTerminalReducer(sending, { type: 'push_answered' }).step).toBe('waiting');
    expect(pushedTerminalInstruction(waiting())).toBe(
      'Insert or tap your card on Till 1 and enter your PIN there.',
    );
    expect(pushedTerminalBadge(waiting())).toEqual({ text: 'In progress', tone: 'busy' });
  });

  it('lets the payer choose among several terminals, and says when there is none', () => {
    const choosing = run({ type: 'terminals_loaded', terminals: [TILL_1, TILL_2] });
    expect(choosing).toMatchObject({ step: 'choosing', sends: 0 });
    expect(
      pushedTerminalReducer(choosing, { type: 'terminal_chosen', terminal: TILL_2 }),
    ).toMatchObject({ step: 'sending', terminal: TILL_2, sends: 1 });
    const none = run({ type: 'terminals_loaded', terminals: [] });
    expect(none.step).toBe('none');
    expect(pushedTerminalCanRetry(none)).toBe(false);
  });

  it('is approved by the stream, declined in the spec’s words, failed in the server’s', () => {
    expect(
      pushedTerminalReducer(waiting(), { type: 'payment_news', news: { status: 'completed' } }),
    ).toMatchObject({ step: 'approved', error: null });
    const declined = pushedTerminalReducer(waiting(), {
      type: 'payment_news',
      news: { status: 'failed', code: 'TERMINAL_DECLINED', message: 'anything' },
    });
    expect(declined).toMatchObject({
      step: 'declined',
      error: 'Transaction declined by card or issuer',
    });
    const failed = pushedTerminalReducer(waiting(), {
      type: 'payment_news',
      news: { status: 'failed', code: 'TERMINAL_TIMEOUT', message: 'Transaction timed out' },
    });
    expect(failed).toMatchObject({ step: 'failed', error: 'Transaction timed out' });
    expect(pushedTerminalBadge(failed).tone).toBe('failed');
  });

  it('ignores a failure told before anything was sent: an earlier attempt’s', () => {
    const choosing = run({ type: 'terminals_loaded', terminals: [TILL_1, TILL_2] });
    const news = { type: 'payment_news', news: { status: 'failed', code: null, message: 'x' } };
    expect(pushedTerminalReducer(choosing, news as TPushedTerminalAction)).toBe(choosing);
  });

  it('says the terminal is offline, and sends to it again on Try Again', () => {
    const offline = pushedTerminalReducer(run({ type: 'terminals_loaded', terminals: [TILL_1] }), {
      type: 'push_refused',
      code: 'TERMINAL_OFFLINE',
      message: 'The terminal is offline.',
    });
    expect(offline).toMatchObject({ step: 'offline', error: 'The terminal is offline.' });
    expect(pushedTerminalBadge(offline).text).toBe('Offline');
    expect(pushedTerminalReducer(offline, { type: 'try_again' })).toMatchObject({
      step: 'sending',
      terminal: TILL_1,
      sends: 2,
      error: null,
    });
  });

  it('follows the payment already on its way when a second send is refused, and its end', () => {
    // The modal closed while the terminal waited, and opened again: the send is refused.
    const again = run(
      { type: 'terminals_loaded', terminals: [TILL_1] },
      {
        type: 'push_refused',
        code: 'PAYMENT_IN_PROGRESS',
        message: 'This payment is already being processed. Please wait.',
      },
    );
    expect(again).toMatchObject({ step: 'in_progress', error: null });
    expect(pushedTerminalBadge(again)).toEqual({ text: 'In progress', tone: 'busy' });
    expect(pushedTerminalCanRetry(again)).toBe(false);
    expect(pushedTerminalInstruction(again)).toBe(
      'This payment is already being processed. Please wait. If it is on Till 1, finish it there; this page shows the payment when it ends.',
    );
    const declined = { status: 'failed', code: 'TERMINAL_DECLINED', message: null } as const;
    expect(pushedTerminalReducer(again, { type: 'payment_news', news: declined }).step).toBe(
      'declined',
    );
    expect(
      pushedTerminalReducer(again, { type: 'payment_news', news: { status: 'completed' } }).step,
    ).toBe('approved');
  });

  it('offers Try Again once the payment already on its way has stalled', () => {
    // A payer not signed in may never hear how the first payment ends: its text says to try
    // again once it is called off, so Try Again is there, not Close alone.
    const again = run(
      { type: 'terminals_loaded', terminals: [TILL_1] },
      { type: 'push_refused', code: 'PAYMENT_IN_PROGRESS', message: 'Already being processed.' },
    );
    expect(pushedTerminalCanRetry(again)).toBe(false);
    expect(pushedTerminalReducer(again, { type: 'try_again' })).toBe(again);
    const stalled = pushedTerminalReducer(again, { type: 'wait_stalled' });
    expect(stalled).toMatchObject({ step: 'in_progress', stalled: true });
    expect(pushedTerminalInstruction(stalled)).toMatch(/then try again/);
    expect(pushedTerminalCanRetry(stalled)).toBe(true);
    expect(pushedTerminalReducer(stalled, { type: 'try_again' })).toMatchObject({
      step: 'sending',
      sends: 2,
      stalled: false,
      error: null,
    });
  });

  it('offers the choice again after a failure where there are several terminals', () => {
    const busy = run(
      { type: 'terminals_loaded', terminals: [TILL_1, TILL_2] },
      { type: 'terminal_chosen', terminal: TILL_1 },
      { type: 'push_refused', code: 'TERMINAL_BUSY', message: 'Device is busy, please wait' },
    );
    expect(busy).toMatchObject({ step: 'failed', error: 'Device is busy, please wait' });
    expect(pushedTerminalReducer(busy, { type: 'try_again' })).toMatchObject({
      step: 'choosing',
      terminal: null,
    });
  });

  it('reads the terminals again after they could not be read', () => {
    const failed = run({ type: 'terminals_failed', message: 'API request failed' });
    expect(failed).toMatchObject({ step: 'failed', error: 'API request failed' });
    expect(pushedTerminalReducer(failed, { type: 'try_again' }).step).toBe('loading');
  });

  it('tells the payer a wait that stalls, and still takes the stream’s answer after', () => {
    const stalled = pushedTerminalReducer(waiting(), { type: 'wait_stalled' });
    expect(stalled.stalled).toBe(true);
    expect(pushedTerminalInstruction(stalled)).toMatch(/^Till 1 has not answered yet\./);
    expect(pushedTerminalReducer(stalled, { type: 'wait_stalled' })).toBe(stalled);
    expect(
      pushedTerminalReducer(stalled, { type: 'payment_news', news: { status: 'completed' } }),
    ).toMatchObject({ step: 'approved', stalled: false });
  });

  it('tells the payer a send that stalls, and gives the wait at the terminal its own time', () => {
    const sending = run({ type: 'terminals_loaded', terminals: [TILL_1] });
    expect(pushedTerminalStallMs(sending)).toBe(PUSHED_TERMINAL_SEND_STALL_MS);
    const slow = pushedTerminalReducer(sending, { type: 'wait_stalled' });
    expect(slow).toMatchObject({ step: 'sending', stalled: true });
    expect(pushedTerminalStallMs(slow)).toBeNull();
    expect(pushedTerminalInstruction(slow)).toMatch(/^Still sending the payment to Till 1:/);
    const answered = pushedTerminalReducer(slow, { type: 'push_answered' });
    expect(answered).toMatchObject({ step: 'waiting', stalled: false });
    expect(pushedTerminalStallMs(answered)).toBe(PUSHED_TERMINAL_STALL_MS);
    // Nothing waits once it ended.
    const declined = pushedTerminalReducer(answered, {
      type: 'payment_news',
      news: { status: 'failed', code: 'TERMINAL_DECLINED', message: null },
    });
    expect(pushedTerminalStallMs(declined)).toBeNull();
    expect(pushedTerminalReducer(declined, { type: 'wait_stalled' })).toBe(declined);
  });

  it('never offers another way while a send whose answer was lost may be charging', () => {
    // The page never heard the server's answer (no network, a 5xx): the push may be recorded,
    // and while it charges the server refuses every other way (PAYMENT_IN_PROGRESS).
    const lost = run(
      { type: 'terminals_loaded', terminals: [TILL_1] },
      { type: 'push_refused', code: 'API_REQUEST_FAILED', message: 'API request failed' },
    );
    expect(lost).toMatchObject({ step: 'unsure', error: null });
    expect(pushedTerminalInstruction(lost)).not.toMatch(/another way/);
    expect(pushedTerminalCanRetry(lost)).toBe(false);
    expect(pushedTerminalBadge(lost)).toEqual({ text: 'In progress', tone: 'busy' });
    expect(pushedTerminalBusy(lost)).toBe(false);
    expect(pushedTerminalOffersClose(lost)).toBe(true);
    // It stalls like the other waits, and then offers to send again: a push still charging is
    // refused and followed, one never recorded is sent.
    expect(pushedTerminalStallMs(lost)).toBe(PUSHED_TERMINAL_STALL_MS);
    const stalled = pushedTerminalReducer(lost, { type: 'wait_stalled' });
    expect(pushedTerminalInstruction(stalled)).not.toMatch(/another way/);
    expect(pushedTerminalCanRetry(stalled)).toBe(true);
    expect(pushedTerminalReducer(stalled, { type: 'try_again' })).toMatchObject({
      step: 'sending',
      sends: 2,
      stalled: false,
    });
    // The stream's word ends it, as for any payment on its way.
    const timedOut = {
      status: 'failed',
      code: 'TERMINAL_TIMEOUT',
      message: 'Transaction timed out',
    };
    expect(
      pushedTerminalReducer(lost, {
        type: 'payment_news',
        news: timedOut,
      } as TPushedTerminalAction),
    ).toMatchObject({ step: 'failed', error: 'Transaction timed out' });
    // A refusal the server made before recording anything frees the payment: other ways are fine.
    const busy = run(
      { type: 'terminals_loaded', terminals: [TILL_1] },
      { type: 'push_refused', code: 'TERMINAL_BUSY', message: 'Device is busy, please wait' },
    );
    expect(busy).toMatchObject({ step: 'failed', error: 'Device is busy, please wait' });
    expect(pushedTerminalBusy(busy)).toBe(false);
  });

  it('stalls a payment already on its way like the other waits', () => {
    const again = run(
      { type: 'terminals_loaded', terminals: [TILL_1] },
      { type: 'push_refused', code: 'PAYMENT_IN_PROGRESS', message: 'In progress' },
    );
    expect(pushedTerminalStallMs(again)).toBe(PUSHED_TERMINAL_STALL_MS);
    const stalled = pushedTerminalReducer(again, { type: 'wait_stalled' });
    expect(pushedTerminalInstruction(stalled)).toMatch(
      /called off a few minutes after it was sent/,
    );
  });

  it('keeps Close until the payment is approved, and the spinner while sending', () => {
    expect(pushedTerminalOffersClose(waiting())).toBe(true);
    const approved = pushedTerminalReducer(waiting(), {
      type: 'payment_news',
      news: { status: 'completed' },
    });
    expect(pushedTerminalOffersClose(approved)).toBe(false);
    expect(pushedTerminalBusy(run({ type: 'terminals_loaded', terminals: [TILL_1] }))).toBe(true);
    expect(pushedTerminalBusy(PUSHED_TERMINAL_INITIAL)).toBe(true);
    expect(pushedTerminalBusy(waiting())).toBe(false);
  });

  it('calls a push off once its attempt is PUSHED_TERMINAL_EXPIRY_MS old, not before', () => {
    const began = new Date('2026-11-28T10:00:00Z');
    const at = (ms: number) => new Date(began.getTime() + ms);
    expect(isPushPastExpiry(began, at(PUSHED_TERMINAL_EXPIRY_MS - 1))).toBe(false);
    expect(isPushPastExpiry(began, at(PUSHED_TERMINAL_EXPIRY_MS))).toBe(true);
  });

  it('accepts nothing out of turn', () => {
    const approved = pushedTerminalReducer(waiting(), {
      type: 'payment_news',
      news: { status: 'completed' },
    });
    for (const action of [
      { type: 'terminals_loaded', terminals: [TILL_1] },
      { type: 'terminals_failed', message: 'x' },
      { type: 'terminal_chosen', terminal: TILL_2 },
      { type: 'push_answered' },
      { type: 'push_refused', code: null, message: 'x' },
      { type: 'payment_news', news: { status: 'completed' } },
      { type: 'wait_stalled' },
      { type: 'try_again' },
    ] as TPushedTerminalAction[]) {
      expect(pushedTerminalReducer(approved, action)).toBe(approved);
    }
  });
});
