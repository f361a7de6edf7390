import { describe, expect, it, vi } from 'vitest';
import { PartLoadError, preloadable } from './preloadable';

describe('a preloadable component', () => {
  it('asks for its code again after a load that failed, and keeps the code once it came', async () => {
    const Component = () => null;
    const load = vi
      .fn<() => Promise<typeof Component>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(Component);
    const part = preloadable(load);
    await expect(part.preload()).rejects.toThrow(PartLoadError);
    await expect(part.preload()).resolves.toBeUndefined();
    await part.preload();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
