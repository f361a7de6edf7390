// The per-number limit on sending codes (10 an hour, spec of docs/security.md) holds when the
// requests arrive at the same moment: the count and the send are one step under a lock per number;
// and a code replaced before its SMS went is never sent after the newer one.
import { expect, it } from 'vitest';
import { PHONE_CODES_PER_PHONE_PER_HOUR } from '../../domain/schemas/auth';
import { useTestApp } from '../testing/test-app';
import { sendCode, testPhone } from '../testing/identity';

// The test app's relaxed per-address limit leaves the per-number one as what is tested.
const ctx = useTestApp();

it(
  'sends 10 codes, no more, to one number asked for 30 times at once',
  { tags: ['postgres'] },
  async () => {
    const phone = testPhone();
    const answers = await Promise.all(Array.from({ length: 30 }, () => sendCode(ctx.app, phone)));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(PHONE_CODES_PER_PHONE_PER_HOUR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - PHONE_CODES_PER_PHONE_PER_HOUR);
    const outbox = await ctx.app.inject({
      method: 'GET',
      url: `/api/sandbox/messages?phone=${encodeURIComponent(phone)}`,
    });
    // At most one SMS a code: a code replaced before its SMS went is not sent after it (its SMS
    // withdrawn); the newest code's always goes.
    const sent = outbox.json<{ messages: unknown[] }>().messages;
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(sent.length).toBeLessThanOrEqual(PHONE_CODES_PER_PHONE_PER_HOUR);
  },
);
