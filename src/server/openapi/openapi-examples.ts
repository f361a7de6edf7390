import type { TErrorCode } from '../../domain/errors';

/*
 * Examples of the document's operations, keyed "METHOD /path/{param}": named request bodies,
 * named answers per status, and the catalogue failures the operation answers besides the common
 * ones (openapi-content.ts commonFailures). routes/openapi.test.ts checks every example against
 * its operation's schema, so none can drift from what the server checks and answers.
 */
export type TOperationExamples = {
  request?: Record<string, unknown>;
  responses?: Record<string, Record<string, unknown>>;
  failures?: TErrorCode[];
};

const CONSENT_ID = 'cns_fnl4BTkusMoTsr0E';
const CLIENT_ID = 'cli_4HUci2uNsqcp';
const MERCHANT_ID = 'mer_R6kkbxFlo4rHLFWB';
const PAYMENT_ID = 'pay_l2S7CUrPPlog0gGw';
const FUTURE_PAYMENT_ID = 'pay_6jC-mqh50_XulfrS';
const WEBHOOK_ID = 'whk_4xEpjFMJAQZhcLpy';

const immediatePayment = {
  paymentId: PAYMENT_ID,
  type: 'immediate',
  status: 'pending',
  executedAt: null,
  amount: 250_000,
  narration: 'Order #1042',
  dueDate: null,
  startDate: null,
  endDate: null,
  frequency: null,
  interval: null,
  amountType: 'fixed',
  paypointId: null,
  paypointDetails: null,
  shieldWallet: { bankName: 'Rubies MFB' },
  origin: null,
};

const futurePayment = {
  ...immediatePayment,
  paymentId: FUTURE_PAYMENT_ID,
  type: 'future',
  amount: 500_000,
  narration: 'Monthly plan',
  startDate: '2026-12-01T00:00:00.000Z',
  frequency: 'monthly',
  interval: 1,
  shieldWallet: null,
};

const consent = {
  consentId: CONSENT_ID,
  status: 'pending',
  grantedAt: null,
  expiresAt: '2026-11-26T13:53:02.475Z',
  counterparty: {
    name: 'Tola Stores',
    image: null,
    tag: null,
    type: 'merchant',
    merchantId: MERCHANT_ID,
    merchantColours: {
      primaryColour: '#FE7048',
      primaryText: '#FFFFFF',
      secondaryColour: '#1f2937',
      secondaryText: '#FFFFFF',
    },
  },
  party: null,
  actOnBehalfOf: null,
  payments: [immediatePayment, futurePayment],
  dataSharing: { bvnData: true },
  formId: null,
  formResponseId: null,
  formCompletion: null,
  requirements: { requiresAuth: false, requiresAccount: false },
  attestDiscoveryId: null,
  attestAuthAppId: null,
  authAppId: null,
  revokedAt: null,
  pausedAt: null,
  dataSharingExpiresAt: null,
  dataSharingEndedAt: null,
  mandates: [],
  formResponse: null,
  sharedData: { bvn: null },
  reference: 'ORD-1042',
  metadata: { orderId: '1042', channel: 'web' },
  returnUrl: 'https://shop.example/orders/1042',
};

const refund = {
  refundId: 'rfd_Vb3nK0wQe7ZpLm2x',
  paymentId: PAYMENT_ID,
  amount: 100_000,
  reason: 'One item out of stock',
  status: 'processed',
  failureReason: null,
  createdAt: '2026-11-26T10:15:00.000Z',
  endedAt: '2026-11-26T10:15:01.000Z',
};

/** An immediate payment paid by card, as GET /api/v1/payments answers it (refunds apart). */
const paidByCard = {
  paymentId: PAYMENT_ID,
  consentId: CONSENT_ID,
  type: 'immediate',
  status: 'executed',
  amount: 250_000,
  amountType: 'fixed',
  narration: 'Order #1042',
  dueDate: null,
  executedAt: '2026-11-25T14:02:11.000Z',
  collections: [],
  method: 'card',
  createdAt: '2026-11-25T13:53:02.475Z',
  reference: 'ORD-1042',
  metadata: { orderId: '1042', channel: 'web' },
};

const collection = {
  collectionId: 'col_Qm2v9XkR1sTt',
  paymentId: FUTURE_PAYMENT_ID,
  trigger: 'merchant',
  amount: 500_000,
  status: 'succeeded',
  dueAt: '2026-12-01T09:00:00.000Z',
  notifiedAt: null,
  completedAt: '2026-12-01T09:00:02.000Z',
  account: {
    accountId: 'acc_7Yp2LmQ0',
    bankName: 'Guaranty Trust Bank',
    accountNumber: '****6785',
  },
  failure: null,
  tries: [
    {
      accountId: 'acc_7Yp2LmQ0',
      bankName: 'Guaranty Trust Bank',
      accountNumber: '****6785',
      position: 0,
      outcome: 'succeeded',
      reason: null,
      at: '2026-12-01T09:00:02.000Z',
    },
  ],
};

export const OPERATION_EXAMPLES: Record<string, TOperationExamples> = {
  'POST /api/v1/consents': {
    request: {
      'A payment now and a monthly one, with the payer’s BVN': {
        payments: [
          { type: 'immediate', amount: 250_000, narration: 'Order #1042' },
          {
            type: 'future',
            amount: 500_000,
            narration: 'Monthly plan',
            startDate: '2026-12-01',
            frequency: 'monthly',
            interval: 1,
          },
        ],
        dataSharing: { bvnData: true },
        reference: 'ORD-1042',
        metadata: { orderId: '1042', channel: 'web' },
        returnUrl: 'https://shop.example/orders/1042',
      },
      'A form only': { formId: 'frm_kyc2026', expiresAt: '2026-11-30T18:00:00.000Z' },
    },
    responses: {
      '201': {
        'Created: send the payer to url': {
          success: true,
          consentId: CONSENT_ID,
          url: `https://pay.example/r/${CONSENT_ID}?clientId=${CLIENT_ID}`,
          expiresAt: '2026-11-26T13:53:02.475Z',
        },
      },
      '200': {
        'A retry with the same Idempotency-Key: the first answer': {
          success: true,
          consentId: CONSENT_ID,
          url: `https://pay.example/r/${CONSENT_ID}?clientId=${CLIENT_ID}`,
          expiresAt: '2026-11-26T13:53:02.475Z',
        },
      },
    },
    failures: ['IDEMPOTENCY_KEY_REUSED', 'REFERENCE_REUSED', 'FORM_NOT_FOUND'],
  },
  'GET /api/v1/consents/{consentId}': {
    responses: { '200': { 'A pending consent': { success: true, consent } } },
    failures: ['CONSENT_NOT_FOUND'],
  },
  'GET /api/v1/consents/{consentId}/shared-data/bvn': {
    responses: {
      '200': {
        'bvnData asked whole': {
          success: true,
          bvn: { bvn: '22212345678', fullName: 'Adaeze Okonkwo', dateOfBirth: '1990-04-12' },
        },
        'bvnData asked as ["dateOfBirth"]': {
          success: true,
          bvn: { bvn: '22212345678', dateOfBirth: '1990-04-12' },
        },
      },
    },
    failures: [
      'CONSENT_NOT_FOUND',
      'BVN_NOT_SHARED',
      'SHARED_BVN_NOT_VERIFIED',
      'CONSENT_NOT_GRANTED',
      'CONSENT_REVOKED',
    ],
  },
  'GET /api/v1/consents/{consentId}/record': {
    responses: {
      '200': {
        'A consent granted with a passkey on the merchant’s page': {
          success: true,
          record: {
            consentId: CONSENT_ID,
            status: 'granted',
            textVersion: 'consent-text/1',
            textHash: 'b5d4045c3f466fa91fe2cc6abe79232a1a57cdf104f7a26e716e0a1e2789df78',
            text: `Tola Stores - Consent Request\nConsent ${CONSENT_ID}\nThey would like to:\n- Access your BVN data\nYou can withdraw this consent at any time in Your consents, or by the link in the SMS receipt we send you.`,
            scopes: ['Access your BVN data'],
            payments: [],
            payerId: 'usr_4b1f0c2a9d8e7f6a5b4c3d2e',
            merchant: { merchantId: 'mer_tola', name: 'Tola Stores' },
            channel: 'embedded',
            authentication: 'passkey',
            grantedAt: '2026-11-25T14:02:11.000Z',
            revokedAt: null,
            dataSharingExpiresAt: '2027-11-25T14:02:11.000Z',
            dataSharingEndedAt: null,
          },
          audit: [
            {
              id: 1,
              type: 'consent.created',
              label: 'Requested by the merchant',
              actor: 'merchant',
              at: '2026-11-25T13:53:02.475Z',
            },
            {
              id: 2,
              type: 'consent.granted',
              label: 'Granted',
              actor: 'payer',
              at: '2026-11-25T14:02:11.000Z',
            },
          ],
        },
      },
    },
    failures: ['CONSENT_NOT_FOUND'],
  },
  'GET /api/v1/consents': {
    responses: {
      '200': {
        'One page': { success: true, consents: [consent], nextCursor: null },
        'None yet': { success: true, consents: [], nextCursor: null },
      },
    },
  },
  'POST /api/v1/webhooks': {
    request: { 'Your receiver': { url: 'https://shop.tola.example/hooks' } },
    responses: {
      '201': {
        'Registered: keep the secret, it is shown this once': {
          success: true,
          id: WEBHOOK_ID,
          url: 'https://shop.tola.example/hooks',
          createdAt: '2026-11-25T13:53:03.700Z',
          secret: 'whsec_vH7doxosY5LMsldRrdEnLuSiYD3hfvD5sAXObrw8Dco',
        },
      },
    },
    failures: ['WEBHOOK_URL_REFUSED'],
  },
  'GET /api/v1/webhooks': {
    responses: {
      '200': {
        'One endpoint': {
          success: true,
          webhooks: [
            {
              id: WEBHOOK_ID,
              url: 'https://shop.tola.example/hooks',
              createdAt: '2026-11-25T13:53:03.700Z',
              status: 'active',
              disabledAt: null,
            },
          ],
        },
      },
    },
  },
  'DELETE /api/v1/webhooks/{webhookId}': {
    responses: { '200': { Deleted: { success: true } } },
    failures: ['NOT_FOUND'],
  },
  'GET /api/v1/webhooks/deliveries': {
    responses: {
      '200': {
        'A delivery being retried': {
          success: true,
          deliveries: [
            {
              id: 17,
              endpointId: WEBHOOK_ID,
              eventId: 'evt_42',
              eventType: 'payment.completed',
              consentId: CONSENT_ID,
              status: 'pending',
              attempts: 2,
              lastStatus: 500,
              lastError: 'answered 500',
              lastBody: '{"error":"database unavailable"}',
              nextAttemptAt: '2026-11-25T13:55:03.700Z',
              deliveredAt: null,
            },
          ],
        },
      },
    },
  },
  'GET /api/v1/payments/{paymentId}': {
    responses: {
      '200': {
        'A future payment collected once': {
          success: true,
          payment: {
            paymentId: FUTURE_PAYMENT_ID,
            consentId: CONSENT_ID,
            type: 'future',
            status: 'executed',
            amount: 500_000,
            amountType: 'fixed',
            narration: 'Monthly plan',
            dueDate: null,
            executedAt: '2026-12-01T09:00:02.000Z',
            collections: [collection],
            refunded: 0,
            refunds: [],
            method: 'account',
            createdAt: '2026-11-25T13:53:02.475Z',
            reference: 'ORD-1042',
            metadata: { orderId: '1042', channel: 'web' },
          },
        },
        'An immediate payment refunded in part': {
          success: true,
          payment: { ...paidByCard, refunded: 100_000, refunds: [refund] },
        },
      },
    },
    failures: ['PAYMENT_NOT_FOUND'],
  },
  'GET /api/v1/payments': {
    responses: {
      '200': {
        'One page, paid by card': {
          success: true,
          payments: [{ ...paidByCard, refunded: 0, refunds: [] }],
          nextCursor: 'MjAyNi0xMS0yNVQxMzo1MzowMi40NzVafHBheV8tWlVVVmdfQ1hILU55N1hl',
        },
      },
    },
  },
  'GET /api/v1/events': {
    responses: {
      '200': {
        'A payment completed': {
          success: true,
          events: [
            {
              id: 'evt_3q2-7wEjVR9mXoPz0aLk4g',
              type: 'payment.completed',
              createdAt: '2026-11-25T14:02:11.000Z',
              data: {
                consentId: CONSENT_ID,
                paymentId: PAYMENT_ID,
                amount: 250_000,
                method: 'card',
                executedAt: '2026-11-25T14:02:11.000Z',
                reference: 'ORD-1042',
                metadata: { orderId: '1042', channel: 'web' },
              },
            },
          ],
          nextCursor: null,
        },
      },
    },
  },
  'POST /api/v1/payments/{paymentId}/refunds': {
    request: {
      'Part of the payment, with a reason': { amount: 100_000, reason: 'One item out of stock' },
      'What remains of the payment': {},
      'A transfer whose notice named no sender, to the account the payer gave': {
        reason: 'Order cancelled',
        refundTo: { institutionCode: '058', accountNumber: '0123456789' },
      },
    },
    responses: {
      '201': {
        'Given back to the payer': { success: true, refund },
        'Refused by the provider: its amount may be refunded again': {
          success: true,
          refund: { ...refund, status: 'failed', failureReason: 'account_not_found' },
        },
      },
      '202': {
        'The provider has not answered yet: refund.processed or refund.failed follows': {
          success: true,
          refund: { ...refund, status: 'pending', endedAt: null },
        },
      },
    },
    failures: [
      'PAYMENT_NOT_FOUND',
      'PAYMENT_NOT_REFUNDABLE',
      'REFUND_EXCEEDS_REMAINING',
      'REFUND_SENDER_UNKNOWN',
      'REFUND_ACCOUNT_NOT_TAKEN',
      'REFUND_UNAVAILABLE_AT_PROVIDER',
      'ACCOUNT_NOT_FOUND_AT_BANK',
      'IDEMPOTENCY_KEY_REUSED',
    ],
  },
  'POST /api/v1/payments/{paymentId}/collect': {
    request: { 'The amount consented to': { amount: 500_000 } },
    responses: {
      '202': {
        'The payer is told now; it is debited a day later': {
          success: true,
          collection: {
            ...collection,
            status: 'pending',
            dueAt: '2026-12-02T09:00:00.000Z',
            notifiedAt: '2026-12-01T09:00:00.000Z',
            completedAt: null,
            account: null,
            tries: [],
          },
        },
      },
    },
    failures: [
      'PAYMENT_NOT_FOUND',
      'FUTURE_PAYMENT_NOT_GRANTED',
      'COLLECTION_AMOUNT_ABOVE_CONSENTED',
      'DIRECT_DEBIT_FAILED',
      'IDEMPOTENCY_KEY_REUSED',
    ],
  },
  'GET /api/v1/client': {
    responses: {
      '200': {
        'The client, no replaced secret in grace': {
          success: true,
          clientId: CLIENT_ID,
          merchantId: MERCHANT_ID,
          allowedOrigins: ['https://shop.tola.example'],
          previousSecretValidUntil: null,
        },
      },
    },
  },
};
