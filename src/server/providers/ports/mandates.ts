import type { TMandateTerms } from '../../../domain/mandate-terms';
import type { TAuthParam, TMandateEnd } from '../../../domain/schemas/account-link';
import type { TDebitsPort } from './debits';

/* The mandate setup port: the alternate service's mandates and signed paper mandates. */

/** The ways a bank mandates an account besides the payer's own debit authorisation: the alternate service's auth parameters and the signed paper mandate. */
export type TMandateSetupPort = {
  /** The adapter offering it: 'sandbox', or the provider's own name. */
  readonly provider: string;
  /**
   * Opens a mandate on an account with the alternate service (Remita-style): the bank's
   * reference for it and the details the payer must give to authorise it. Asking again for the
   * same `reference` answers the same. null when the service cannot mandate this account.
   */
  requestAltMandate(request: {
    reference: string;
    institutionCode: string;
    accountNumber: string;
    /**
     * Whose mandate it is and what it allows: a provider that keeps its own mandates
     * (TOwnMandates) names the payer on it and sets it up with the terms of the consent it
     * serves, and refuses to set one up without them.
     */
    payer?: TMandatePayer;
    terms?: TMandateTerms;
  }): Promise<(TAltMandate & { providerReference?: string }) | null>;
  /**
   * Checks the payer's answers to an alternate-service mandate's auth parameters. Safe to repeat
   * after an answer was lost: the mandate found active answers verified, whatever the answers
   * (a code the lost call used up reads as wrong at the provider).
   */
  verifyAltMandate(request: {
    /** The mandate's authorisation reference, as requestAltMandate answered it. */
    authReference: string;
    /** Ours, as the mandate was requested with it, and the provider's, where it set one up. */
    reference: string;
    providerReference: string | null;
    institutionCode: string;
    accountNumber: string;
    /** One answer per parameter name (param1 or param2 of an auth parameter pair). */
    answers: ReadonlyArray<{ param: string; value: string }>;
  }): Promise<{ verified: boolean }>;
  /**
   * Whether the alternate-service mandate is active (the provider's mandate status), asked
   * instead of sending the payer's answers again after the answer to them was lost: the lost
   * call may have used the bank's one-time code up. Throws when the provider does not answer.
   */
  altMandateActive(request: {
    reference: string;
    providerReference: string | null;
  }): Promise<boolean>;
  /** Where the bank stands on a signed paper mandate we issued at `issuedAt`. */
  paperMandateStatus(request: {
    reference: string;
    issuedAt: Date;
    /** The provider's own reference of the mandate, where it set one up (TOwnMandates). */
    providerReference?: string | null;
  }): Promise<'pending' | 'approved'>;
  /**
   * Present where the provider keeps the mandates it sets up and debits them itself (Remita):
   * then its alternate-service answer names its mandate (`providerReference`), a bank it cannot
   * activate by OTP has the mandate on the provider's own printable form, and the debits on those
   * mandates go to it, whatever adapter serves the debits capability.
   */
  readonly own?: TOwnMandates;
};

/** The payer a provider's mandate names (Remita's setup asks their name, email and phone). */
export type TMandatePayer = { id: string; fullName: string; phoneNumber: string };

/** Mandates a provider holds itself (TMandateSetupPort.own): paper, stop, and their debits. */
export type TOwnMandates = {
  /** Whether it mandates accounts of this bank (the banks it lists). */
  mandatesBank(institutionCode: string): boolean;
  /**
   * Sets up a mandate the payer's bank activates at its branch, on the provider's printable form:
   * the provider's reference of the mandate and where the form is. Safe to repeat for one
   * `reference`.
   */
  openPaperMandate(request: {
    reference: string;
    institutionCode: string;
    accountNumber: string;
    payer: TMandatePayer;
    terms: TMandateTerms;
  }): Promise<{ providerReference: string; formUrl: string }>;
  /**
   * Stops a mandate for good: nothing is debited on it again. `reference` is the one it was set
   * up with. Safe to repeat. Answers how the mandate ended, as the provider holds it; throws when
   * it did not answer, or holds the mandate still active, or knows none by this reference.
   */
  stopMandate(request: { providerReference: string; reference: string }): Promise<TMandateEnd>;
  /** The debits on its own mandates (mandateReference: its reference of the mandate). */
  debits: TDebitsPort;
};

/** An alternate-service mandate waiting for its auth parameters (spec §3 Account link response). */
export type TAltMandate = {
  /** What the payer's answers are checked against (the spec's remitaTransRef). */
  authReference: string;
  requestId: string;
  /** The service's logo for the form (the spec's remitaLogoUrl); null: none. */
  logoUrl: string | null;
  authParams: TAuthParam[];
};
