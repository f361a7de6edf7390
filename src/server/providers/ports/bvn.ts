import type { TAccountAtBank } from './common';

/* The BVN registry port (docs/identity.md "The BVN"). */

/** A way the BVN registry can send a BVN's holder a code, with its hint of where ('0803***4567'). */
export type TBvnCodeMethod = { id: string; hint: string };

/** How a verification ended at the registry. */
export type TBvnVerificationEnd =
  /**
   * The code was right: the BVN the registry proved, its holder, and the accounts it holds under
   * the BVN (null when this registry's consent gives none: Mono's `identity` scope).
   */
  | {
      outcome: 'verified';
      bvn: string;
      holder: TBvnHolder;
      accounts: readonly TAccountAtBank[] | null;
    }
  /** Not the code sent: the session may be tried again. */
  | { outcome: 'wrong_code' }
  /** The session ended (its time, or its tries, ran out): a new verification is needed. */
  | { outcome: 'expired' };

/**
 * The BVN registry (docs/identity.md "The BVN"): the registry itself proves a BVN is the payer's
 * by a code it sends to a contact of the BVN's holder, as NIBSS's iGree consent does, then says
 * who the holder is; and it says whose BVN an account is held under. Every call may be billed
 * (Mono bills each, failed ones too): the services call it only for what the payer asked.
 */
export type TBvnRegistryPort = {
  /** The adapter offering it: 'sandbox', or the provider's own name. */
  readonly provider: string;
  /** Who delivers the code, as the payer is told: NIBSS (iGree), or the sandbox's SMS outbox. */
  readonly codeSender: 'nibss' | 'sandbox';
  /**
   * Whether `accountOwner` is the word on whose account it is, asked for every account a payer
   * links (Mono: NIBSS's record, billed per lookup); else the payment provider's name enquiry
   * stands (the sandbox's registry answers what its banks' name enquiry does).
   */
  readonly decidesOwners: boolean;
  /**
   * Opens a verification of `bvn`: the registry's session and the ways it can send the holder a
   * code, with its masked hints; null when the registry holds no such BVN.
   */
  startVerification(bvn: string): Promise<{ session: string; methods: TBvnCodeMethod[] } | null>;
  /** Has the registry send the code by `method` (one of the session's); again for a resend. */
  sendCode(session: string, method: string): Promise<'sent' | 'expired'>;
  /** Gives the registry the code the holder received. */
  finishVerification(session: string, code: string): Promise<TBvnVerificationEnd>;
  /**
   * The BVN an account is held under (account-number lookup); null when the bank has no such
   * account. `beforeBilledCall` runs right before a call the registry bills (the payer's and the
   * address's limits, 429 past them): one refused without a call (a bank it cannot name,
   * ACCOUNT_NOT_SUPPORTED) counts nothing.
   */
  accountOwner(
    account: TAccountAtBank,
    beforeBilledCall?: () => Promise<void>,
  ): Promise<string | null>;
};

/** A BVN's registration: its holder, date of birth (YYYY-MM-DD) and registered phone (E.164). */
export type TBvnRecord = { fullName: string; dateOfBirth: string; phoneNumber: string };

/** A BVN's holder as the registry names them once the code proved the BVN: name and birth date. */
export type TBvnHolder = Pick<TBvnRecord, 'fullName' | 'dateOfBirth'>;
