// Mandates no provider keeps move from the sandbox to Remita: a server on MANDATE_PROVIDERS=sandbox
// opened two links of a payer, one by the sandbox's auth parameters and one by a paper form the
// bank approves after its delay; then the server restarted on the same database with
// MANDATE_PROVIDERS=remita. The payer's answers to the first, and the bank's approval of the
// second, are still asked of the sandbox, the provider each link names
// (account_links.mandate_set_up_by), and Remita hears nothing of them. A link that names none
// (made before it was kept) asks no provider: the payer's answers end it. On PGlite and on
// PostgreSQL.
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAccountLink } from '../../domain/schemas/account-link';
import { accountLinks } from '../db/schema';
import { SANDBOX_ACCOUNTS } from '../sandbox/fixtures';
import { SANDBOX_PAPER_APPROVAL_MS } from '../sandbox/sandbox-provider';
import { signedUpPayer, type TSignedUpPayer } from '../testing/identity';
import { accountLinkRow, openOwnLink } from '../testing/payments';
import {
  startRemitaSimulator,
  type TRemitaSimulator,
} from '../testing/remita-simulator/remita-simulator';
import { secondServer } from '../testing/second-server';
import { startTestApp, testClock, testConfig } from '../testing/test-app';
import { usable } from './off';

const clock = testClock(new Date());
let first: Awaited<ReturnType<typeof startTestApp>>;
let restarted: Awaited<ReturnType<typeof secondServer>>;
let remita: TRemitaSimulator;

beforeAll(async () => {
  remita = await startRemitaSimulator();
  remita.useClock(() => clock.now());
  first = await startTestApp({ clock, webhookDelivery: 'manual' });
});
afterAll(async () => {
  await restarted?.close();
  await first.close();
  await remita.close();
});

/**
 * The payer sends `app` the right answers to their link's auth parameters (every sandbox account
 * of the scenario asks its fixture's card digits and OTP).
 */
function answerRight(app: FastifyInstance, payer: TSignedUpPayer, link: TAccountLink) {
  const { cardLast4, otp } = SANDBOX_ACCOUNTS.find(
    (account) => account.scenario === 'links_by_auth_params',
  )?.authParams ?? { cardLast4: '', otp: '' };
  return app.inject({
    method: 'POST',
    url: '/api/transactionservicealt/confirm',
    headers: payer.headers,
    payload: {
      remitaTransRef: link.remitaTransRef,
      authParams: [
        { param1: 'CARD', value: cardLast4 },
        { param1: 'OTP', value: otp },
      ],
    },
  });
}

describe('mandates no provider keeps, after MANDATE_PROVIDERS moves to Remita', () => {
  it('asks the sandbox that set each up about it, never Remita', async () => {
    const payer = await signedUpPayer(first.app, 'Chukwuemeka Eze');
    const byAuthParams = await openOwnLink(first.app, payer.token, 'links_by_auth_params');
    const byPaper = await openOwnLink(first.app, payer.token, 'paper_mandate');
    for (const { id } of [byAuthParams, byPaper]) {
      expect(await accountLinkRow(first.database, id)).toMatchObject({
        mandateSetUpBy: 'sandbox',
        mandateProvider: null,
      });
    }
    // Another payer's link as one made before the column was kept, its row proving no provider.
    const other = await signedUpPayer(first.app, 'Amaka Obi');
    const unnamed = await openOwnLink(first.app, other.token, 'links_by_auth_params');
    await first.database.db
      .update(accountLinks)
      .set({ mandateSetUpBy: null })
      .where(eq(accountLinks.id, unnamed.id));

    await first.app.close();
    restarted = await secondServer(
      {
        database: first.database,
        config: testConfig({
          MANDATE_PROVIDERS: 'remita',
          REMITA_MERCHANT_ID: remita.merchantId,
          REMITA_SERVICE_TYPE_ID: remita.serviceTypeId,
          REMITA_API_KEY: remita.apiKey,
          REMITA_API_TOKEN: remita.apiToken,
          REMITA_BASE_URL: remita.url,
        }),
      },
      clock,
    );
    const { app } = restarted;
    expect(usable(app.appContext.providers.payments.mandates).provider).toBe('remita');

    const answered = await answerRight(app, payer, byAuthParams);
    expect(answered.statusCode, answered.body).toBe(200);
    expect((await accountLinkRow(first.database, byAuthParams.id))?.state).toBe('active');

    clock.advance(SANDBOX_PAPER_APPROVAL_MS);
    const approved = await app.inject({
      method: 'POST',
      url: `/api/account-links/confirm-payment/${byPaper.id}`,
      headers: payer.headers,
    });
    expect(approved.json()).toMatchObject({ success: true, status: 'completed' });
    expect((await accountLinkRow(first.database, byPaper.id))?.state).toBe('active');
    expect(remita.requests).toEqual([]);

    // Naming none, no provider is asked about its answers: the link ends, and its payer may
    // start again.
    const unasked = await answerRight(app, other, unnamed);
    expect(unasked.statusCode, unasked.body).toBe(409);
    expect(unasked.json()).toMatchObject({ error: { code: 'ACCOUNT_LINK_CANCELLED' } });
    expect(await accountLinkRow(first.database, unnamed.id)).toMatchObject({
      state: 'cancelled',
      authTries: 0,
    });
    expect(remita.requests).toEqual([]);
  });
});
