import { expect } from 'vitest';
import type { TSettlementLine, TSettlementPort } from '../payments';

/*
 * What every capability's contract suite shares: fresh references, and the settlement report's
 * lines of one reference, checked where the run reads a report (a provider whose test double
 * lists no transactions passes none, and says so beside its run).
 */

let seq = 0;
/** One of our references, never used before in this process. */
export const contractReference = () => `att_contract_${Date.now()}_${(seq += 1)}`;

/** Expects the settlement report's lines of `reference`, where the run reads a report. */
export async function expectReported(
  settlement: TSettlementPort | null,
  reference: string,
  expected: TSettlementLine[],
): Promise<void> {
  if (!settlement) return;
  const lines = (await settlement.settlementReport()).filter((l) => l.reference === reference);
  expect(lines).toEqual(expected);
}
