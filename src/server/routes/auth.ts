import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZAuthMeResponse,
  ZDiscoveryRequest,
  ZDiscoveryResponse,
  ZLoginRequest,
  ZLoginResponse,
  ZOkResponse,
  ZSessionResponse,
  ZWebAuthnOptionsResponse,
} from '../../domain/schemas/auth';
import type { TRouteContext } from '../context';
import { openDiscovery } from '../services/identity/auth-discovery';
import { signInOptions } from '../services/identity/passkeys';
import { login } from '../services/identity/payer-login';
import { revokeSession } from '../services/identity/payer-sessions';
import { describePayer } from '../services/identity/payers';
import { payerOf, requirePayer } from './payer-guard';
import { jsonAnswers } from './responses';
import type { TZodApp } from './zod-app';

/** Sign-in: its authentication session, a passkey's options, and the login itself. */
function registerSignInRoutes(r: TZodApp, ctx: TRouteContext) {
  const { db, config, clock, limits } = ctx;

  // Opens the authentication session a login must name (spec §3 attestDiscoveryId, §5).
  r.post(
    '/api/auth/discovery',
    {
      onRequest: limits.discoveries,
      schema: {
        operationId: 'startAuthDiscovery',
        summary: 'Open the authentication session a sign-in names',
        body: ZDiscoveryRequest,
        response: jsonAnswers({ 200: ZDiscoveryResponse }),
      },
    },
    async (request) => {
      const discovery = await openDiscovery(db, request.body, clock.now());
      return {
        success: true as const,
        discoveryId: discovery.discoveryId,
        expiresAt: discovery.expiresAt.toISOString(),
      };
    },
  );

  // Options for a discoverable-credential sign-in (also used by the browser's autofill).
  r.post(
    '/api/auth/passkeys/sign-in-options',
    {
      onRequest: limits.challenges,
      schema: {
        operationId: 'getPasskeySignInOptions',
        summary: 'Get the WebAuthn options of a passkey sign-in',
        response: jsonAnswers({ 200: ZWebAuthnOptionsResponse }),
      },
    },
    async () => ({
      success: true as const,
      options: await signInOptions(db, config, clock.now()),
    }),
  );

  // spec §7 login: POST, not GET, because the passkey assertion rides in the body (a URL is
  // logged by every proxy on the way).
  r.post(
    '/api/auth/login',
    {
      onRequest: limits.logins,
      schema: {
        operationId: 'signIn',
        summary: 'Sign in, or sign up, with a passkey or an SMS code',
        body: ZLoginRequest,
        response: jsonAnswers({ 200: ZLoginResponse }),
      },
    },
    async (request) => {
      const result = await login(db, config, request.body, clock.now());
      return {
        success: true as const,
        token: result.token,
        user: result.user,
        message: result.newAccount ? 'Account created' : 'Signed in',
        expiresAt: result.expiresAt.toISOString(),
        newAccount: result.newAccount,
        passkeyCount: result.passkeyCount,
      };
    },
  );
}

/** The signed-in payer: who they are, who they act for, and their logout. */
function registerSessionRoutes(r: TZodApp, ctx: TRouteContext) {
  const { db, clock } = ctx;

  // spec §6: auth/me describes the person; x-identify-to is ignored here.
  r.get(
    '/api/auth/me',
    {
      onRequest: requirePayer(ctx, { identifyTo: 'ignore' }),
      schema: {
        operationId: 'getMe',
        summary: 'Read the signed-in payer',
        response: jsonAnswers({ 200: ZAuthMeResponse }),
      },
    },
    async (request) => {
      const payer = payerOf(request);
      const described = await describePayer(db, payer.payerId);
      return {
        success: true as const,
        ...described,
        expiresAt: payer.expiresAt.toISOString(),
        passkeyProven: payer.passkeyProven,
      };
    },
  );

  // Who acts, and for which merchant (spec §6 merchant or agent mode).
  r.get(
    '/api/auth/session',
    {
      onRequest: requirePayer(ctx, { identifyTo: 'honour' }),
      schema: {
        operationId: 'getSession',
        summary: 'Read who acts in this session, and for which merchant',
        response: jsonAnswers({ 200: ZSessionResponse }),
      },
    },
    async (request) => {
      const payer = payerOf(request);
      const { user } = await describePayer(db, payer.payerId);
      return { success: true as const, user, identifiedTo: payer.identifiedTo };
    },
  );

  r.post(
    '/api/auth/logout',
    {
      onRequest: requirePayer(ctx, { identifyTo: 'ignore' }),
      schema: {
        operationId: 'signOut',
        summary: 'Sign out of this session',
        response: jsonAnswers({ 200: ZOkResponse }),
      },
    },
    async (request) => {
      await revokeSession(db, payerOf(request).sessionId, clock.now());
      return { success: true as const };
    },
  );
}

/** Sign-in, sessions and the payer's own identity (docs/identity.md). */
export const authRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  registerSignInRoutes(r, ctx);
  registerSessionRoutes(r, ctx);
};
