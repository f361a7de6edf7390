// The pushed chip terminal of the PaymentProvider port (TPushTerminalPort): whether a terminal is
// there, a payment request pushed to it once per reference, what became of it (paid, declined at
// the terminal, waiting), its withdrawal, and money given back from what it took. Run by every
// adapter that offers one (Paystack Terminal: paystack/paystack-terminal.contract.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import {
  WITHDRAWN_REASON,
  type TPaymentRequestAsked,
  type TPushTerminalPort,
  type TSettlementLine,
  type TSettlementPort,
  type TTerminalPush,
} from '../payments';
import { contractReference as reference, expectReported } from './contract-references';

export type TPushTerminalUnderTest = {
  provider: TPushTerminalPort;
  /** The adapter's settlement report, where a paid request is a 'chip' line. */
  settlement: TSettlementPort | null;
  /** A terminal of the account, on and free, no other case uses (one shows one request). */
  readyTerminal(): Promise<string>;
  /** A terminal of the account that is not connected. */
  offlineTerminal(): Promise<string>;
  /** An id the provider knows no terminal by. */
  unknownTerminalId: string;
  /** The payer's card at the terminal, on the request it shows: approved, or declined there. */
  cardAtTerminal(terminalId: string, outcome: 'approved' | 'declined'): Promise<void>;
};

export function pushTerminalContract(adapter: string, make: () => Promise<TPushTerminalUnderTest>) {
  describe(`PaymentProvider port contract, pushed terminal: ${adapter}`, () => {
    let underTest: TPushTerminalUnderTest;
    let provider: TPushTerminalPort;
    beforeAll(async () => {
      underTest = await make();
      provider = underTest.provider;
    });

    /** A push of `amount` kobo to the terminal, under a fresh reference, asked now. */
    const pushOf = (terminalId: string, amount = 150_000): TTerminalPush => ({
      reference: reference(),
      terminalId,
      amount,
      description: 'Tola Stores',
      createdAt: new Date(),
    });
    /** The request of a push, as the app asks about it: by our reference and the push's answer. */
    const askedOf = (
      push: TTerminalPush,
      providerReference: string | null,
    ): TPaymentRequestAsked => ({
      reference: push.reference,
      providerReference,
      createdAt: push.createdAt,
    });
    /** A push the provider took: its provider reference. */
    const pushed = async (push: TTerminalPush): Promise<string> => {
      const answer = await provider.pushPaymentRequest(push);
      if (answer.kind !== 'pushed') throw new Error(`The push was refused: ${answer.reason}`);
      return answer.providerReference;
    };
    /** A request pushed and paid at a ready terminal: the push and what the requery says. */
    const paidRequest = async (amount = 150_000) => {
      const terminalId = await underTest.readyTerminal();
      const push = pushOf(terminalId, amount);
      const providerReference = await pushed(push);
      await underTest.cardAtTerminal(terminalId, 'approved');
      const outcome = await provider.requeryPaymentRequest(askedOf(push, providerReference));
      if (outcome.kind !== 'taken') throw new Error(`The paid request reads ${outcome.kind}`);
      return { push, providerReference, outcome };
    };

    it('names itself as a pushed terminal of its provider', () => {
      expect(provider.kind).toBe('push');
      expect(provider.provider).toMatch(/^[a-z][a-z-]*$/);
    });

    it('says whether a terminal is there: ready, offline, or unknown to the provider', async () => {
      expect(await provider.terminalPresence(await underTest.readyTerminal())).toBe('ready');
      expect(await provider.terminalPresence(await underTest.offlineTerminal())).toBe('offline');
      expect(await provider.terminalPresence(underTest.unknownTerminalId)).toBe('unknown');
    });

    it('pushes one payment request per reference: pushed again, the same request, waiting', async () => {
      const push = pushOf(await underTest.readyTerminal());
      const providerReference = await pushed(push);
      // A lost answer's retry, or a retried job: the same request shown again, not a second one.
      expect(await provider.pushPaymentRequest(push)).toEqual({
        kind: 'pushed',
        providerReference,
      });
      const waiting = { kind: 'pending', awaiting: null, providerReference };
      expect(await provider.requeryPaymentRequest(askedOf(push, providerReference))).toEqual(
        waiting,
      );
      // Asked about by our reference alone (the push's answer was lost): found all the same.
      expect(await provider.requeryPaymentRequest(askedOf(push, null))).toEqual(waiting);
      await provider.withdrawPaymentRequest(askedOf(push, providerReference));
    });

    it('reads a request paid at the terminal as taken: its amount, the transaction, a chip line', async () => {
      const { push, providerReference, outcome } = await paidRequest(150_000);
      expect(outcome).toMatchObject({
        kind: 'taken',
        providerReference,
        amount: 150_000,
        givenBack: false,
        transaction: expect.any(String),
      });
      expect(outcome.transaction).not.toBe('');
      await expectReported(underTest.settlement, push.reference, [
        { channel: 'chip', reference: push.reference, amount: 150_000, givenBack: false },
      ]);
    });

    it('reads a request declined at the terminal as not taken, and reports nothing of it', async () => {
      const terminalId = await underTest.readyTerminal();
      const push = pushOf(terminalId);
      const providerReference = await pushed(push);
      await underTest.cardAtTerminal(terminalId, 'declined');
      expect(await provider.requeryPaymentRequest(askedOf(push, providerReference))).toMatchObject({
        kind: 'not_taken',
        providerReference,
      });
      await expectReported(underTest.settlement, push.reference, []);
    });

    it('answers a reference never pushed as not taken, and its withdrawal too', async () => {
      const push = pushOf(await underTest.readyTerminal());
      expect(await provider.requeryPaymentRequest(askedOf(push, null))).toMatchObject({
        kind: 'not_taken',
        providerReference: null,
      });
      expect(await provider.withdrawPaymentRequest(askedOf(push, null))).toMatchObject({
        kind: 'not_taken',
      });
    });

    it('withdraws a request nobody paid, each time alike, and frees its terminal', async () => {
      const terminalId = await underTest.readyTerminal();
      const push = pushOf(terminalId);
      const providerReference = await pushed(push);
      const withdrawn = { kind: 'not_taken', providerReference, reason: WITHDRAWN_REASON };
      expect(await provider.withdrawPaymentRequest(askedOf(push, providerReference))).toEqual(
        withdrawn,
      );
      expect(await provider.withdrawPaymentRequest(askedOf(push, providerReference))).toEqual(
        withdrawn,
      );
      // By our reference alone, a withdrawn request may no longer be found: never paid all the same.
      expect(await provider.withdrawPaymentRequest(askedOf(push, null))).toMatchObject({
        kind: 'not_taken',
      });
      expect(await provider.terminalPresence(terminalId)).toBe('ready');
      await expectReported(underTest.settlement, push.reference, []);
    });

    it('answers the withdrawal of a request paid first with what it ended: taken', async () => {
      const { push, providerReference, outcome } = await paidRequest();
      expect(await provider.withdrawPaymentRequest(askedOf(push, providerReference))).toEqual(
        outcome,
      );
    });

    it('gives back what a paid request took, once per reference: its line nets to nothing', async () => {
      const { push, outcome } = await paidRequest(120_000);
      // As the app gives back: the transaction the request produced, under the attempt's reference.
      const giveBack = {
        transaction: outcome.transaction,
        amount: 120_000,
        reference: push.reference,
      };
      await provider.givePaymentBack(giveBack);
      // Asked again (a lost answer, a retried job): the same give-back, not a second.
      await provider.givePaymentBack(giveBack);
      const netted: TSettlementLine = {
        channel: 'chip',
        reference: push.reference,
        amount: 120_000,
        givenBack: true,
      };
      // A give-back may take its time at the provider: the report says so once it is done.
      await expect
        .poll(async () => {
          await expectReported(underTest.settlement, push.reference, [netted]);
          return true;
        })
        .toBe(true);
    });
  });
}
