/* What every capability port shares: the answer of a requery by our reference, and an account at a bank. */

/**
 * What a provider says became of the call made with our reference: the money taken (with its
 * amount, and whether it was given back since), never taken (refused, or never arrived: the
 * reference is closed), or still pending (the payer or the issuer has not answered yet).
 */
export type TRequeryOutcome<TTaken = object> =
  | ({
      kind: 'taken';
      providerReference: string;
      amount: number;
      /** Given back whole since (a refund, a reversal). */
      givenBack: boolean;
    } & TTaken)
  | { kind: 'not_taken'; providerReference: string | null; reason: string }
  | {
      kind: 'pending';
      /** What the charge waits for from the payer; null while the provider itself thinks. */
      awaiting: 'pin' | 'otp' | '3ds' | null;
      /** The provider's reference of the call, where it gave one (what the payer's step needs). */
      providerReference: string | null;
    };

/** A bank account by its bank (CBN institution code) and NUBAN. */
export type TAccountAtBank = { institutionCode: string; accountNumber: string };
