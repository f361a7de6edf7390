import { z } from 'zod/mini';
import { canonicalJson, ZAuthenticationResponse, ZGrantChallengeResponse } from './auth';
import { ZAmountType, ZDataSharing, ZKobo, ZPayment } from './consent';
import { ZIdentifier, ZPrintable } from './fields';
import { ZPayerRefund } from './refunds';

/*
 * The payer's own consents (docs/payer-consents.md): the list of what they granted, and the
 * passkey-signed revocation of one. The server's routes and the page's fetchers parse with these.
 */

/** Consents a page of the list holds by default, and at most. */
export const PAYER_CONSENTS_PAGE_SIZE = 20;
export const PAYER_CONSENTS_MAX_PAGE_SIZE = 50;

/** GET /api/users/consents query: a page of the list, newest grant first. */
export const ZPayerConsentsQuery = z.object({
  /** The nextCursor of the page before; none: the first page. */
  cursor: z.optional(ZPrintable(200)),
  limit: z._default(
    z.coerce.number().check(z.int(), z.gte(1), z.lte(PAYER_CONSENTS_MAX_PAGE_SIZE)),
    PAYER_CONSENTS_PAGE_SIZE,
  ),
});
export type TPayerConsentsQuery = z.infer<typeof ZPayerConsentsQuery>;

/** An account the consent's future payments are collected from, first to last (masked). */
export const ZRepaymentAccount = z.object({
  accountId: z.string(),
  position: z.number().check(z.int(), z.nonnegative()),
  bankName: z.string(),
  /** '****1234': the only part of the number the list shows. */
  accountNumber: z.string(),
  accountName: z.string(),
  logo: z.nullable(z.string()),
  /** The mandate the bank holds for the debits, and its state ('active' while it may debit). */
  mandateId: z.string(),
  mandateState: z.string(),
});
export type TRepaymentAccount = z.infer<typeof ZRepaymentAccount>;

/** A debit still to come: a future payment neither collected nor cancelled. */
export const ZUpcomingDebit = z.object({
  paymentId: z.string(),
  amount: ZKobo,
  amountType: ZAmountType,
  narration: z.string(),
  /** null: 'As needed' (the merchant asks when it is due). */
  dueDate: z.nullable(z.string()),
});
export type TUpcomingDebit = z.infer<typeof ZUpcomingDebit>;

/** One consent as its payer sees it in their list. */
export const ZPayerConsent = z.object({
  consentId: z.string(),
  status: z.enum(['granted', 'revoked']),
  grantedAt: z.string(),
  revokedAt: z.nullable(z.string()),
  /** Since when its future payments are paused; null while they run (docs/payer-consents.md). */
  pausedAt: z.nullable(z.string()),
  merchant: z.object({ merchantId: z.string(), name: z.string(), image: z.nullable(z.string()) }),
  /** Every payment of the consent with its state (spec §3 Payment). */
  payments: z.array(ZPayment),
  repaymentAccounts: z.array(ZRepaymentAccount),
  /** The next debits of its future payments, soonest first ('As needed' last). */
  upcomingDebits: z.array(ZUpcomingDebit),
  /** The merchant's refunds of the consent's payments, newest first (docs/payer-consents.md). */
  refunds: z.array(ZPayerRefund),
  dataSharing: z.nullable(ZDataSharing),
  /** Data sharing's end unless the payer confirms it again (12 months), and when it ended. */
  dataSharingExpiresAt: z.nullable(z.string()),
  dataSharingEndedAt: z.nullable(z.string()),
  form: z.nullable(z.object({ formId: z.string(), formResponseId: z.nullable(z.string()) })),
});
export type TPayerConsent = z.infer<typeof ZPayerConsent>;

/** GET /api/users/consents answer. */
export const ZPayerConsentsResponse = z.object({
  success: z.literal(true),
  consents: z.array(ZPayerConsent),
  /** Pass as ?cursor= for the next page; null on the last. */
  nextCursor: z.nullable(z.string()),
});
export type TPayerConsentsResponse = z.infer<typeof ZPayerConsentsResponse>;

export const ZPayerConsentParams = z.object({ consentId: ZIdentifier });

/** POST /api/users/consents/{consentId}/revocation-challenges answer: a nonce for one signature. */
export const ZRevocationChallengeResponse = ZGrantChallengeResponse;
export type TRevocationChallengeResponse = z.infer<typeof ZRevocationChallengeResponse>;

/** POST /api/users/consents/{consentId}/revoke body: the passkey's signature of the revocation. */
export const ZRevokeConsentRequest = z.object({
  nonce: ZIdentifier,
  response: ZAuthenticationResponse,
});
export type TRevokeConsentRequest = z.infer<typeof ZRevokeConsentRequest>;

/** The revoke answer: the consent as it now stands (revoked), the same for a repeat. */
export const ZRevokeConsentResponse = z.object({
  success: z.literal(true),
  consent: ZPayerConsent,
});
export type TRevokeConsentResponse = z.infer<typeof ZRevokeConsentResponse>;

export const REVOCATION_SIGNING_TYPE = 'oya-money.consent-revocation';
export const REVOCATION_SIGNING_VERSION = 1;

/**
 * The exact text whose SHA-256 digest the passkey signs to revoke a consent. Its type differs
 * from a grant's (grantSigningMessage), so a grant's signature never verifies as a revocation,
 * and it names the consent and a single-use nonce issued for revoking that consent alone.
 */
export function revocationSigningMessage(input: { consentId: string; nonce: string }): string {
  return canonicalJson({
    type: REVOCATION_SIGNING_TYPE,
    version: REVOCATION_SIGNING_VERSION,
    consentId: input.consentId,
    nonce: input.nonce,
    payload: { action: 'revoke' },
  });
}

export const PAUSE_SIGNING_TYPE = 'oya-money.consent-pause';

/** What a pause's signature says: stop the consent's future payments for now, or let them run. */
export const ZPauseAction = z.enum(['pause', 'resume']);
export type TPauseAction = z.infer<typeof ZPauseAction>;

/**
 * The exact text whose SHA-256 digest the passkey signs to pause or resume a consent's future
 * payments: a type of its own (a revocation's or a grant's signature never verifies as one), the
 * consent, the action and a single-use nonce issued for pausing that consent.
 */
export function pauseSigningMessage(input: {
  consentId: string;
  nonce: string;
  action: TPauseAction;
}): string {
  return canonicalJson({
    type: PAUSE_SIGNING_TYPE,
    version: 1,
    consentId: input.consentId,
    nonce: input.nonce,
    payload: { action: input.action },
  });
}
