// The real server on an in-memory PGlite database, with the merchant clients the tests use.
import { ALL_CAPABILITIES_ON } from '../../src/domain/capabilities';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { CURRENCY_CODE } from '../../src/domain/constants';
import { ZCreateConsentRequest } from '../../src/domain/schemas/merchant-api';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/database';
import {
  accountLinks,
  consents,
  payers,
  paymentAttempts,
  payments,
  transferNotices,
} from '../../src/server/db/schema';
import { createConsent } from '../../src/server/services/consents/consents';
import { expireThreeDsChallenges } from '../../src/server/services/payments/card-payments';
import {
  book,
  checkLedger,
  ledgerAccount,
  ledgerProblems,
} from '../../src/server/services/payments/ledger';
import { seedDemo } from '../../src/server/services/demo/demo-seed';
import { authenticatePayer } from '../../src/server/services/identity/payer-sessions';
import { createMerchantClient } from '../../src/server/services/merchants/merchant-clients';
import { E2E } from './e2e-env';
import { GRANTED_CONSENT_BODY, GRANTED_CONSENT_KEY } from './fixtures';

const config = loadConfig({
  ...process.env,
  PORT: String(E2E.appPort),
  LOG_LEVEL: 'warn',
  AUTH_TOKEN_SECRET: E2E.tokenSecret,
  // The sandbox's 'timeout' card gives up after 9 s here, not 20; the charge call answers that
  // the bank is still answering after 4 s, not 8, so a test can reload in between.
  SANDBOX_CARD_TIMEOUT_MS: '9000',
  CARD_ANSWER_WAIT_MS: '4000',
  // The testers' tools (the account row's delete menu) are tested here.
  DEBUG_ROUTES: 'on',
  // The specs' webhook endpoints are the embed host on this machine, over http.
  WEBHOOKS_ALLOW_PRIVATE: 'on',
  // Future payments' notices and collections run as on a real server, every 5 s
  // (debit-notices.spec.ts waits for a notice's SMS); only payments due within a day are touched.
  COLLECTION_INTERVAL_MS: '5000',
});
const database = await openDatabase({ kind: 'pglite' });
await createMerchantClient(database.db, {
  merchantId: 'mer_e2e',
  clientId: E2E.clientId,
  secret: E2E.clientSecret,
  name: 'Tola Stores',
  image: '/demo/merchant-logo.svg',
  origins: [E2E.hostOrigin],
  colours: { primaryColour: '#0E7C66', secondaryColour: '#123B52' },
});
await createMerchantClient(database.db, {
  clientId: E2E.otherClientId,
  secret: E2E.otherClientSecret,
  name: 'Other Merchant',
});
await seedDemo(database.db, config);

// A consent already granted, with a collected payment: the granted screen has no other way in
// until the grant flow exists. Tests find it by re-posting with its idempotency key.
const granted = await createConsent(
  database.db,
  ZCreateConsentRequest.parse(GRANTED_CONSENT_BODY),
  {
    clientId: E2E.clientId,
    merchantId: 'mer_e2e',
    idempotencyKey: GRANTED_CONSENT_KEY,
    capabilities: ALL_CAPABILITIES_ON,
  },
);
const grantedAt = new Date('2026-11-20T14:30:00Z');
await database.db
  .update(consents)
  .set({ status: 'granted', grantedAt })
  .where(eq(consents.id, granted.consentId));
// Its payment is booked as a transfer would book it, with the taken notice of that transfer, so
// the books the suite leaves balance (every transfer booked is a taken notice's: ledger.ts).
await database.db.transaction(async (tx) => {
  const [paid] = await tx
    .update(payments)
    .set({
      status: 'executed',
      executedAt: grantedAt,
      origin: { paymentMethod: 'bank_transfer', bankName: 'Sandbox Bank' },
    })
    .where(and(eq(payments.consentId, granted.consentId), eq(payments.type, 'immediate')))
    .returning({ id: payments.id, amount: payments.amount, narration: payments.narration });
  if (!paid) throw new Error('The granted consent has no immediate payment');
  const reference = `e2e_fixture:${paid.id}`;
  await tx.insert(transferNotices).values({
    provider: 'sandbox',
    providerReference: reference,
    reference,
    amount: paid.amount,
    currency: CURRENCY_CODE,
    answer: 'taken',
    createdAt: grantedAt,
  });
  await book(tx, {
    kind: 'transfer_payment',
    reference,
    paymentId: paid.id,
    attemptId: null,
    narration: paid.narration,
    entries: [
      { account: ledgerAccount.payerSource('bank_transfer'), amount: -paid.amount },
      { account: ledgerAccount.collectionWallet('mer_e2e'), amount: paid.amount },
    ],
  });
});
// Every browser of the suite comes from this machine's one address: the limits per address
// would count two projects' sign-ins and card charges together, and the suite pays with the
// sandbox's few cards again and again. They have tests of their own (rate-limits.test.ts,
// card-limits.test.ts).
const perAddress = { max: 10_000, windowMs: 60_000 };
const app = await buildApp({
  config,
  database,
  webDir: path.resolve('dist/web'),
  collections: 'auto',
  rateLimits: {
    codeSendsPerAddress: perAddress,
    smsPerAddress: perAddress,
    bvnVerificationsPerAddress: perAddress,
    discoveriesPerAddress: perAddress,
    challengesPerAddress: perAddress,
    loginsPerAddress: perAddress,
    cardChargesPerAddress: perAddress,
    cardDeclinesPerCard: perAddress,
    embedChecksPerAddress: perAddress,
  },
});
// For the suite's last check (books.check.ts): what `npm run ledger:check` proves, of the books
// every browser test left. A route of this test server only.
app.get('/__e2e/books', async () => {
  const report = await checkLedger(database.db, {
    provider: app.appContext.providers.payments.settlement,
  });
  return { transactions: report.transactions, problems: ledgerProblems(report) };
});
// A payment's 3-D Secure challenge left unanswered for its 10 minutes, at once, then the
// reconciler's sweep that ends it (docs/payments.md): a browser test cannot wait ten minutes.
app.post<{ Params: { paymentId: string } }>(
  '/__e2e/payments/:paymentId/3ds-unanswered',
  async (request) => {
    await database.db
      .update(paymentAttempts)
      .set({ challengeExpiresAt: app.appContext.clock.now() })
      .where(
        and(
          eq(paymentAttempts.paymentId, request.params.paymentId),
          eq(paymentAttempts.stage, 'awaiting_3ds'),
        ),
      );
    return { ended: await expireThreeDsChallenges(app.appContext) };
  },
);
// The signed-in payer as the BVN migration left every payer of before (docs/identity.md "The
// BVN"): their links record no BVN, and they have verified none. A browser test cannot link an
// account the way it was linked before BVNs were checked.
app.post('/__e2e/payer/links-before-bvn', async (request) => {
  const { payerId } = await authenticatePayer(
    database.db,
    config,
    request.headers.authorization,
    app.appContext.clock.now(),
  );
  await database.db
    .update(accountLinks)
    .set({ bvnHash: null })
    .where(eq(accountLinks.payerId, payerId));
  await database.db
    .update(payers)
    .set({ bvnHash: null, bvnSealed: null, bvnLast4: null, bvnVerifiedAt: null })
    .where(eq(payers.id, payerId));
  return { success: true };
});
await app.listen({ port: E2E.appPort, host: '0.0.0.0' });
