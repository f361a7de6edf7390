// The contract of the SMS port: every adapter (sandbox outbox, Termii on its simulator, the
// recording one of tests) passes this suite, run by providers/sms.test.ts. A real provider's
// adapter also passes smsProviderContract: how it throws what the provider did not take, which
// the `sms.send` job reads to retry a message or end it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmsNotSent, type TSmsSender } from './sms';

export type TSmsSenderUnderTest = {
  sender: TSmsSender;
  /**
   * What reached the number, oldest first, as the adapter can tell: the sandbox outbox, the
   * recording, or a real provider's test-mode message log.
   */
  delivered(phoneNumber: string): Promise<Array<{ to: string; body: string }>>;
  release?: () => Promise<void>;
};

/** A real provider's adapter, and how to make its provider fail the next send. */
export type TSmsProviderUnderTest = TSmsSenderUnderTest & {
  /** The provider's next answer refuses the message (a 4xx: no balance, an unknown sender). */
  refuseNext(): void;
  /** The provider's next answer is its own failure (a 5xx): whether it sent is not known. */
  failNext(): void;
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

/** The SmsNotSent a send threw; a test fails if the send resolved or threw anything else. */
export function notSentBy(send: Promise<void>): Promise<SmsNotSent> {
  return send.then(
    () => expect.unreachable('send resolved'),
    (error: unknown) => {
      expect(error).toBeInstanceOf(SmsNotSent);
      return error as SmsNotSent;
    },
  );
}

export function smsProviderContract(adapter: string, make: () => Promise<TSmsProviderUnderTest>) {
  describe(`SMS port contract, what a provider did not take: ${adapter}`, () => {
    let underTest: TSmsProviderUnderTest;
    beforeAll(async () => {
      underTest = await make();
    });
    afterAll(async () => {
      await underTest?.release?.();
    });

    it('throws a refusal as SmsNotSent that no retry can help, and delivers nothing', async () => {
      const to = freshNumber();
      underTest.refuseNext();
      const error = await notSentBy(underTest.sender.send(to, codeMessage('444444')));
      expect(error.retryable).toBe(false);
      expect(await underTest.delivered(to)).toEqual([]);
    });

    it('throws its own failure as SmsNotSent worth retrying; the message sent again is delivered', async () => {
      const to = freshNumber();
      underTest.failNext();
      const error = await notSentBy(underTest.sender.send(to, codeMessage('555555')));
      expect(error.retryable).toBe(true);
      expect(await underTest.delivered(to)).toEqual([]);
      await underTest.sender.send(to, codeMessage('555555'));
      expect(await underTest.delivered(to)).toEqual([{ to, body: codeMessage('555555') }]);
    });

    it('says why in words that carry neither the text sent nor the number', async () => {
      const to = freshNumber();
      underTest.refuseNext();
      const { message } = await notSentBy(underTest.sender.send(to, codeMessage('666666')));
      expect(message).not.toMatch(/666666|Oya Money/);
      expect(message).not.toContain(to.slice(1));
    });
  });
}
