import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { PASSKEY_APPROVALS } from '../../../domain/passkey-trust';
import type { TAuthenticatorTransport } from '../../../domain/schemas/auth';
import { consents, merchants } from './consents';

/*
 * Payer identity (docs/identity.md): payers, their passkeys, one-time phone codes, the SMS queue
 * and the sandbox SMS outbox, WebAuthn challenges, discoveries (authentication sessions for a
 * consent), bearer token sessions and the server's own secrets. Every expiry is compared against
 * the server's clock in code, never the database's, so tests can move time.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const at = (name: string) => timestamp(name, { withTimezone: true });

/** A payer: a Nigerian mobile number (E.164) and a name. */
export const payers = pgTable('payers', {
  id: text('id').primaryKey(),
  phoneNumber: text('phone_number').notNull().unique(),
  fullName: text('full_name').notNull(),
  /**
   * The operator vouches for this payer's first passkey although an account is linked already:
   * set by the demo seed only, whose demo payer is linked before any passkey exists (README "Try
   * it by hand"). Every other payer's first passkey signs at once only while nothing is linked.
   */
  trustsFirstPasskey: boolean('trusts_first_passkey').notNull().default(false),
  /**
   * The payer's verified BVN (docs/identity.md "The BVN"): a keyed hash (one BVN, one payer),
   * the BVN sealed with SECRETS_KEY's key, and its last 4 digits to show. Null until verified by
   * a code sent to the BVN's registered phone.
   */
  bvnHash: text('bvn_hash').unique(),
  bvnSealed: text('bvn_sealed'),
  bvnLast4: text('bvn_last4'),
  bvnVerifiedAt: at('bvn_verified_at'),
  /**
   * What the registry said of the BVN's holder when the code proved it ({ fullName, dateOfBirth },
   * sealed): what a merchant the payer shares BVN data with reads, with no new lookup.
   */
  bvnHolderSealed: text('bvn_holder_sealed'),
  /**
   * The accounts the registry holds under the BVN, as it answered the verification (sealed JSON);
   * null when its consent gave none (Mono's identity scope).
   */
  bvnAccountsSealed: text('bvn_accounts_sealed'),
  createdAt: createdAt(),
});

/**
 * Verifications of a BVN (POST /api/identity/bvn): the registry's session, which sends the holder
 * a code and checks it (NIBSS's iGree through Mono, or the sandbox registry), sealed; the ways it
 * offered, with their masked hints, and the one the payer chose. The BVN only hashed and sealed.
 */
export const bvnCodes = pgTable(
  'bvn_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    payerId: text('payer_id')
      .notNull()
      .references(() => payers.id, { onDelete: 'cascade' }),
    bvnHash: text('bvn_hash').notNull(),
    bvnSealed: text('bvn_sealed').notNull(),
    bvnLast4: text('bvn_last4').notNull(),
    /** The registry's session, sealed: whoever holds it may finish the verification. */
    sessionSealed: text('session_sealed').notNull(),
    /**
     * The registry that opened the session (a name of BVN_REGISTRIES): its code is sent and checked
     * there, never at another. Null until one opened it; before migration 0066, the list's first.
     */
    registry: text('registry'),
    /** The ways the registry offered to send the code: [{ id, hint }], hints masked by it. */
    methods: jsonb('methods').$type<Array<{ id: string; hint: string }>>().notNull(),
    /** The way the payer chose last; null until a code was asked for. */
    method: text('method'),
    /** Codes sent in this verification: each send is a billed call, and limited. */
    sends: integer('sends').notNull().default(0),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    wrongTries: integer('wrong_tries').notNull().default(0),
    consumedAt: at('consumed_at'),
    /** Set when a newer verification began for the same payer: only the latest one counts. */
    supersededAt: at('superseded_at'),
  },
  (t) => [index('bvn_codes_payer_created').on(t.payerId, t.createdAt)],
);

/** A payer's passkey (WebAuthn credential). A payer may hold several. */
export const passkeys = pgTable(
  'passkeys',
  {
    /** The credential ID, base64url, as the authenticator names it. */
    id: text('id').primaryKey(),
    payerId: text('payer_id')
      .notNull()
      .references(() => payers.id, { onDelete: 'cascade' }),
    /** COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** Signature counter: a counter that goes backwards betrays a cloned authenticator. */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<TAuthenticatorTransport[]>(),
    deviceType: text('device_type', { enum: ['singleDevice', 'multiDevice'] }).notNull(),
    backedUp: boolean('backed_up').notNull(),
    /**
     * Whether it was approved as it was added (domain/passkey-trust.ts): 'none' signs no debit,
     * mandate or link until 24 h after createdAt. Passkeys older than the rule are 'not-needed'.
     */
    approval: text('approval', { enum: PASSKEY_APPROVALS }).notNull().default('not-needed'),
    /** The passkey that approved it ('approved'); kept after that one is removed, as a record. */
    approvedBy: text('approved_by'),
    createdAt: createdAt(),
    lastUsedAt: at('last_used_at'),
    /**
     * Removal asked for by a session that no trusted passkey proved (docs/identity.md "Actions and
     * the proof they need"): the passkey goes at this time unless the payer cancels first.
     */
    removalDueAt: at('removal_due_at'),
    /** HMAC of the cancel link's token sent by SMS with the notice of the removal. */
    removalCancelHash: text('removal_cancel_hash'),
  },
  (t) => [index('passkeys_payer_id').on(t.payerId)],
);

/** One-time codes sent by SMS. Only an HMAC of the code is kept. */
export const phoneCodes = pgTable(
  'phone_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    phoneNumber: text('phone_number').notNull(),
    codeHash: text('code_hash').notNull(),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    wrongTries: integer('wrong_tries').notNull().default(0),
    consumedAt: at('consumed_at'),
    /** Set when a newer code was sent to the same number: only the latest one counts. */
    supersededAt: at('superseded_at'),
  },
  (t) => [index('phone_codes_phone_created').on(t.phoneNumber, t.createdAt)],
);

/**
 * Every SMS to send, queued with the change that calls for it (docs/jobs.md "The outbox"): its
 * `sms.send` job names the row, and the text is kept sealed (crypto/sms-seal.ts) until
 * it is sent, then erased.
 */
export const smsQueue = pgTable('sms_queue', {
  /** The job's id, fixed by the change (jobIdFor): one change, one row, one SMS. */
  id: uuid('id').primaryKey(),
  phoneNumber: text('phone_number').notNull(),
  /** The text, sealed under the row's label; null once sent, refused, too late or withdrawn. */
  sealedBody: text('sealed_body'),
  /** When the text is worth nothing any more (a code's expiry): it is then not sent. */
  notAfter: at('not_after'),
  createdAt: createdAt(),
  /** When the provider took it; null while queued, or when it was never sent. */
  sentAt: at('sent_at'),
  /**
   * Whose fault a refusal for good was (SmsNotSent's `fault`): 'number', one the provider will
   * never reach, or 'service'; null unless refused.
   */
  refusal: text('refusal', { enum: ['number', 'service'] }),
  /** The provider of SMS_PROVIDERS that took it, for the operator; null unless one did. */
  provider: text('provider'),
});

/**
 * What the sandbox SMS provider "sent": listed on /sandbox/messages instead of delivered, its text
 * sealed to its number (crypto/sms-seal.ts).
 */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    phoneNumber: text('phone_number').notNull(),
    sealedBody: text('sealed_body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sms_outbox_phone').on(t.phoneNumber)],
);

export const CHALLENGE_PURPOSES = [
  'authentication',
  'registration',
  'grant',
  'revocation',
  // A pause or a resume of a consent's future payments (docs/payer-consents.md).
  'pause',
  // A signed-in payer's passkey proving their session (docs/identity.md "Step-up").
  'step-up',
  // A payer's erasure of their data, confirmed by their passkey as they ask (docs/payer-rights.md).
  'erasure',
] as const;

/**
 * WebAuthn challenges and grant nonces: single use (consumedAt) and short-lived. For a grant the
 * key is the nonce, and the WebAuthn challenge is the digest of the payload bound to it.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose', { enum: CHALLENGE_PURPOSES }).notNull(),
    /** Registration and grant challenges belong to a payer; sign-in ones to nobody yet. */
    payerId: text('payer_id').references(() => payers.id, { onDelete: 'cascade' }),
    consentId: text('consent_id').references(() => consents.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    consumedAt: at('consumed_at'),
  },
  (t) => [index('webauthn_challenges_expires').on(t.expiresAt)],
);

/**
 * A discovery: the authentication session the server opens for a consent (spec §3
 * attestDiscoveryId) or for the product's own sign-in page (no consent). Single use, expiring.
 */
export const authDiscoveries = pgTable('auth_discoveries', {
  id: text('id').primaryKey(),
  clientId: text('client_id').notNull(),
  consentId: text('consent_id').references(() => consents.id, { onDelete: 'cascade' }),
  authAppId: text('auth_app_id'),
  createdAt: at('created_at').notNull(),
  expiresAt: at('expires_at').notNull(),
  /** Who signed in through it, and when; a used discovery does not sign in anyone else. */
  payerId: text('payer_id').references(() => payers.id, { onDelete: 'cascade' }),
  usedAt: at('used_at'),
});

/** A bearer-token session: the token names it (sid), so signing out revokes the token. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: text('id').primaryKey(),
    payerId: text('payer_id')
      .notNull()
      .references(() => payers.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    discoveryId: text('discovery_id').notNull(),
    authAppId: text('auth_app_id'),
    method: text('method', { enum: ['passkey', 'phone-code'] }).notNull(),
    /** When a trusted passkey was first used in this session: what sensitive actions need. */
    passkeyProvenAt: at('passkey_proven_at'),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('auth_sessions_payer').on(t.payerId)],
);

/** Secrets the server made for itself when none was configured (e.g. the token key). */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/** Payers who may act for a merchant (spec §6 merchant or agent mode, x-identify-to). */
export const merchantAgents = pgTable(
  'merchant_agents',
  {
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id, { onDelete: 'cascade' }),
    payerId: text('payer_id')
      .notNull()
      .references(() => payers.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.payerId] })],
);
