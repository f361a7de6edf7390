import { z } from 'zod/mini';
import { webOriginProblem } from '../web-origin';
import { ZHexColour } from './consent';
import { ZIdentifier, ZPrintable, ZText } from './fields';
import {
  ZCreateWebhookRequest,
  ZCreateWebhookResponse,
  ZRotateWebhookSecretResponse,
} from './webhooks';

/*
 * A merchant's API client (docs/merchant-clients.md): read, secret rotation and embedding
 * origins, by the merchant with its credentials (/api/v1/client…) or by the server's operator
 * (/api/operator/clients…, what `npm run client:*` calls while the server runs).
 */

/** How long a replaced secret is still accepted unless told otherwise, and at most. */
export const SECRET_GRACE_DEFAULT_HOURS = 24;
export const SECRET_GRACE_MAX_HOURS = 7 * 24;
/** Origins one change may add or remove. */
const ORIGINS_PER_CHANGE = 20;

/** An origin to register: exactly as a browser writes it (domain/web-origin.ts says why). */
const ZOrigin = z.pipe(
  ZPrintable(300).check(
    z.superRefine((text, context) => {
      const problem = webOriginProblem(text);
      if (problem) context.addIssue({ code: 'custom', message: problem, input: text });
    }),
  ),
  z.url({ protocol: /^https?$/ }),
);
/** An origin to remove: any stored text, so that one registered before the rule can go too. */
const ZStoredOrigin = ZPrintable(300);

/** GET /api/v1/client (and the operator's read): never a secret. */
export const ZClientResponse = z.object({
  success: z.literal(true),
  clientId: z.string(),
  merchantId: z.string(),
  allowedOrigins: z.array(z.string()),
  /** Until when the secret a rotation replaced is still accepted; null: none is. */
  previousSecretValidUntil: z.nullable(z.string()),
});
export type TClientResponse = z.infer<typeof ZClientResponse>;

/** POST /api/v1/client/secret body: the grace period of the secret being replaced. */
export const ZRotateSecretRequest = z.strictObject({
  graceHours: z._default(
    z.int().check(z.gte(0), z.lte(SECRET_GRACE_MAX_HOURS)),
    SECRET_GRACE_DEFAULT_HOURS,
  ),
});

/** The new secret, shown this once. */
export const ZRotateSecretResponse = z.object({
  success: z.literal(true),
  clientId: z.string(),
  secret: z.string(),
  previousSecretValidUntil: z.nullable(z.string()),
});
export type TRotateSecretResponse = z.infer<typeof ZRotateSecretResponse>;

/** PATCH /api/v1/client/origins body: origins to add, then origins to remove. */
export const ZChangeOriginsRequest = z
  .strictObject({
    add: z._default(z.array(ZOrigin).check(z.maxLength(ORIGINS_PER_CHANGE)), []),
    remove: z._default(z.array(ZStoredOrigin).check(z.maxLength(ORIGINS_PER_CHANGE)), []),
  })
  .check(
    z.refine((change) => change.add.length + change.remove.length > 0, {
      error: 'name at least one origin to add or remove',
    }),
  );

export const ZChangeOriginsResponse = z.object({
  success: z.literal(true),
  allowedOrigins: z.array(z.string()),
});
export type TChangeOriginsResponse = z.infer<typeof ZChangeOriginsResponse>;

/** POST /api/operator/clients body: what `npm run client:create` sends. */
export const ZOperatorCreateClientRequest = z.strictObject({
  name: ZText(200),
  origins: z._default(z.array(ZOrigin).check(z.maxLength(ORIGINS_PER_CHANGE)), []),
  image: z._default(z.nullable(z.pipe(ZPrintable(2_000), z.url({ protocol: /^https?$/ }))), null),
  primaryColour: z.optional(ZHexColour),
});

export const ZOperatorCreateClientResponse = z.object({
  success: z.literal(true),
  merchantId: z.string(),
  clientId: z.string(),
  secret: z.string(),
});
export type TOperatorCreateClientResponse = z.infer<typeof ZOperatorCreateClientResponse>;

export const ZClientIdParams = z.object({ clientId: ZIdentifier });

/** The operator registers a webhook for a client as the client itself would. */
export const ZOperatorCreateWebhookRequest = ZCreateWebhookRequest;
export const ZOperatorCreateWebhookResponse = ZCreateWebhookResponse;

/** The operator rotates a client's webhook secret as the client itself would. */
export const ZOperatorWebhookParams = z.extend(ZClientIdParams, { webhookId: ZIdentifier });
export const ZOperatorRotateWebhookSecretResponse = ZRotateWebhookSecretResponse;
