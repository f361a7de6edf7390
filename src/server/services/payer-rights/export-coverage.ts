import type { TPayerExport } from '../../../domain/schemas/payer-rights';

/*
 * Where the copy of a payer's data (export-file.ts) gives what each table holds of them: every
 * table personal-data.ts gives a rule other than `none` (and `simulator`, the sandbox's own
 * records) names the section of the copy that holds it, or why the copy leaves it out.
 * export-coverage.test.ts fails on a table of payer data named here by neither, so a new table
 * is placed in the copy, or left out on purpose, when it is added.
 */

export type TExportSection = Exclude<keyof TPayerExport, 'preparedAt'>;

/** A table the copy leaves out, and why. */
type TLeftOut = { leftOut: string };

const SECRET_FOR_MINUTES =
  'a single-use secret (a code, a challenge, a ticket) that lasts minutes; what it was used for is in the copy';
const STAFF =
  'the payer as a merchant’s staff: the merchant’s own record of its dashboard, not of them as a payer';

export const EXPORT_SECTION_OF_TABLE: Record<string, TExportSection | TLeftOut> = {
  payers: 'profile',
  passkeys: 'passkeys',
  auth_sessions: 'signIns',
  payer_accounts: 'accounts',
  // How each account was linked; its mandate's references are the payments'.
  account_links: 'accounts',
  consents: 'consents',
  consent_events: 'consents',
  form_response_sections: 'forms',
  form_files: 'forms',
  payments: 'payments',
  payment_attempts: 'payments',
  future_payment_accounts: 'payments',
  future_payment_collections: 'payments',
  terminal_purchases: 'payments',
  transfer_notices: 'payments',
  ledger_transactions: 'payments',
  ledger_entries: 'payments',
  payment_refunds: 'refunds',
  payouts: 'payouts',
  payment_complaints: 'complaints',
  bvn_lookups: 'bvnLookups',
  // A registry's answer of whose BVN an account is held under: each billed one is a lookup.
  account_owner_lookups: 'bvnLookups',
  payer_rights_requests: 'requests',
  // What merchants were sent of a consent: the data shared, and the consent's history.
  merchant_events: 'sharedWithMerchants',
  bvn_codes: { leftOut: SECRET_FOR_MINUTES },
  phone_codes: { leftOut: SECRET_FOR_MINUTES },
  webauthn_challenges: { leftOut: SECRET_FOR_MINUTES },
  event_stream_tickets: { leftOut: SECRET_FOR_MINUTES },
  auth_discoveries: {
    leftOut: 'a sign-in’s first step, minutes long: the sign-in it led to is in the copy',
  },
  sms_queue: {
    leftOut: 'messages on their way, sealed: what they tell of is in the copy, their codes secret',
  },
  sms_outbox: { leftOut: 'the sandbox’s copy of the messages sent, for tests and demos' },
  events: {
    leftOut: 'a page’s live events while it is open (a card being linked), gone within hours',
  },
  idempotency_keys: {
    leftOut:
      'the stored first answers of calls, for retries; they expire, and hold what the copy holds',
  },
  card_payment_tries: {
    leftOut: 'a card’s keyed hash and its tries, to stop card testing; it expires',
  },
  webhook_deliveries: {
    leftOut: 'how each event sent to a merchant was delivered; the events are in the copy',
  },
  merchant_agents: { leftOut: STAFF },
  dashboard_staff: { leftOut: STAFF },
  dashboard_invitations: { leftOut: STAFF },
  dashboard_sessions: { leftOut: STAFF },
};
