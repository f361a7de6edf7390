// The settlement report of the PaymentProvider port (TSettlementPort): the provider's record of
// every call that took money, by our reference, which `npm run ledger:check` compares the books
// with. Each channel the adapter holds money by is one line per reference; money given back whole
// nets to nothing; a period narrows the report without losing a line within it. Run by every
// adapter that offers the report: the sandbox (providers/payments.contract.ts), Paystack (its
// simulator: paystack/paystack.contract.test.ts).
//
// The suite knows nothing of how an adapter takes money: its test supplies that (TSettlementSetup),
// one small function per channel it claims.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TSettlementChannel, TSettlementLine, TSettlementPort } from '../payments';
import { contractReference as reference, expectReported } from './contract-references';

/** How an adapter's test makes its provider hold money under our references. */
export type TSettlementSetup = {
  settlement: TSettlementPort;
  /**
   * Per channel the adapter claims: takes `amount` kobo under our `reference` by that channel's
   * call (a card charge, a chip purchase, a debit, a payout sent; for 'refund', a refund of
   * `amount` from a card charge of more, the refund under `reference`), resolving once the
   * provider holds it.
   */
  take: Partial<Record<TSettlementChannel, (reference: string, amount: number) => Promise<void>>>;
  /** Gives back whole the card charge `take.card` made under `reference`. */
  giveBackCard(reference: string): Promise<void>;
  /** A card charge under `reference` the provider refused (a declined card): it took nothing. */
  refuseCard(reference: string, amount: number): Promise<void>;
};

/** The report's lines of `ref`, as the whole report or a period's answers them. */
const linesOf = (lines: readonly TSettlementLine[], ref: string) =>
  lines.filter((line) => line.reference === ref);

export function settlementContract(
  adapter: string,
  channels: readonly TSettlementChannel[],
  make: () => Promise<TSettlementSetup>,
) {
  describe(`PaymentProvider port contract, settlement report: ${adapter}`, () => {
    let setup: TSettlementSetup;
    beforeAll(async () => {
      setup = await make();
    });
    /** The setup's call of `channel`: a channel the suite was told of and not given fails. */
    const taker = (channel: TSettlementChannel) => {
      const take = setup.take[channel];
      if (!take) {
        throw new Error(
          `The ${adapter} setup claims '${channel}' and gives no way to take money by it`,
        );
      }
      return take;
    };

    it('names its provider', () => {
      expect(setup.settlement.provider).toMatch(/^[a-z][a-z-]*$/);
    });

    it.each(channels)(
      'reports money taken by %s: one line of its reference and amount',
      async (channel) => {
        const ref = reference();
        await taker(channel)(ref, 212_300);
        await expect
          .poll(async () => linesOf(await setup.settlement.settlementReport(), ref))
          .toEqual([{ channel, reference: ref, amount: 212_300, givenBack: false }]);
      },
    );

    it('reports a card charge given back whole as one line that nets to nothing', async () => {
      const ref = reference();
      await taker('card')(ref, 180_000);
      await setup.giveBackCard(ref);
      await expect
        .poll(async () => linesOf(await setup.settlement.settlementReport(), ref))
        .toEqual([{ channel: 'card', reference: ref, amount: 180_000, givenBack: true }]);
    });

    it('reports nothing of a charge it refused, nor of a reference never used', async () => {
      const refused = reference();
      await setup.refuseCard(refused, 90_000);
      await expectReported(setup.settlement, refused, []);
      await expectReported(setup.settlement, reference(), []);
    });

    it('keeps within a period every line of money taken in it, and invents none', async () => {
      const from = new Date(Date.now() - 60_000);
      const refs = [] as string[];
      for (const channel of channels) {
        const ref = reference();
        await taker(channel)(ref, 50_000);
        refs.push(ref);
      }
      const to = new Date(Date.now() + 60_000);
      const whole = await setup.settlement.settlementReport();
      const period = await setup.settlement.settlementReport({ from, to });
      for (const ref of refs) {
        expect(linesOf(period, ref)).toEqual(linesOf(whole, ref));
        expect(linesOf(period, ref)).toHaveLength(1);
      }
      // A period ending before any of them: at least its own calls, never a line the whole
      // report does not hold (a provider that cannot narrow answers all of it).
      const past = await setup.settlement.settlementReport({
        from: new Date(from.getTime() - 24 * 60 * 60_000),
        to: new Date(from.getTime() - 60 * 60_000),
      });
      const key = (line: TSettlementLine) => `${line.channel}:${line.reference}:${line.amount}`;
      const wholeKeys = new Set(whole.map(key));
      expect(past.filter((line) => !wholeKeys.has(key(line)))).toEqual([]);
    });

    it('answers the same lines asked twice: a report is a record, not a stream', async () => {
      const ref = reference();
      await taker(channels[0] ?? 'card')(ref, 75_000);
      const first = linesOf(await setup.settlement.settlementReport(), ref);
      expect(first).toHaveLength(1);
      expect(linesOf(await setup.settlement.settlementReport(), ref)).toEqual(first);
    });
  });
}
