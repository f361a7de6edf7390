/* The settlement report port: the provider's record of every call that took money, by our reference. */

/**
 * The money channels a provider keeps a record of, by our reference; 'refund': money it gave
 * back by a refund asked for with our reference (TRefundsPort).
 */
export type TSettlementChannel = 'card' | 'chip' | 'debit' | 'payout' | 'refund';

/** One call that took money, as the provider's record (its settlement report) holds it. */
export type TSettlementLine = {
  channel: TSettlementChannel;
  reference: string;
  amount: number;
  /** Given back whole since: it nets to nothing. */
  givenBack: boolean;
  /**
   * The provider whose record it is, where a report of several providers' records names it (the
   * registry's); a line without it is its port's provider's.
   */
  provider?: string;
};

/** The provider's settlement report: every call that took money, by our reference. */
export type TSettlementPort = {
  /** The adapter offering it: 'sandbox', or the provider's own name. */
  readonly provider: string;
  /**
   * The provider's record of every call that took money, by our reference (a settlement
   * report): what `npm run ledger:check` compares the books with. Given a period, the calls made
   * within it at least (a provider that cannot narrow its record answers all of it).
   */
  settlementReport(period?: TSettlementPeriod): Promise<readonly TSettlementLine[]>;
};

/** A time a settlement report covers, both ends included. */
export type TSettlementPeriod = { from: Date; to: Date };
