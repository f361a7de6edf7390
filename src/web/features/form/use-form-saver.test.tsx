// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useFormSaver } from './use-form-saver';

// 'Next Step' moves on only once every section's last save saved (form-step.tsx): the saver's
// flush sends again a section whose save failed, and answers from the saves, not a render.

const saved = (token: string) =>
  new Response(
    JSON.stringify({
      success: true,
      formResponseId: 'frs_1',
      formUpdateToken: token,
      section: { id: 'where', complete: true, errors: {} },
      allComplete: true,
    }),
  );
const refused = () =>
  new Response(
    JSON.stringify({ success: false, error: { code: 'INTERNAL_ERROR', message: 'Try again' } }),
    { status: 503 },
  );

/** The fetch the saver calls: each answer in turn; the bodies it was sent. */
function answering(...answers: (() => Response)[]) {
  const sent: { answers: unknown; formUpdateToken?: string }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      sent.push(JSON.parse(init.body as string));
      const next = answers.shift();
      if (!next) throw new Error('no answer left');
      return next();
    }),
  );
  return sent;
}

const target = { consentId: 'cns_1', clientId: 'cli_1', initialToken: null };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('useFormSaver', () => {
  it('sends a failed save again at the flush, and answers true once it saved', async () => {
    const sent = answering(refused, () => saved('fut_1'));
    const { result } = renderHook(() => useFormSaver(target));
    await act(() =>
      result.current.saveSection('where', { street: '12 Admiralty Way' }).catch(() => null),
    );
    expect(result.current.state).toMatchObject({ kind: 'failed' });

    let moved = false;
    await act(async () => {
      moved = await result.current.flush();
    });
    expect(moved).toBe(true);
    expect(sent.map((body) => body.answers)).toEqual([
      { street: '12 Admiralty Way' },
      { street: '12 Admiralty Way' },
    ]);
    expect(result.current.state).toEqual({ kind: 'saved' });
  });

  it('answers false while the section still cannot be saved', async () => {
    answering(refused, refused);
    const { result } = renderHook(() => useFormSaver(target));
    await act(() => result.current.saveSection('where', { street: '12' }).catch(() => null));
    let moved = true;
    await act(async () => {
      moved = await result.current.flush();
    });
    expect(moved).toBe(false);
    expect(result.current.state).toMatchObject({ kind: 'failed' });
  });

  it('drops a failed save that a later save of its section replaced, and chains the token', async () => {
    const sent = answering(
      refused,
      () => saved('fut_1'),
      () => saved('fut_2'),
    );
    const { result } = renderHook(() => useFormSaver(target));
    await act(() => result.current.saveSection('where', { street: '1' }).catch(() => null));
    await act(() => result.current.saveSection('where', { street: '12' }));
    await act(() => result.current.saveSection('where', { street: '12 A' }));
    let moved = false;
    await act(async () => {
      moved = await result.current.flush();
    });
    expect(moved).toBe(true);
    // Three calls, none sent again; the second's token rides on the third.
    expect(sent.map((body) => [body.answers, body.formUpdateToken])).toEqual([
      [{ street: '1' }, undefined],
      [{ street: '12' }, undefined],
      [{ street: '12 A' }, 'fut_1'],
    ]);
  });

  it('never sends a failed older save after the newer one queued before the flush', async () => {
    const sent = answering(refused, () => saved('fut_1'));
    const { result } = renderHook(() => useFormSaver(target));
    await act(() => result.current.saveSection('where', { street: '1' }).catch(() => null));
    // 'Next Step': the field's blur saves the newest answers, then the flush.
    let moved = false;
    await act(async () => {
      void result.current.saveSection('where', { street: '12 A' });
      moved = await result.current.flush();
    });
    expect(moved).toBe(true);
    expect(sent.map((body) => body.answers)).toEqual([{ street: '1' }, { street: '12 A' }]);
  });

  it('says a section still failing once another section saves, not that all is saved', async () => {
    answering(refused, () => saved('fut_1'));
    const { result } = renderHook(() => useFormSaver(target));
    await act(() => result.current.saveSection('where', { street: '1' }).catch(() => null));
    await act(() => result.current.saveSection('who', { name: 'Ada' }));
    expect(result.current.state).toMatchObject({ kind: 'failed' });
  });
});
