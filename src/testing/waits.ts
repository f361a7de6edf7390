// Every test waits for a condition as long as a loaded 2-core machine may need for it to come
// (a load average of 60 made a 2 s test take 30): Testing Library's findBy… and waitFor, and
// vitest's vi.waitFor, whose defaults are one second (expect.poll's is set in vitest.config.ts).
// A wait ends as soon as its condition holds, so only a failing test waits this long.
import { configure } from '@testing-library/dom';
import { vi } from 'vitest';

export const CONDITION_WAIT_MS = 60_000;

configure({ asyncUtilTimeout: CONDITION_WAIT_MS });

const waitFor = vi.waitFor;
vi.waitFor = (callback, options) =>
  waitFor(
    callback,
    typeof options === 'number' ? options : { timeout: CONDITION_WAIT_MS, ...options },
  );
