import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { embeddedHeight } from './embed-height';

describe('embeddedHeight', () => {
  it.each([
    [100, 400, 200],
    [150, 0, 200],
    [100, 800, 300],
    [650, 800, 650],
    [310.2, 800, 311],
    [0, 923, 344],
    [Number.NaN, 800, 300],
    [-50, -10, 200],
  ])('content %d in a window of %d → %d', (content, windowHeight, height) => {
    expect(embeddedHeight(content, windowHeight)).toBe(height);
  });

  it('is a whole number at least 200, 35% of the window plus 20, and the content', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(5_000), (content, windowHeight) => {
        const height = embeddedHeight(content, windowHeight);
        expect(Number.isInteger(height)).toBe(true);
        expect(height).toBeGreaterThanOrEqual(200);
        expect(height).toBeGreaterThanOrEqual(windowHeight * 0.35 + 20 - 1e-9);
        expect(height).toBeGreaterThanOrEqual(content);
      }),
    );
  });
});
