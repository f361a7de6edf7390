// A payer with data in most places a payer's data lives: an account linked (their BVN verified
// with it), and a consent granted with a future payment and BVN data sharing (payer-rights tests).
import { expect } from 'vitest';
import type { TDatabase } from '../db/database';
import type { FastifyInstance } from 'fastify';
import { erasureDigest } from '../services/payer-rights/erasure-signature';
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

type TSigningPayer = { soft: SoftAuthenticator; headers: Record<string, string> };

/**
 * An erasure's body as the page sends it: a nonce from POST /api/users/data-erasure-challenges,
 * signed by `signer`'s passkey (the payer's own, unless a test says otherwise).
 */
export async function erasureBody(app: FastifyInstance, payer: TSigningPayer, signer = payer.soft) {
  const issued = await app.inject({
    method: 'POST',
    url: '/api/users/data-erasure-challenges',
    headers: payer.headers,
  });
  expect(issued.statusCode, issued.body).toBe(200);
  const { nonce } = issued.json<{ nonce: string }>();
  return { nonce, response: signer.assert(erasureDigest(nonce)) };
}

/** POST /api/users/data-erasures, signed by the payer's passkey. */
export async function askErasure(app: FastifyInstance, payer: TSigningPayer) {
  return app.inject({
    method: 'POST',
    url: '/api/users/data-erasures',
    headers: payer.headers,
    payload: await erasureBody(app, payer),
  });
}
