import { describe, expect, it } from 'vitest';
import { loadWithRetries } from './load-reader-driver';

const noWait = () => Promise.resolve();

describe('loadWithRetries', () => {
  it('retries a failed load up to 5 times and answers the first success', async () => {
    let calls = 0;
    const value = await loadWithRetries(async () => {
      calls += 1;
      if (calls < 6) throw new Error('chunk failed');
      return 'driver';
    }, noWait);
    expect(value).toBe('driver');
    expect(calls).toBe(6);
  });

  it('gives up after the fifth retry with the last failure', async () => {
    let calls = 0;
    await expect(
      loadWithRetries(async () => {
        calls += 1;
        throw new Error(`failure ${calls}`);
      }, noWait),
    ).rejects.toThrow('failure 6');
    expect(calls).toBe(6);
  });

  it('waits a little longer before each retry', async () => {
    const waits: number[] = [];
    await loadWithRetries(
      async () => {
        if (waits.length < 3) throw new Error('chunk failed');
        return 1;
      },
      async (ms) => {
        waits.push(ms);
      },
    );
    expect(waits).toEqual([250, 500, 750]);
  });
});
