// The acquirer capability of the PaymentProvider port, of the reader kind (TReaderAcquirerPort):
// the card terminal's reader keys, chip purchases, their requery and reversal.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TChipCardScenario } from '../../sandbox/fixtures';
import type {
  TReaderAcquirerPort,
  TChipPurchase,
  TSettlementPort,
  TTerminalReader,
} from '../payments';
import { contractReference as reference, expectReported } from './contract-references';

export type TAcquirerUnderTest = {
  provider: TReaderAcquirerPort;
  /** The provider's settlement report: what it took, and what it gave back. */
  settlement: TSettlementPort;
  /** A card reader the acquirer registered. */
  reader: TTerminalReader;
  /**
   * A purchase as that reader reads a chip card of the scenario for `amount` kobo, its PIN
   * entered (the card's own unless `pin`), without our reference.
   */
  chipPurchaseFor(
    scenario: Exclude<TChipCardScenario, 'magstripe_only'>,
    amount: number,
    pin?: string,
  ): Omit<TChipPurchase, 'reference'>;
  /** The chip data with one tag's value changed after the card signed it. */
  tamper(iccData: string, tag: string, value: string): string;
};

export function acquirerContract(adapter: string, make: () => Promise<TAcquirerUnderTest>) {
  describe(`PaymentProvider port contract, acquirer: ${adapter}`, () => {
    let underTest: TAcquirerUnderTest;
    let provider: TReaderAcquirerPort;
    beforeAll(async () => {
      underTest = await make();
      provider = underTest.provider;
    });
    const purchase = (
      scenario: Parameters<TAcquirerUnderTest['chipPurchaseFor']>[0],
      change: Partial<TChipPurchase> & { pin?: string } = {},
    ) => {
      const { pin, ...rest } = change;
      return provider.terminalChipPurchase({
        ...underTest.chipPurchaseFor(scenario, 250_000, pin),
        reference: reference(),
        ...rest,
      });
    };

    it("gives a registered reader's terminal and merchant ids, and none for a serial it does not know", async () => {
      expect(await provider.terminalFetchKeys(underTest.reader.serial)).toEqual(underTest.reader);
      expect(await provider.terminalFetchKeys('NOT-A-READER')).toBeNull();
    });

    it('approves a chip purchase with the right PIN (00), the same answer for the same reference', async () => {
      const request = {
        ...underTest.chipPurchaseFor('chip_approved', 250_000),
        reference: reference(),
      };
      const approved = await provider.terminalChipPurchase(request);
      expect(approved).toMatchObject({
        kind: 'approved',
        responseCode: '00',
        authCode: expect.stringMatching(/^\w{6}$/),
        providerReference: expect.any(String),
      });
      expect(await provider.terminalChipPurchase(request)).toEqual(approved);
      expect(JSON.stringify(approved)).not.toContain(request.pan);
    });

    it.each([
      ['chip_approved', '0000', '55', 'incorrect_pin'],
      ['chip_insufficient_funds', undefined, '51', 'insufficient_funds'],
      ['chip_declined', undefined, '05', 'declined'],
    ] as const)('declines %s (PIN %s) with %s, %s', async (scenario, pin, responseCode, reason) => {
      expect(await purchase(scenario, pin ? { pin } : {})).toMatchObject({
        kind: 'declined',
        responseCode,
        reason,
      });
    });

    it('declines a purchase whose chip data changed after the card signed it, whatever the PIN', async () => {
      const read = underTest.chipPurchaseFor('chip_approved', 250_000);
      expect(
        await provider.terminalChipPurchase({
          ...read,
          reference: reference(),
          iccData: underTest.tamper(read.iccData, '9F37', '00000000'),
        }),
      ).toMatchObject({ kind: 'declined', reason: 'declined' });
    });

    it('refuses a terminal id that is not the reader’s, and a PIN block it cannot read', async () => {
      expect(await purchase('chip_approved', { tid: 'NOTOURS1' })).toMatchObject({
        kind: 'declined',
        reason: 'invalid_terminal',
      });
      expect(await purchase('chip_approved', { pinBlock: '0123456789ABCDEF' })).toMatchObject({
        kind: 'declined',
        reason: 'format_error',
      });
    });

    it('reverses an approved purchase, and a repeated reversal is the same reversal: given back once', async () => {
      const request = {
        ...underTest.chipPurchaseFor('chip_approved', 250_000),
        reference: reference(),
      };
      const approved = await provider.terminalChipPurchase(request);
      if (approved.kind !== 'approved') throw new Error(`expected approval, got ${approved.kind}`);
      const reversal = {
        providerReference: approved.providerReference,
        amount: 250_000,
        reference: reference(),
      };
      expect(await provider.terminalReverse(reversal)).toEqual({ reversed: true });
      expect(await provider.terminalReverse(reversal)).toEqual({ reversed: true });
      // The provider's record: the one purchase, given back whole; the giving back is no line of
      // its own.
      await expect
        .poll(() => provider.requeryChipPurchase(request.reference))
        .toMatchObject({ kind: 'taken', amount: 250_000, givenBack: true });
      await expectReported(underTest.settlement, request.reference, [
        { channel: 'chip', reference: request.reference, amount: 250_000, givenBack: true },
      ]);
      await expectReported(underTest.settlement, reversal.reference, []);
    });

    it('answers a requery of a chip purchase: taken with its authorisation; a late purchase after a requery is refused', async () => {
      const request = {
        ...underTest.chipPurchaseFor('chip_approved', 250_000),
        reference: reference(),
      };
      const approved = await provider.terminalChipPurchase(request);
      if (approved.kind !== 'approved') throw new Error(`expected approval, got ${approved.kind}`);
      expect(await provider.requeryChipPurchase(request.reference)).toEqual({
        kind: 'taken',
        providerReference: approved.providerReference,
        amount: 250_000,
        givenBack: false,
        authCode: approved.authCode,
      });
      await expectReported(underTest.settlement, request.reference, [
        { channel: 'chip', reference: request.reference, amount: 250_000, givenBack: false },
      ]);

      const late = {
        ...underTest.chipPurchaseFor('chip_approved', 250_000),
        reference: reference(),
      };
      expect(await provider.requeryChipPurchase(late.reference)).toMatchObject({
        kind: 'not_taken',
      });
      expect(await provider.terminalChipPurchase(late)).toMatchObject({ kind: 'declined' });
      await expectReported(underTest.settlement, late.reference, []);
    });
  });
}
