// Payer identity steps for server tests, through the real routes: codes from the sandbox
// outbox, discoveries, logins, passkeys.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { TPasskeyApproval } from '../../domain/passkey-trust';
import {
  FIRST_PARTY_CLIENT_ID,
  grantSigningMessage,
  passkeyApprovalMessage,
  type TGrantPayload,
  type TPasskeyApprovalOptions,
  type TWebAuthnOptions,
} from '../../domain/schemas/auth';
import type { TConfig } from '../config';
import { groupOf } from '../jobs/kinds';
import { SoftAuthenticator } from './soft-authenticator';

export function softAuthenticatorFor(config: TConfig, countsSignatures = true) {
  return new SoftAuthenticator(
    config.webauthnRpId,
    new URL(config.publicUrl).origin,
    countsSignatures,
  );
}

/**
 * Resolves once no SMS is on its way: no job of the SMS group (`sms.*`: the sends, and the asked
 * BVN and recovery codes that queue one after their call answered) waits or runs. A send waiting
 * for its retry after a refusal does not count: it is not on its way.
 */
async function smsSettled(app: FastifyInstance): Promise<void> {
  const onTheirWay = async () =>
    (await app.jobs.backlog())
      .filter(({ kind }) => groupOf(kind) === 'sms')
      .reduce((sum, { states }) => sum + states.created + states.active, 0);
  while ((await onTheirWay()) > 0) await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * The 6-digit code of the newest sandbox SMS to a number, once no SMS is on its way: a BVN or
 * recovery code goes after its call answered (docs/identity.md "The BVN").
 */
export async function latestCode(app: FastifyInstance, phone: string): Promise<string> {
  await smsSettled(app);
  return codeInOutbox(app, phone);
}

/**
 * The 6-digit code of the newest sandbox SMS to a number as the outbox holds it now, without
 * waiting: for a test that proves a code went before its call answered.
 */
export async function codeInOutbox(app: FastifyInstance, phone: string): Promise<string> {
  const response = await app.inject({
    method: 'GET',
    url: `/api/sandbox/messages?phone=${encodeURIComponent(phone)}`,
  });
  expect(response.statusCode).toBe(200);
  const body = response.json<{ messages: Array<{ body: string }> }>();
  const code = /code is (\d{6})/.exec(body.messages[0]?.body ?? '')?.[1];
  if (!code) throw new Error(`No code was sent to ${phone}`);
  return code;
}

export async function sendCode(app: FastifyInstance, phone: string) {
  return app.inject({ method: 'POST', url: '/api/auth/phone-codes', payload: { phone } });
}

export async function openDiscovery(
  app: FastifyInstance,
  body: { clientId?: string; consentId?: string } = { clientId: FIRST_PARTY_CLIENT_ID },
  remoteAddress?: string,
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/discovery',
    payload: body,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ discoveryId: string }>().discoveryId;
}

export async function loginWithCode(
  app: FastifyInstance,
  input: {
    phone: string;
    code: string;
    fullName?: string;
    discoveryId?: string;
    clientId?: string;
    /** The caller's address, for tests of many callers (limits count per address). */
    remoteAddress?: string;
  },
) {
  const discoveryId =
    input.discoveryId ?? (await openDiscovery(app, undefined, input.remoteAddress));
  return app.inject({
    method: 'POST',
    url: '/api/auth/login',
    ...(input.remoteAddress ? { remoteAddress: input.remoteAddress } : {}),
    payload: {
      method: 'phone-code',
      clientId: input.clientId ?? FIRST_PARTY_CLIENT_ID,
      discoveryId,
      phone: input.phone,
      code: input.code,
      ...(input.fullName ? { fullName: input.fullName } : {}),
    },
  });
}

/** Sign-up by phone code: a new account and its first token. */
export async function signUp(app: FastifyInstance, phone: string, fullName = 'Adaeze Okonkwo') {
  expect((await sendCode(app, phone)).statusCode).toBe(200);
  const response = await loginWithCode(app, {
    phone,
    code: await latestCode(app, phone),
    fullName,
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ token: string; user: { userId: string } }>();
}

export type TSignedUpPayer = { userId: string; token: string; headers: Record<string, string> };

/** A new payer signed up on a fresh phone number: their id, token and bearer header. */
export async function signedUpPayer(
  app: FastifyInstance,
  fullName?: string,
): Promise<TSignedUpPayer> {
  const { token, user } = await signUp(app, testPhone(), fullName);
  return { userId: user.userId, token, headers: { authorization: `Bearer ${token}` } };
}

/**
 * The new passkey's registration as the page sends it: created on `authenticator` and, with
 * `approveWith`, approved by that authenticator's first passkey (an assertion of the approval
 * message: this registration's challenge and the new credential's id).
 */
export async function passkeyRegistration(
  app: FastifyInstance,
  token: string,
  authenticator: SoftAuthenticator,
  approveWith?: SoftAuthenticator,
) {
  const options = await app.inject({
    method: 'POST',
    url: '/api/auth/passkeys/registration-options',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(options.statusCode).toBe(200);
  const offered = options.json<{ options: TWebAuthnOptions; approval: TPasskeyApprovalOptions }>();
  const response = authenticator.register(offered.options);
  if (!approveWith) return { response, approval: offered.approval };
  const digest = createHash('sha256')
    .update(
      passkeyApprovalMessage({
        registrationChallenge: offered.options.challenge,
        credentialId: response.id,
      }),
    )
    .digest('base64url');
  return { response, approval: offered.approval, body: { approval: approveWith.assert(digest) } };
}

export type TSavedPasskey = {
  passkeyId: string;
  passkeyCount: number;
  approval: TPasskeyApproval;
  signsFrom: string;
};

/** Creates a passkey on the soft authenticator for a signed-in payer (see passkeyRegistration). */
export async function addPasskey(
  app: FastifyInstance,
  token: string,
  authenticator: SoftAuthenticator,
  approveWith?: SoftAuthenticator,
): Promise<TSavedPasskey> {
  const made = await passkeyRegistration(app, token, authenticator, approveWith);
  const saved = await app.inject({
    method: 'POST',
    url: '/api/auth/passkeys',
    headers: { authorization: `Bearer ${token}` },
    payload: { response: made.response, ...made.body },
  });
  expect(saved.statusCode, saved.body).toBe(201);
  return saved.json<TSavedPasskey>();
}

/**
 * A payer signed up with a passkey on a soft authenticator: their id, their token, the
 * authenticator that signs their grants, and the bearer header.
 */
export async function payerWithPasskey(
  app: FastifyInstance,
  config: TConfig,
  countsSignatures = true,
) {
  const soft = softAuthenticatorFor(config, countsSignatures);
  const phone = testPhone();
  const { token, user } = await signUp(app, phone);
  await addPasskey(app, token, soft);
  return { userId: user.userId, phone, token, soft, headers: { authorization: `Bearer ${token}` } };
}

/**
 * A new payer whose session a trusted passkey proved: signed up by code, then their first passkey
 * made in that session (a new payer's first passkey is trusted at once, and proves the session).
 */
export async function provenPayer(app: FastifyInstance, config: TConfig, fullName?: string) {
  const payer = await signedUpPayer(app, fullName);
  const soft = softAuthenticatorFor(config);
  await addPasskey(app, payer.token, soft);
  return { ...payer, soft };
}

/**
 * The step-up (docs/identity.md "Actions and the proof they need"): the session of `token` asks
 * for request options and `authenticator`'s passkey answers them. Returns the server's answer.
 */
export async function stepUp(
  app: FastifyInstance,
  token: string,
  authenticator: SoftAuthenticator,
) {
  const options = await app.inject({
    method: 'POST',
    url: '/api/auth/step-up/options',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(options.statusCode, options.body).toBe(200);
  const { challenge } = options.json<{ options: { challenge: string } }>().options;
  return app.inject({
    method: 'POST',
    url: '/api/auth/step-up',
    headers: { authorization: `Bearer ${token}` },
    payload: { response: authenticator.assert(challenge) },
  });
}

/** A new session of the payer of `phone`, signed in by a phone code alone: its token. */
export async function codeSession(app: FastifyInstance, phone: string): Promise<string> {
  expect((await sendCode(app, phone)).statusCode).toBe(200);
  const login = await loginWithCode(app, { phone, code: await latestCode(app, phone) });
  expect(login.statusCode, login.body).toBe(200);
  return login.json<{ token: string }>().token;
}

export async function signInOptions(app: FastifyInstance): Promise<{ challenge: string }> {
  const response = await app.inject({ method: 'POST', url: '/api/auth/passkeys/sign-in-options' });
  expect(response.statusCode).toBe(200);
  return response.json().options;
}

let phoneSeq = 0;
/** A distinct Nigerian mobile number per call, as a person would type it (local format). */
export function testPhone(): string {
  phoneSeq += 1;
  const tail = String((Date.now() % 1_000_000) * 100 + phoneSeq)
    .padStart(8, '0')
    .slice(-8);
  return `080${tail}`;
}

/**
 * The grant body with the payer's passkey signature over exactly it, as the page sends it: a
 * nonce from POST /api/auth/grant-challenges, then the authenticator's assertion of the canonical
 * grant message.
 */
export async function signedGrant<T extends TGrantPayload>(
  app: FastifyInstance,
  authenticator: SoftAuthenticator,
  token: string,
  consentId: string,
  payload: T,
  signedPayload: TGrantPayload = payload,
) {
  const challenge = await app.inject({
    method: 'POST',
    url: '/api/auth/grant-challenges',
    headers: { authorization: `Bearer ${token}` },
    payload: { consentId },
  });
  expect(challenge.statusCode).toBe(200);
  const { nonce } = challenge.json<{ nonce: string }>();
  const digest = createHash('sha256')
    .update(grantSigningMessage({ consentId, nonce, payload: signedPayload }))
    .digest('base64url');
  return { ...payload, signature: { nonce, response: authenticator.assert(digest) } };
}

/** The OneTap grant's body (spec §2), before its signature: the immediate payment from `accountId`. */
export const oneTapGrantData = (consentId: string, accountId: string) => ({
  originalRequestId: null,
  consentData: { consentId },
  userAuthenticated: true,
  attestDiscoveryId: null,
  immediatePayments: {
    granted: true,
    selectedAccounts: [accountId],
    paymentMethods: [{ type: 'account' as const, accountId }],
  },
});

/**
 * OneTap (spec §2): the payer grants the consent with its immediate payment debited from their
 * linked account `accountId`, signed with their passkey.
 */
export async function oneTapGrant(
  app: FastifyInstance,
  payer: { token: string; soft: SoftAuthenticator; headers: Record<string, string> },
  consentId: string,
  accountId: string,
) {
  return app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    headers: payer.headers,
    payload: await signedGrant(
      app,
      payer.soft,
      payer.token,
      consentId,
      oneTapGrantData(consentId, accountId),
    ),
  });
}
