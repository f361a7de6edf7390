// A payer with data in most places a payer's data lives: an account linked (their BVN verified
// with it), and a consent granted with a future payment and BVN data sharing (payer-rights tests).
import { expect } from 'vitest';
import type { TDatabase } from '../db/database';
import type { FastifyInstance } from 'fastify';
import type { SoftAuthenticator } from './soft-authenticator';
import { signedGrant } from './identity';
import { createTestClient } from './test-app';

type TGranting = {
  app: FastifyInstance;
  database: TDatabase;
  payer: { token: string; soft: SoftAuthenticator; headers: Record<string, string> };
  accountId: string;
  /** The future payment's due date; none: 'As needed'. */
  dueDate?: Date;
};

/** A new merchant's consent with one future payment and BVN data sharing, granted by the payer. */
export async function grantedWithSharing({ app, database, payer, accountId, dueDate }: TGranting) {
  const merchant = await createTestClient(database, { name: 'Ada Foods' });
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: merchant.authorization },
    payload: {
      payments: [
        {
          type: 'future',
          amount: 500_000,
          narration: 'Meal plan',
          ...(dueDate ? { dueDate: dueDate.toISOString() } : { amountType: 'variable' }),
        },
      ],
      dataSharing: { bvnData: true },
      requirements: { requiresAuth: true },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const consentId = created.json<{ consentId: string }>().consentId;
  const data = {
    originalRequestId: null,
    consentData: { consentId },
    userAuthenticated: true,
    attestDiscoveryId: null,
    futurePayments: {
      granted: true,
      selectedAccounts: [accountId],
      paymentMethods: [{ type: 'account' as const, accountId }],
    },
    dataSharing: { granted: true, dataTypes: ['bvnData'] },
  };
  const granted = await app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    headers: payer.headers,
    payload: await signedGrant(app, payer.soft, payer.token, consentId, data),
  });
  expect(granted.statusCode, granted.body).toBe(200);
  return { consentId, merchant };
}
