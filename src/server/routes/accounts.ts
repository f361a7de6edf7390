import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdentifier } from '../../domain/schemas/fields';
import {
  ZAccountSearchQuery,
  ZAccountSearchResponse,
  ZBankLookupResponse,
  ZBvnAccountsResponse,
  ZDeleteAccountResponse,
  ZUserAccountsQuery,
  ZUserAccountsResponse,
} from '../../domain/schemas/user-account';
import type { TRouteContext } from '../context';
import { AppError } from '../app-error';
import {
  accountsUnderPayersBvn,
  deletePayerAccount,
  listPayerAccounts,
  lookupBank,
  startAccountSearch,
} from '../services/linking/payer-accounts';
import { payerOf, requirePayer } from './payer-guard';
import { jsonAnswers } from './responses';

/** A signed-in payer's bank accounts, finding one by its number, and banks (spec §7). */
export const accountRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const guard = requirePayer(ctx, { identifyTo: 'ignore' });

  api.get(
    '/api/accounts/search',
    {
      onRequest: [guard, ctx.limits.accountSearches],
      schema: {
        operationId: 'searchAccounts',
        summary: 'Find a bank account by its number',
        querystring: ZAccountSearchQuery,
        response: jsonAnswers({ 200: ZAccountSearchResponse }),
      },
    },
    async (request) => {
      const { validationId, ticket, expiresAt } = await startAccountSearch(
        ctx,
        payerOf(request).payerId,
        request.query.q,
      );
      return { banks: { results: [{ validationId }] }, stream: { ticket, expiresAt } };
    },
  );

  api.get(
    '/api/accounts/user',
    {
      onRequest: guard,
      schema: {
        operationId: 'listPayerAccounts',
        summary: 'List the payer’s linked bank accounts',
        querystring: ZUserAccountsQuery,
        response: jsonAnswers({ 200: ZUserAccountsResponse }),
      },
    },
    // includeBvn asks for the BVN on each account: none is kept yet, so there is none to add.
    async (request) => ({
      success: true as const,
      accounts: await listPayerAccounts(ctx, payerOf(request).payerId),
    }),
  );

  api.get(
    '/api/accounts/bvn',
    {
      onRequest: [guard, ctx.limits.accountSearches],
      schema: {
        operationId: 'listBvnAccounts',
        summary: 'List the accounts held under the payer’s BVN',
        response: jsonAnswers({ 200: ZBvnAccountsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      accounts: await accountsUnderPayersBvn(ctx, payerOf(request).payerId),
    }),
  );

  api.get(
    '/api/bank-lookups/:institutionCode',
    {
      schema: {
        operationId: 'lookUpBank',
        summary: 'Look up a bank by its institution code',
        params: z.object({
          institutionCode: z.string().regex(/^\d{3,6}$/, 'must be 3 to 6 digits'),
        }),
        response: jsonAnswers({ 200: ZBankLookupResponse }),
      },
    },
    async (request) => lookupBank(ctx, request.params.institutionCode),
  );

  api.delete(
    '/api/accounts/:accountId',
    {
      // Off, the call does not exist: 404 before anything else is looked at.
      onRequest: async (request, reply) => {
        if (!ctx.config.debugRoutes) throw new AppError('NOT_FOUND');
        await guard.call(app, request, reply);
      },
      schema: {
        params: z.object({ accountId: ZIdentifier }),
        response: jsonAnswers({ 200: ZDeleteAccountResponse }),
      },
    },
    async (request) => {
      await deletePayerAccount(ctx, payerOf(request).payerId, request.params.accountId);
      return { message: 'Account deleted' };
    },
  );
};
