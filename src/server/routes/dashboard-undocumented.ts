/*
 * The dashboard's API (docs/dashboard.md "Its API") is left out of the OpenAPI document: it is a
 * cookie-session API of our own page, with CSRF tokens and roles, not a contract for merchants'
 * developers, whose servers use /api/v1 with their client credentials. Each route still has its
 * operationId and summary, its schemas check every answer, and the fuzz suite asks it.
 */
const REASON =
  'the dashboard page’s own cookie-session API (docs/dashboard.md), not for developers';

const ROUTES = [
  'POST /api/dashboard/invitations/lookup',
  'POST /api/dashboard/invitations/code',
  'POST /api/dashboard/invitations/accept',
  'POST /api/dashboard/recovery/code',
  'POST /api/dashboard/recovery',
  'POST /api/dashboard/passkeys/options',
  'POST /api/dashboard/passkeys',
  'POST /api/dashboard/sign-in/options',
  'POST /api/dashboard/sign-in',
  'GET /api/dashboard/session',
  'POST /api/dashboard/sign-out',
  'GET /api/dashboard/team',
  'POST /api/dashboard/team/invitations',
  'DELETE /api/dashboard/team/invitations/:invitationId',
  'PUT /api/dashboard/team/:staffId',
  'DELETE /api/dashboard/team/:staffId',
  'GET /api/dashboard/audit',
  'GET /api/dashboard/payments',
  'GET /api/dashboard/payments/:paymentId',
  'POST /api/dashboard/payments/:paymentId/refunds',
  'GET /api/dashboard/banks',
  'GET /api/dashboard/consents',
  'GET /api/dashboard/consents/:consentId',
  'POST /api/dashboard/consents/:consentId/cancel-future-payments',
  'GET /api/dashboard/capabilities',
  'GET /api/dashboard/keys',
  'POST /api/dashboard/keys/:clientId/rotate',
  'PATCH /api/dashboard/keys/:clientId/origins',
  'GET /api/dashboard/webhooks',
  'POST /api/dashboard/webhooks',
  'PATCH /api/dashboard/webhooks/:webhookId',
  'POST /api/dashboard/webhooks/:webhookId/disable',
  'DELETE /api/dashboard/webhooks/:webhookId',
  'GET /api/dashboard/webhooks/deliveries',
  'GET /api/dashboard/webhooks/dead-letters',
  'POST /api/dashboard/webhooks/deliveries/:deliveryId/resend',
  'POST /api/dashboard/webhooks/:webhookId/enable',
  'POST /api/dashboard/webhooks/:webhookId/rotate-secret',
  'GET /api/dashboard/sandbox',
  'POST /api/dashboard/sandbox/transfers',
  'POST /api/dashboard/sandbox/challenges',
  'POST /api/dashboard/sandbox/events',
  'GET /api/dashboard/requests',
  'GET /api/dashboard/events',
  'GET /api/dashboard/forms',
  'GET /api/dashboard/forms/:formId',
  'GET /api/dashboard/forms/:formId/responses/:responseId',
  'GET /api/dashboard/terminals',
  'POST /api/dashboard/terminals',
  'DELETE /api/dashboard/terminals/:id',
  'GET /api/dashboard/routes',
  'POST /api/dashboard/routes/pin',
  'POST /api/dashboard/routes/pause',
  'POST /api/dashboard/routes/clear',
];

/** Each route of the dashboard's API, with why the document leaves it out. */
export const DASHBOARD_UNDOCUMENTED: Record<string, string> = Object.fromEntries(
  ROUTES.map((route) => [route, REASON]),
);
