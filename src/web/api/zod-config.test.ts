import { z } from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { ZFullName } from '../../domain/schemas/auth';
import './zod-config';

describe("the page's zod configuration", () => {
  it('never probes for eval (the CSP forbids it)', () => {
    expect(z.config().jitless).toBe(true);
  });

  it("gives zod's English messages, as the server does", () => {
    expect(ZFullName.safeParse('').error?.issues[0]?.message).toBe(
      'Too small: expected string to have >=1 characters',
    );
    expect(ZFullName.safeParse('A').error?.issues[0]?.message).toBe('Enter your full name');
  });
});
