import type { TLegalHold } from '../../../domain/payer-rights';

/*
 * What every column of every table holds of a payer, and what an erasure does to it
 * (docs/payer-rights.md "What an erasure does"). Every column of the schema has a rule here:
 * personal-data.test.ts reads the schema (src/server/db/schema) and fails on a column without one,
 * so a new column is classified when it is added, never forgotten by the erasure.
 *
 * - none: holds nothing about a person (ids of our own, states, amounts, times, merchants' data).
 * - pseudonym: the payer's id, meaningless once their row is made anonymous.
 * - erase: deleted, or emptied, by the erasure (erasure.ts).
 * - anonymise: replaced by a value that names nobody (erasure.ts).
 * - held: kept under a legal hold (domain/payer-rights.ts LEGAL_HOLDS), which the answer names.
 * - expires: deleted by the server on its own within days (webhook events, idempotency answers).
 * - simulator: the sandbox's simulated banks' and registries' own records, not ours of a payer.
 */
export type TColumnRule =
  'none' | 'pseudonym' | 'erase' | 'anonymise' | { held: TLegalHold } | 'expires' | 'simulator';

const MONEY = { held: 'money' } as const;
const RECORD = { held: 'consentRecord' } as const;

/** Columns (space-separated) given one rule. */
const all = (rule: TColumnRule, columns: string): Record<string, TColumnRule> =>
  Object.fromEntries(columns.split(/\s+/).map((column) => [column, rule]));

const sandbox = (columns: string) => all('simulator', columns);

export const PERSONAL_DATA_RULES: Record<string, Record<string, TColumnRule>> = {
  payers: {
    ...all('none', 'id trusts_first_passkey created_at'),
    ...all('anonymise', 'phone_number full_name'),
    ...all(
      'erase',
      'bvn_hash bvn_sealed bvn_last4 bvn_verified_at bvn_holder_sealed bvn_accounts_sealed',
    ),
  },
  bvn_codes: all(
    'erase',
    'id payer_id bvn_hash bvn_sealed bvn_last4 session_sealed methods method sends created_at expires_at wrong_tries consumed_at superseded_at registry',
  ),
  passkeys: all(
    'erase',
    'id payer_id public_key counter transports device_type backed_up approval approved_by created_at last_used_at removal_due_at removal_cancel_hash',
  ),
  phone_codes: all(
    'erase',
    'id phone_number code_hash created_at expires_at wrong_tries consumed_at superseded_at',
  ),
  sms_queue: all(
    'erase',
    'id phone_number sealed_body not_after created_at sent_at refusal provider',
  ),
  sms_outbox: all('erase', 'id phone_number sealed_body created_at'),
  webauthn_challenges: all(
    'erase',
    'challenge purpose payer_id consent_id created_at expires_at consumed_at',
  ),
  auth_discoveries: {
    ...all('none', 'id client_id consent_id auth_app_id created_at expires_at used_at'),
    payer_id: 'erase',
  },
  auth_sessions: all(
    'erase',
    'id payer_id client_id discovery_id auth_app_id method passkey_proven_at created_at expires_at revoked_at',
  ),
  event_stream_tickets: all('erase', 'ticket_hash stream payer_id expires_at used_at created_at'),
  // A payer's own live events ('card-linking:{payerId}') go; a payment's are its record.
  events: { ...all('none', 'id type created_at'), ...all('erase', 'stream data') },
  server_secrets: all('none', 'name value created_at'),
  merchant_agents: { ...all('none', 'merchant_id role created_at'), payer_id: 'pseudonym' },
  payer_accounts: {
    ...all('none', 'id created_at holder_check'),
    payer_id: 'pseudonym',
    account_name: 'anonymise',
    ...all(
      'erase',
      'name_enquiry_id bvn_hash holder_check_bvn_hash card_token card_brand card_first6 card_last4 card_expiry_month card_expiry_year card_saved_at',
    ),
    // The account each payment came from; the masked card stays on each payment's attempt.
    ...all(MONEY, 'institution_code account_number bank_name'),
  },
  account_links: {
    ...all(
      'none',
      'id account_id route state test_amount test_transfer_provider mandate_provider debit_provider mandate_set_up_by mandate_end mandate_terms auth_tries auth_answer_lost_at expires_at created_at updated_at activated_at',
    ),
    payer_id: 'pseudonym',
    ...all('erase', 'bvn_hash card_expiry_month card_expiry_year'),
    ...all(
      MONEY,
      'pay_in_account_number remita_trans_ref request_id provider_reference debit_authorization',
    ),
  },
  account_owner_lookups: all(
    'erase',
    'institution_code account_number owner_bvn_hash looked_up_at',
  ),
  future_payment_accounts: {
    ...all(MONEY, 'payment_id position account_id mandate_id created_at'),
    payer_id: 'pseudonym',
  },
  future_payment_collections: all(
    MONEY,
    'id payment_id consent_id trigger amount status due_at notified_at claimed_at claims rounds requested_by account_id provider_reference tries pending_debit failure_code failure_reason created_at updated_at completed_at notice_sms_id',
  ),
  merchants: all(
    'none',
    'id name image tag type primary_colour primary_text secondary_colour secondary_text wallet_bank_name created_at',
  ),
  api_clients: all(
    'none',
    'client_id merchant_id secret_hash previous_secret_hash previous_secret_expires_at allowed_origins created_at',
  ),
  consents: {
    ...all(
      'none',
      'id merchant_id client_id status granted_at revoked_at paused_at data_sharing_expires_at data_sharing_ended_at expires_at form_id form_response_id form_update_token requires_auth requires_account attest_discovery_id auth_app_id original_request_id reference_fingerprint return_url created_at',
    ),
    granted_by: 'pseudonym',
    // What the merchant asked, as the record shows it: the consent's record keeps it.
    ...all(RECORD, 'party_image act_on_behalf_of form_template_values reference metadata'),
  },
  consent_events: all(RECORD, 'id consent_id type actor data created_at'),
  data_sharing_items: all('none', 'id consent_id category item'),
  idempotency_keys: {
    ...all('none', 'scope key fingerprint state created_at'),
    // The payer's own calls' answers (scopes ending in their id) go with the erasure; the others,
    // a merchant's or a consent link's, expire.
    response: 'expires',
  },
  payments: all(
    MONEY,
    'id consent_id position type status executed_at amount narration due_date start_date end_date frequency interval amount_type paypoint_id paypoint_location_name shield_wallet_bank_name origin refunded created_at',
  ),
  payment_attempts: {
    ...all(
      MONEY,
      'id purpose payment_id consent_id link_id method status stage amount provider provider_reference charge_reference card_brand card_first6 card_last4 card_saved_to card_saved_at transfer_shared_at transfer_details failure_code failure_reason debit_account_id refund refund_reference returned created_at updated_at completed_at route_note',
    ),
    payer_id: 'pseudonym',
    ...all(
      'none',
      'owner_token_hash step_text display_message save_card challenge_url challenge_expires_at',
    ),
    // What could charge the card again goes; the masked card stays with the payment.
    ...all('erase', 'card_token card_expiry_month card_expiry_year'),
  },
  card_payment_tries: all('expires', 'payment_id card_key tries updated_at'),
  card_encryption_keys: all(
    'none',
    'key_id public_key_pem private_key_sealed created_at retires_at',
  ),
  ledger_accounts: all('none', 'id kind merchant_id balance created_at'),
  ledger_transactions: all(MONEY, 'id kind payment_id attempt_id reference narration created_at'),
  ledger_entries: all(MONEY, 'id transaction_id account_id amount created_at'),
  terminal_purchases: all(
    MONEY,
    'id rrn attempt_id payment_id serial tid mid masked_pan amount trans_datetime response_code auth_code created_at updated_at',
  ),
  payouts: {
    ...all(
      MONEY,
      'id merchant_id account_id institution_code account_number account_name bank_name amount provider status provider_reference failure_reason created_at asked_at ended_at',
    ),
    payer_id: 'pseudonym',
  },
  payment_refunds: all(
    MONEY,
    'id payment_id consent_id merchant_id client_id method channel charge_reference sender amount reason status provider provider_reference failure_reason created_at asked_at ended_at',
  ),
  transfer_notices: all(
    MONEY,
    'provider provider_reference reference amount currency answer returned_at created_at',
  ),
  provider_references: all('none', 'provider kind reference state created_at'),
  forms: all('none', 'id merchant_id client_id latest_version created_at updated_at'),
  form_versions: all('none', 'form_id version definition created_at'),
  form_responses: all(
    'none',
    'id consent_id form_id form_version submitted_at created_at updated_at',
  ),
  form_response_sections: all('erase', 'response_id section_id answers complete updated_at'),
  form_files: all(
    'erase',
    'id response_id field_id media_type size sha256 file_name storage_key created_at',
  ),
  // What was sent to a merchant, kept for its event list's days; the merchant keeps its own copy
  // and is told of the erasure (payer.erasure_requested).
  merchant_events: all('expires', 'id public_id client_id consent_id type data created_at'),
  webhook_deliveries: all(
    'expires',
    'id endpoint_id event_id consent_id status attempts next_attempt_at last_status last_error last_body created_at delivered_at',
  ),
  webhook_endpoints: all(
    'none',
    'id client_id url secret_sealed retiring_secrets created_at deleted_at disabled_at disabled_by events',
  ),
  dashboard_staff: {
    ...all('none', 'id merchant_id role refund_limit created_at removed_at'),
    payer_id: 'pseudonym',
  },
  dashboard_invitations: {
    ...all(
      'none',
      'id merchant_id role refund_limit token_hash invited_by created_at expires_at accepted_at accepted_by revoked_at',
    ),
    phone_number: 'anonymise',
  },
  dashboard_sessions: {
    ...all(
      'none',
      'id token_hash csrf_token staff_id invitation_id method passkey_id created_at last_seen_at revoked_at',
    ),
    payer_id: 'pseudonym',
  },
  // Providers' health and merchants' routing choices: nothing about a person.
  provider_health_minutes: all(
    'none',
    'capability provider bank minute calls failures timeouts latency',
  ),
  provider_health_states: all(
    'none',
    'capability provider bank failures_in_a_row eliminated_at eliminated_until eliminated_reason probe_claimed_at counted_since version',
  ),
  route_settings: all('none', 'merchant_id capability pinned pinned_at paused updated_at'),
  // The payer's record of who looked at their BVN: theirs, erased with it.
  bvn_lookups: all(
    'erase',
    'id payer_id kind provider consent_id merchant_id institution_code account_last4 items created_at',
  ),
  // A complaint about a payment is kept with the payment's records; the payer's words of it go.
  payment_complaints: {
    ...all(
      MONEY,
      'id reference payer_id payment_id consent_id merchant_id client_id category state acknowledge_by resolve_by acknowledged_at resolved_at resolution created_at',
    ),
    description: 'erase',
  },
  dashboard_audit: all('none', 'id merchant_id staff_id actor action target data created_at'),
  api_request_log: all(
    'none',
    'id client_id method path status idempotency_key request_id created_at',
  ),
  merchant_terminals: all('none', 'id merchant_id provider terminal_id name created_at'),
  payer_rights_requests: {
    ...all('none', 'id kind status received_at due_at done_at kept expires_at'),
    payer_id: 'pseudonym',
    export_sealed: 'erase',
  },
  sandbox_accounts: sandbox('institution_code account_number account_name balance created_at'),
  sandbox_bvn_sessions: sandbox('session bvn code_hash expires_at created_at'),
  sandbox_card_charges: sandbox(
    'reference channel provider_reference amount status awaiting reason response_code auth_code card_brand card_first6 card_last4 given_back_at created_at updated_at',
  ),
  sandbox_debits: sandbox(
    'reference provider_reference institution_code account_number amount outcome reversed_at created_at',
  ),
  sandbox_payouts: sandbox(
    'reference provider_reference institution_code account_number amount outcome created_at',
  ),
  sandbox_people: sandbox('bvn full_name date_of_birth phone_number created_at'),
  sandbox_person_accounts: sandbox(
    'institution_code account_number bvn account_name scenario created_at',
  ),
  sandbox_person_cards: sandbox(
    'number_hash scenario first6 last4 bvn institution_code account_number created_at',
  ),
  sandbox_refunds: sandbox(
    'reference provider_reference channel charge_reference institution_code account_number amount outcome reason created_at',
  ),
  sandbox_transfers: sandbox(
    'id account_number amount outcome sender_institution_code sender_account_number reference notice_sent_at created_at',
  ),
  sandbox_virtual_accounts: sandbox(
    'account_number reference amount account_name status expires_at paid_at created_at',
  ),
};

/** Whether a column may still hold the payer's data after their erasure. */
export const keptAfterErasure = (rule: TColumnRule): boolean =>
  typeof rule === 'object' || rule === 'expires' || rule === 'simulator';
