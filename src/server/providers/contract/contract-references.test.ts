import { describe, expect, it } from 'vitest';
import type { TSettlementLine } from '../payments';
import { expectReported } from './contract-references';

describe("a contract case's check of the settlement report", () => {
  const line: TSettlementLine = {
    channel: 'refund',
    reference: 'rfd_once',
    amount: 100_000,
    givenBack: false,
  };
  const report = (lines: TSettlementLine[]) => ({ settlementReport: async () => lines });

  it('fails, saying so, when the suite was given no settlement port: it never passes unchecked', async () => {
    await expect(expectReported(null, 'rfd_once', [line])).rejects.toThrow(
      "This case checks the provider's settlement report of rfd_once, and the suite was given no settlement port: give it the adapter's",
    );
  });

  it('expects exactly the lines of the reference: money given back twice is a line too many', async () => {
    const other = { ...line, reference: 'rfd_other' };
    await expect(expectReported(report([line, other]), 'rfd_once', [line])).resolves.toBe(
      undefined,
    );
    await expect(expectReported(report([line, line]), 'rfd_once', [line])).rejects.toThrow();
    await expect(expectReported(report([other]), 'rfd_once', [line])).rejects.toThrow();
  });
});
