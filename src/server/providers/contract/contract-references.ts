import { expect } from 'vitest';
import type { TMandateTerms } from '../../../domain/mandate-terms';
import type { TSettlementLine, TSettlementPort } from '../payments';

/*
 * What every capability's contract suite shares: fresh references, and the settlement report's
 * lines of one reference. A suite whose cases read the report takes the adapter's settlement port
 * (a provider offering that capability offers the report: it is what the ledger check reads), and
 * a case run without one fails, saying so: it never passes having checked nothing.
 */

let seq = 0;
/** One of our references, never used before in this process. */
export const contractReference = () => `att_contract_${Date.now()}_${(seq += 1)}`;

/**
 * What a mandate a suite sets up allows: a month from now, four debits of at most ₦10,000.00 a
 * month (the debits suite's own debits fit).
 */
export const contractMandateTerms = (now = new Date()): TMandateTerms => ({
  maxDebitKobo: 1_000_000,
  maxDebitsPerMonth: 4,
  startsAt: now,
  endsAt: new Date(now.getTime() + 30 * 24 * 60 * 60_000),
});

/** Expects the settlement report's lines of `reference`: exactly these, one line a call. */
export async function expectReported(
  settlement: Pick<TSettlementPort, 'settlementReport'> | null,
  reference: string,
  expected: TSettlementLine[],
): Promise<void> {
  if (!settlement) {
    throw new Error(
      `This case checks the provider's settlement report of ${reference}, and the suite was given no settlement port: give it the adapter's`,
    );
  }
  const lines = (await settlement.settlementReport()).filter((l) => l.reference === reference);
  expect(lines).toEqual(expected);
}
