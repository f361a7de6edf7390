import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZSandboxFixturesResponse,
  type TSandboxFixturesResponse,
} from '../../../domain/schemas/sandbox';
import type { TRouteContext } from '../../context';
import {
  SANDBOX_ACCOUNTS,
  SANDBOX_BANKS,
  SANDBOX_CARDS,
  SANDBOX_CHIP_CARDS,
  SANDBOX_PEOPLE,
  SANDBOX_READERS,
} from '../fixtures';
import { jsonAnswers } from '../../routes/responses';

/**
 * The published test data, as docs/sandbox.md and /sandbox show it: what each bank supports,
 * the people of the BVN registry, and which account (held under whose BVN) or card takes which
 * path. Balances and the people-facing descriptions stay out: scripts choose by scenario.
 */
export function sandboxFixtures(): TSandboxFixturesResponse {
  return {
    people: SANDBOX_PEOPLE.map(({ bvn, fullName, dateOfBirth, phoneNumber }) => ({
      bvn,
      fullName,
      dateOfBirth,
      phoneNumber,
    })),
    banks: SANDBOX_BANKS.map(({ institutionCode, name, integrations }) => ({
      institutionCode,
      name,
      integrations: [...integrations],
    })),
    accounts: SANDBOX_ACCOUNTS.map(
      ({ accountNumber, institutionCode, accountName, bvn, scenario }) => ({
        accountNumber,
        institutionCode,
        accountName,
        bvn,
        scenario,
      }),
    ),
    cards: SANDBOX_CARDS.map(({ number, expiry, cvv, pin, otp, brand, scenario, account }) => ({
      number,
      expiry,
      cvv,
      pin,
      otp,
      brand,
      scenario,
      institutionCode: account.institutionCode,
      accountNumber: account.accountNumber,
    })),
    readers: SANDBOX_READERS.map(({ serial, tid, mid }) => ({ serial, tid, mid })),
    chipCards: SANDBOX_CHIP_CARDS.map(({ number, expiry, pin, serviceCode, brand, scenario }) => ({
      number,
      expiry,
      pin,
      serviceCode,
      brand,
      scenario,
    })),
  };
}

/** GET /api/sandbox/fixtures (docs/sandbox.md): there only while the sandbox is the provider. */
export const sandboxFixtureRoutes: FastifyPluginAsync<TRouteContext> = async (app, { sandbox }) => {
  if (!sandbox) return;
  const fixtures = sandboxFixtures();
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/sandbox/fixtures',
    {
      schema: {
        operationId: 'getSandboxFixtures',
        summary: 'List the sandbox’s test banks, people, accounts and cards',
        response: jsonAnswers({ 200: ZSandboxFixturesResponse }),
      },
    },
    async () => fixtures,
  );
};
