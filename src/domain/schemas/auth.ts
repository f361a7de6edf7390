import { z } from 'zod/mini';
import { CAPABILITIES, type TCapability } from '../capabilities';
import { FIRST_PARTY_CLIENT_ID } from '../constants';
import { PASSKEY_APPROVALS } from '../passkey-trust';
import { ZAuthUser } from './auth-user';
import { ZIdentifier, ZPrintable, ZText } from './fields';

/*
 * Payer identity: the calls of sign-up, sign-in (passkeys, the "biometric or attestation login"
 * of spec §1, and the phone-code fallback), sessions and signed grants. Both the server routes
 * and the page's fetchers parse with these schemas. Rules a person can see (phone numbers, code
 * limits) live here too, so the page checks what the server checks.
 */

// ---------------------------------------------------------------------------------------------
// Limits (docs/identity.md explains each)

/** One-time sign-up / sign-in codes sent by SMS. */
export const PHONE_CODE_LENGTH = 6;
export const PHONE_CODE_TTL_MS = 5 * 60_000;
export const PHONE_CODE_MAX_WRONG_TRIES = 5;
export const PHONE_CODES_PER_PHONE_PER_HOUR = 10;
/** A WebAuthn challenge (sign-in, passkey creation, grant signing) is single use and short. */
export const WEBAUTHN_CHALLENGE_TTL_MS = 5 * 60_000;
export const WEBAUTHN_TIMEOUT_MS = 60_000;
/** A discovery (authentication session for a consent) lives as long as a sign-in takes. */
export const DISCOVERY_TTL_MS = 15 * 60_000;
/** Bearer token lifetime: short, because a leaked token on an embedded page is a bearer's key. */
export const DEFAULT_TOKEN_TTL_SECONDS = 15 * 60;
/** The product's own sign-in page's client (constants.ts). */
export { FIRST_PARTY_CLIENT_ID };

// ---------------------------------------------------------------------------------------------
// Nigerian mobile numbers

const NIGERIA_CALLING_CODE = '234';
/** National significant numbers of Nigerian mobiles: 10 digits, 70x/80x/81x/90x/91x. */
const NIGERIAN_MOBILE_NSN = /^[789][01]\d{8}$/;

/**
 * A Nigerian mobile number in E.164 (+234XXXXXXXXXX), or null when it is not one. Accepts what
 * people type: 0803 123 4567, 803-123-4567, +234 803 123 4567, 2348031234567, (0)803...
 */
export function toNigerianE164(input: string): string | null {
  const trimmed = input.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return null;
  let digits = trimmed.replace(/\D/g, '');
  if (trimmed.startsWith('+') && !digits.startsWith(NIGERIA_CALLING_CODE)) return null;
  if (digits.startsWith(NIGERIA_CALLING_CODE)) digits = digits.slice(NIGERIA_CALLING_CODE.length);
  if (digits.startsWith('0')) digits = digits.slice(1);
  return NIGERIAN_MOBILE_NSN.test(digits) ? `+${NIGERIA_CALLING_CODE}${digits}` : null;
}

/** +2348031234567 → 0803 123 4567, the way Nigerians write their numbers. */
export function formatNigerianPhone(e164: string): string {
  const nsn = e164.replace(/^\+234/, '');
  if (!NIGERIAN_MOBILE_NSN.test(nsn)) return e164;
  return `0${nsn.slice(0, 3)} ${nsn.slice(3, 6)} ${nsn.slice(6)}`;
}

export function isPhoneCodeFormat(code: string): boolean {
  return new RegExp(`^\\d{${PHONE_CODE_LENGTH}}$`).test(code);
}

// ---------------------------------------------------------------------------------------------
// The signed-in payer

export { ZAuthUser, type TAuthUser } from './auth-user';

/** GET /api/public-config: what the page shows before anyone signs in. */
export const ZPublicConfigResponse = z.object({
  success: z.literal(true),
  productName: z.string(),
  /** Testers' tools on the page (spec §2: the account row's delete menu), with DEBUG_ROUTES. */
  debugTools: z.boolean(),
  /**
   * Whether payments go to the sandbox network (PAYMENT_PROVIDER=sandbox): the page offers its
   * simulated card reader from its first render, before the fixtures are fetched.
   */
  sandbox: z.boolean(),
  /**
   * Whether each capability is on (domain/capabilities.ts, docs/going-live.md): the page offers
   * no way to pay or link whose capability is off.
   */
  capabilities: z.object(
    Object.fromEntries(CAPABILITIES.map((capability) => [capability, z.boolean()])) as Record<
      TCapability,
      z.ZodMiniBoolean
    >,
  ),
  /**
   * The chip terminal's kind where `acquirer` is on: a card reader the page connects (the spec's
   * Bluetooth reader, the sandbox's), or the merchant's certified terminal the server pushes the
   * payment to (Paystack Terminal, docs/providers/paystack-terminal.md).
   */
  terminal: z.enum(['reader', 'push']),
});
export type TPublicConfigResponse = z.infer<typeof ZPublicConfigResponse>;

// ---------------------------------------------------------------------------------------------
// WebAuthn wire shapes (JSON forms of the W3C types, as @simplewebauthn speaks them)

const ZBase64Url = z
  .string()
  .check(z.maxLength(8192), z.regex(/^[A-Za-z0-9_-]*$/, 'must be base64url'));

export const ZAuthenticatorTransport = z.enum([
  'ble',
  'cable',
  'hybrid',
  'internal',
  'nfc',
  'smart-card',
  'usb',
]);
export type TAuthenticatorTransport = z.infer<typeof ZAuthenticatorTransport>;

const ZClientExtensionResults = z.record(ZPrintable(64), z.unknown());

/** What navigator.credentials.get() produced (AuthenticationResponseJSON). */
export const ZAuthenticationResponse = z.object({
  id: ZBase64Url.check(z.minLength(1)),
  rawId: ZBase64Url.check(z.minLength(1)),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: ZBase64Url.check(z.minLength(1)),
    authenticatorData: ZBase64Url.check(z.minLength(1)),
    signature: ZBase64Url.check(z.minLength(1)),
    userHandle: z.optional(ZBase64Url),
  }),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
  clientExtensionResults: ZClientExtensionResults,
});
export type TAuthenticationResponse = z.infer<typeof ZAuthenticationResponse>;

/** What navigator.credentials.create() produced (RegistrationResponseJSON). */
export const ZRegistrationResponse = z.object({
  id: ZBase64Url.check(z.minLength(1)),
  rawId: ZBase64Url.check(z.minLength(1)),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: ZBase64Url.check(z.minLength(1)),
    attestationObject: ZBase64Url.check(z.minLength(1)),
    authenticatorData: z.optional(ZBase64Url),
    // Browsers may name transports newer than ours; the server keeps the ones it knows.
    transports: z.optional(z.array(ZPrintable(32)).check(z.maxLength(16))),
    publicKeyAlgorithm: z.optional(z.number().check(z.int())),
    publicKey: z.optional(ZBase64Url),
  }),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
  clientExtensionResults: ZClientExtensionResults,
});
export type TRegistrationResponse = z.infer<typeof ZRegistrationResponse>;

/**
 * Options for navigator.credentials.get()/create() as the server made them. The page checks
 * only that there is a challenge; the browser and @simplewebauthn/browser check the rest.
 */
export const ZWebAuthnOptions = z.looseObject({ challenge: ZBase64Url.check(z.minLength(16)) });
export type TWebAuthnOptions = z.infer<typeof ZWebAuthnOptions>;

export const ZWebAuthnOptionsResponse = z.object({
  success: z.literal(true),
  options: ZWebAuthnOptions,
});
export type TWebAuthnOptionsResponse = z.infer<typeof ZWebAuthnOptionsResponse>;

// ---------------------------------------------------------------------------------------------
// Discovery: the authentication session the server opens for a consent (spec §3 attestDiscoveryId)

/** POST /api/auth/discovery. No consentId: the product's own sign-in page. */
export const ZDiscoveryRequest = z.object({
  clientId: z.optional(ZPrintable(100)),
  consentId: z.optional(ZIdentifier),
  authAppId: z.optional(ZIdentifier),
});
export type TDiscoveryRequest = z.infer<typeof ZDiscoveryRequest>;

export const ZDiscoveryResponse = z.object({
  success: z.literal(true),
  discoveryId: z.string(),
  expiresAt: z.string(),
});
export type TDiscoveryResponse = z.infer<typeof ZDiscoveryResponse>;

// ---------------------------------------------------------------------------------------------
// Phone codes (sign-up, and sign-in on a device with no passkey)

/** POST /api/auth/phone-codes */
export const ZPhoneCodeRequest = z.object({ phone: ZPrintable(40) });
export type TPhoneCodeRequest = z.infer<typeof ZPhoneCodeRequest>;

export const ZPhoneCodeResponse = z.object({
  success: z.literal(true),
  phoneNumber: z.string(),
  expiresAt: z.string(),
  message: z.string(),
});
export type TPhoneCodeResponse = z.infer<typeof ZPhoneCodeResponse>;

// ---------------------------------------------------------------------------------------------
// Login (spec §7 /api/auth/login: clientId, discovery id, optional authAppId → token and user)

const loginFields = {
  // Optional in the schema so that their absence gets the spec's own messages (§5, §8).
  clientId: z.optional(ZPrintable(100)),
  discoveryId: z.optional(ZPrintable(100)),
  authAppId: z.optional(ZIdentifier),
};

export const ZFullName = ZText(100).check(
  z.refine((name) => name.length >= 2, 'Enter your full name'),
);

/** POST /api/auth/login: signed by a passkey, or proven by a phone code. */
export const ZLoginRequest = z.discriminatedUnion('method', [
  z.object({ method: z.literal('passkey'), ...loginFields, response: ZAuthenticationResponse }),
  z.object({
    method: z.literal('phone-code'),
    ...loginFields,
    phone: ZPrintable(40),
    code: ZPrintable(20),
    /** Needed only when no account uses the number yet: the code then signs the payer up. */
    fullName: z.optional(ZFullName),
  }),
]);
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

/** The login answer (spec §7): token and user are stored by the page. */
export const ZLoginResponse = z.object({
  success: z.literal(true),
  token: z.string().check(z.minLength(1)),
  user: ZAuthUser,
  message: z.optional(z.string()),
  expiresAt: z.string(),
  /** True when this phone-code login created the account (sign-up). */
  newAccount: z.boolean(),
  passkeyCount: z.number().check(z.int(), z.nonnegative()),
});
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

/** GET /api/auth/me answer. The spec does not show it; this is ours. */
export const ZAuthMeResponse = z.object({
  success: z.literal(true),
  user: ZAuthUser,
  expiresAt: z.string(),
  passkeyCount: z.number().check(z.int(), z.nonnegative()),
  /**
   * Whether a trusted passkey proved this session (docs/identity.md "Actions and the proof they
   * need"); false for a session signed in by an SMS code alone.
   */
  passkeyProven: z.boolean(),
});
export type TAuthMeResponse = z.infer<typeof ZAuthMeResponse>;

/** GET /api/auth/session: who acts, and for which merchant when x-identify-to is sent (§6). */
export const ZSessionResponse = z.object({
  success: z.literal(true),
  user: ZAuthUser,
  identifiedTo: z.nullable(
    z.object({ merchantId: z.string(), merchantName: z.string(), role: z.string() }),
  ),
});
export type TSessionResponse = z.infer<typeof ZSessionResponse>;

export const ZOkResponse = z.object({ success: z.literal(true) });

// ---------------------------------------------------------------------------------------------
// Passkeys of the signed-in payer

/** One of the payer's passkeys as WebAuthn request options name it (allowCredentials). */
export const ZAllowCredential = z.object({
  id: ZBase64Url.check(z.minLength(1)),
  type: z.literal('public-key'),
  transports: z.optional(z.array(ZAuthenticatorTransport)),
});

/**
 * Whether a new passkey needs an existing one's approval (docs/identity.md "When a passkey is
 * trusted"), as POST /api/auth/passkeys/registration-options answers it.
 */
export const ZPasskeyApprovalOptions = z.object({
  /** False for a new payer's first passkey, made before anything is linked: it signs at once. */
  needed: z.boolean(),
  /** The relying party the approving passkey belongs to. */
  rpId: z.string(),
  /** The passkeys that may approve it (the payer's trusted ones); none: it will wait. */
  allowCredentials: z.array(ZAllowCredential),
  /** Unapproved, from when it could approve payments if it were added now. */
  unapprovedSignsFrom: z.string(),
});
export type TPasskeyApprovalOptions = z.infer<typeof ZPasskeyApprovalOptions>;

export const ZPasskeyRegistrationOptionsResponse = z.extend(ZWebAuthnOptionsResponse, {
  approval: ZPasskeyApprovalOptions,
});

export const PASSKEY_APPROVAL_TYPE = 'oya-money.passkey-approval';
export const PASSKEY_APPROVAL_VERSION = 1;

/**
 * The text whose SHA-256 digest an existing passkey signs (as its WebAuthn challenge) to approve
 * a new one: it names the single-use registration challenge and the new credential, so the
 * approval is good for that one registration only.
 */
export function passkeyApprovalMessage(input: {
  registrationChallenge: string;
  credentialId: string;
}): string {
  return canonicalJson({
    type: PASSKEY_APPROVAL_TYPE,
    version: PASSKEY_APPROVAL_VERSION,
    registrationChallenge: input.registrationChallenge,
    credentialId: input.credentialId,
  });
}

/**
 * POST /api/auth/passkeys: the new credential the page created and, when one is needed, an
 * existing passkey's assertion of passkeyApprovalMessage (without it the new one waits 24 h).
 */
export const ZPasskeyRegisterRequest = z.object({
  response: ZRegistrationResponse,
  approval: z.optional(ZAuthenticationResponse),
});
export type TPasskeyRegisterRequest = z.infer<typeof ZPasskeyRegisterRequest>;

export const ZPasskeyApproval = z.enum(PASSKEY_APPROVALS);

export const ZPasskeyRegisterResponse = z.object({
  success: z.literal(true),
  passkeyId: z.string(),
  passkeyCount: z.number().check(z.int(), z.positive()),
  approval: ZPasskeyApproval,
  /** From when it may approve payments, mandates and links: now, or 24 h on when unapproved. */
  signsFrom: z.string(),
});
export type TPasskeyRegisterResponse = z.infer<typeof ZPasskeyRegisterResponse>;

/** One passkey on the payer's account page ('Devices'). */
export const ZPasskeySummary = z.object({
  passkeyId: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
  /** A synced passkey (the phone's cloud keychain) rather than one bound to a single device. */
  synced: z.boolean(),
  approval: ZPasskeyApproval,
  signsFrom: z.string(),
  /** Whether it may approve payments now (signsFrom has passed). */
  canApprove: z.boolean(),
  /** A removal asked for by a session signed in by code alone: when it takes effect, or null. */
  removalDueAt: z.nullable(z.string()),
});
export type TPasskeySummary = z.infer<typeof ZPasskeySummary>;

/** GET /api/auth/passkeys: the signed-in payer's passkeys, oldest first. */
export const ZPasskeysResponse = z.object({
  success: z.literal(true),
  passkeys: z.array(ZPasskeySummary),
});
export type TPasskeysResponse = z.infer<typeof ZPasskeysResponse>;

/** DELETE /api/auth/passkeys/{passkeyId}. */
export const ZPasskeyIdParams = z.object({
  passkeyId: ZBase64Url.check(z.minLength(1), z.maxLength(1400)),
});
/** 200: removed at once (a session the passkey proved). */
export const ZPasskeyRemoveResponse = z.object({
  success: z.literal(true),
  passkeyCount: z.number().check(z.int(), z.nonnegative()),
});
/** 202: asked for by a session signed in by code alone, the removal waits until removalDueAt. */
export const ZPasskeyRemovalScheduledResponse = z.object({
  success: z.literal(true),
  passkeyId: z.string(),
  removalDueAt: z.string(),
  passkeyCount: z.number().check(z.int(), z.nonnegative()),
});
export type TPasskeyRemovalScheduledResponse = z.infer<typeof ZPasskeyRemovalScheduledResponse>;

/** DELETE /api/auth/passkeys/{passkeyId}'s answer, either way (the scheduled one first). */
export const ZPasskeyRemovalAnswer = z.union([
  ZPasskeyRemovalScheduledResponse,
  ZPasskeyRemoveResponse,
]);
export type TPasskeyRemovalAnswer = z.infer<typeof ZPasskeyRemovalAnswer>;

/** POST /api/auth/passkeys/removals/cancel: the token of the cancel link the SMS carried. */
export const ZPasskeyRemovalCancelRequest = z.object({
  token: ZBase64Url.check(z.minLength(16), z.maxLength(128)),
});
export const ZPasskeyRemovalCancelResponse = z.object({
  success: z.literal(true),
  passkeyId: z.string(),
});

/** POST /api/auth/step-up: the payer's passkey proves the session (an assertion). */
export const ZStepUpRequest = z.object({ response: ZAuthenticationResponse });
export type TStepUpRequest = z.infer<typeof ZStepUpRequest>;
export const ZStepUpResponse = z.object({
  success: z.literal(true),
  passkeyProvenAt: z.string(),
});
export type TStepUpResponse = z.infer<typeof ZStepUpResponse>;

// ---------------------------------------------------------------------------------------------
// Signed grants: the payer's passkey signs a digest of a canonical grant payload

export const GRANT_SIGNING_TYPE = 'oya-money.consent-grant';
export const GRANT_SIGNING_VERSION = 1;

/** Any JSON value: what a grant payload may hold. */
export type TJsonValue =
  string | number | boolean | null | TJsonValue[] | { [key: string]: TJsonValue };

export const ZJsonValue: z.ZodMiniType<TJsonValue> = z.lazy(() =>
  z.union([
    ZPrintable(2000),
    z.number().check(z.refine(Number.isFinite, 'must be a finite number')),
    z.boolean(),
    z.null(),
    z.array(ZJsonValue).check(z.maxLength(200)),
    z.record(ZPrintable(100), ZJsonValue),
  ]),
);

export const ZGrantPayload = z.record(z.string(), ZJsonValue);
export type TGrantPayload = z.infer<typeof ZGrantPayload>;

/**
 * Canonical JSON: object keys sorted (by UTF-16 code units), no whitespace, numbers and strings
 * as JSON.stringify writes them (RFC 8785 for the values grants hold), undefined properties left
 * out as JSON.stringify does. Page and server must produce the same bytes for the same payload,
 * whatever order its keys were built in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') {
    return JSON.stringify(value);
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonicalJson: numbers must be finite');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new TypeError(`canonicalJson: ${typeof value} is not JSON`);
}

/**
 * The exact text whose SHA-256 digest the passkey signs (as its WebAuthn challenge). It binds
 * the grant's content to its consent and to a single-use server nonce, so an altered payload
 * or a replayed signature does not verify.
 */
export function grantSigningMessage(input: {
  consentId: string;
  nonce: string;
  payload: TGrantPayload;
}): string {
  return canonicalJson({
    type: GRANT_SIGNING_TYPE,
    version: GRANT_SIGNING_VERSION,
    consentId: input.consentId,
    nonce: input.nonce,
    payload: input.payload,
  });
}

/** POST /api/auth/grant-challenges: a nonce for one grant signature. */
export const ZGrantChallengeRequest = z.object({ consentId: ZIdentifier });
export const ZGrantChallengeResponse = z.object({
  success: z.literal(true),
  nonce: z.string(),
  expiresAt: z.string(),
  /** Request options without a challenge: the page puts the digest there. */
  options: z.object({
    rpId: z.string(),
    timeout: z.number().check(z.int(), z.positive()),
    userVerification: z.literal('required'),
    allowCredentials: z.array(ZAllowCredential),
  }),
});
export type TGrantChallengeResponse = z.infer<typeof ZGrantChallengeResponse>;

/** A grant payload with the passkey's signature over its digest. */
export const ZSignedGrant = z.object({
  consentId: ZIdentifier,
  nonce: ZIdentifier,
  payload: ZGrantPayload,
  response: ZAuthenticationResponse,
});
export type TSignedGrant = z.infer<typeof ZSignedGrant>;

/** POST /api/auth/grant-signatures/verify answer: what was proven, to keep with the grant. */
export const ZGrantSignatureResponse = z.object({
  success: z.literal(true),
  verified: z.literal(true),
  digest: z.string(),
  credentialId: z.string(),
  userId: z.string(),
  signedAt: z.string(),
});
export type TGrantSignatureResponse = z.infer<typeof ZGrantSignatureResponse>;

// ---------------------------------------------------------------------------------------------
// Sandbox SMS outbox

export const ZSandboxMessagesResponse = z.object({
  success: z.literal(true),
  messages: z.array(
    z.object({ id: z.number(), to: z.string(), body: z.string(), sentAt: z.string() }),
  ),
});
export type TSandboxMessagesResponse = z.infer<typeof ZSandboxMessagesResponse>;

/**
 * POST /api/users/decline-invitation/{id} answer (docs/payment-requests.md). The spec does not
 * show it; this is ours: the payment request, declined (again, for a retry).
 */
export const ZDeclineInvitationResponse = z.object({
  success: z.literal(true),
  consentId: z.string(),
  status: z.literal('declined'),
});
export type TDeclineInvitationResponse = z.infer<typeof ZDeclineInvitationResponse>;
