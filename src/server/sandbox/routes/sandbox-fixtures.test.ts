// The sandbox's published test data as JSON: the fixtures exactly, without the
// balances and descriptions, and only while the sandbox is the payment provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZSandboxFixturesResponse } from '../../../domain/schemas/sandbox';
import {
  SANDBOX_ACCOUNTS,
  SANDBOX_BANKS,
  SANDBOX_CARDS,
  SANDBOX_CHIP_CARDS,
  SANDBOX_PEOPLE,
  SANDBOX_READERS,
} from '../fixtures';
import { startPluginApp } from '../../testing/plugin-app';
import { publicConfigRoutes } from '../../routes/public-config';
import { sandboxFixtureRoutes } from './sandbox-fixtures';

let ctx: Awaited<ReturnType<typeof startPluginApp>>;
beforeAll(async () => {
  ctx = await startPluginApp(sandboxFixtureRoutes);
});
afterAll(() => ctx.close());

describe('GET /api/sandbox/fixtures', () => {
  it('answers every bank, person, account (with its holder’s BVN), card, card reader and chip card of the fixtures, in the published shape', async () => {
    const response = await ctx.app.inject({ url: '/api/sandbox/fixtures' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    expect(ZSandboxFixturesResponse.parse(body)).toEqual(body);
    expect(body).toEqual({
      banks: SANDBOX_BANKS.map((bank) => ({ ...bank, integrations: [...bank.integrations] })),
      // The BVN registry's people: the phone is the one the BVN is registered with.
      people: SANDBOX_PEOPLE.map(({ bvn, fullName, dateOfBirth, phoneNumber }) => ({
        bvn,
        fullName,
        dateOfBirth,
        phoneNumber,
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
        // The test account the card is issued on, the one it links.
        institutionCode: account.institutionCode,
        accountNumber: account.accountNumber,
      })),
      readers: SANDBOX_READERS.map(({ serial, tid, mid }) => ({ serial, tid, mid })),
      chipCards: SANDBOX_CHIP_CARDS.map(
        ({ number, expiry, pin, serviceCode, brand, scenario }) => ({
          number,
          expiry,
          pin,
          serviceCode,
          brand,
          scenario,
        }),
      ),
    });
  });

  it('leaves out balances and the descriptions meant for people', async () => {
    const text = (await ctx.app.inject({ url: '/api/sandbox/fixtures' })).body;
    expect(text).not.toContain('balance');
    expect(text).not.toContain('description');
    expect(text).not.toContain('authParams');
    expect(text).not.toContain('signInPhone');
  });

  it('does not exist without the sandbox', async () => {
    const real = await startPluginApp(sandboxFixtureRoutes, { sandbox: null });
    try {
      const response = await real.app.inject({ url: '/api/sandbox/fixtures' });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
    } finally {
      await real.close();
    }
  });

  it('is not announced to the page without the sandbox', async () => {
    const real = await startPluginApp(publicConfigRoutes, { sandbox: null });
    try {
      const response = await real.app.inject({ url: '/api/public-config' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ success: true, sandbox: false });
    } finally {
      await real.close();
    }
  });
});
