// The contract of the SMS port: every adapter (sandbox outbox; a real provider later; the
// recording one of tests) passes this suite, run by providers/sms.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TSmsSender } from './sms';

export type TSmsSenderUnderTest = {
  sender: TSmsSender;
  /**
   * What reached the number, oldest first, as the adapter can tell: the sandbox outbox, the
   * recording, or a real provider's test-mode message log.
   */
  delivered(phoneNumber: string): Promise<Array<{ to: string; body: string }>>;
  release?: () => Promise<void>;
};

let seq = 0;
/** A Nigerian mobile number in E.164 that no other test writes to. */
const freshNumber = () => {
  seq += 1;
  const tail = String((Date.now() % 100_000) * 1000 + seq)
    .padStart(8, '0')
    .slice(-8);
  return `+23480${tail}`;
};

/** A code message as phone-codes.ts writes it: WebOTP last line, naira sign, line breaks. */
const codeMessage = (code: string) =>
  `Oya Money: your code is ${code}. It expires in 5 minutes. Never share it with anyone. ₦0.00\n\n@localhost #${code}`;

export function smsSenderContract(adapter: string, make: () => Promise<TSmsSenderUnderTest>) {
  describe(`SMS port contract: ${adapter}`, () => {
    // One adapter for the suite: each test writes to numbers of its own.
    let underTest: TSmsSenderUnderTest;
    beforeAll(async () => {
      underTest = await make();
    });
    afterAll(async () => {
      await underTest?.release?.();
    });

    it('delivers the body to the number exactly as given once send resolves', async () => {
      const to = freshNumber();
      await underTest.sender.send(to, codeMessage('123456'));
      expect(await underTest.delivered(to)).toEqual([{ to, body: codeMessage('123456') }]);
    });

    it('delivers each send as one message, in the order sent', async () => {
      const to = freshNumber();
      await underTest.sender.send(to, codeMessage('111111'));
      await underTest.sender.send(to, codeMessage('222222'));
      await underTest.sender.send(to, codeMessage('111111'));
      expect((await underTest.delivered(to)).map((m) => m.body)).toEqual([
        codeMessage('111111'),
        codeMessage('222222'),
        codeMessage('111111'),
      ]);
    });

    it('delivers a message to its own number only', async () => {
      const [one, other] = [freshNumber(), freshNumber()];
      await underTest.sender.send(one, codeMessage('333333'));
      expect(await underTest.delivered(other)).toEqual([]);
      expect(await underTest.delivered(one)).toHaveLength(1);
    });

    it('delivers every one of many concurrent sends', async () => {
      const to = freshNumber();
      const codes = Array.from({ length: 12 }, (_, i) => String(100_000 + i));
      await Promise.all(codes.map((code) => underTest.sender.send(to, codeMessage(code))));
      const bodies = (await underTest.delivered(to)).map((m) => m.body);
      expect(bodies.sort()).toEqual(codes.map(codeMessage).sort());
    });
  });
}
