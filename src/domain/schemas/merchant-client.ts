import { z } from 'zod';
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

const ZOrigin = ZPrintable(300).pipe(
  z.url({ protocol: /^https?$/, error: 'must be an http(s) origin such as https://shop.example' }),
);

/** GET /api/v1/client (and the operator's read): never a secret. */
export const ZClientResponse = z.object({
  success: z.literal(true),
  clientId: z.string(),
  merchantId: z.string(),
  allowedOrigins: z.array(z.string()),
  /** Until when the secret a rotation replaced is still accepted; null: none is. */
  previousSecretValidUntil: z.string().nullable(),
});
export type TClientResponse = z.infer<typeof ZClientResponse>;

/** POST /api/v1/client/secret body: the grace period of the secret being replaced. */
export const ZRotateSecretRequest = z.strictObject({
  graceHours: z.int().min(0).max(SECRET_GRACE_MAX_HOURS).default(SECRET_GRACE_DEFAULT_HOURS),
});

/** The new secret, shown this once. */
export const ZRotateSecretResponse = z.object({
  success: z.literal(true),
  clientId: z.string(),
  secret: z.string(),
  previousSecretValidUntil: z.string().nullable(),
});
export type TRotateSecretResponse = z.infer<typeof ZRotateSecretResponse>;

/** PATCH /api/v1/client/origins body: origins to add, then origins to remove. */
export const ZChangeOriginsRequest = z
  .strictObject({
    add: z.array(ZOrigin).max(ORIGINS_PER_CHANGE).default([]),
    remove: z.array(ZOrigin).max(ORIGINS_PER_CHANGE).default([]),
  })
  .refine((change) => change.add.length + change.remove.length > 0, {
    error: 'name at least one origin to add or remove',
  });

export const ZChangeOriginsResponse = z.object({
  success: z.literal(true),
  allowedOrigins: z.array(z.string()),
});
export type TChangeOriginsResponse = z.infer<typeof ZChangeOriginsResponse>;

/** POST /api/operator/clients body: what `npm run client:create` sends. */
export const ZOperatorCreateClientRequest = z.strictObject({
  name: ZText(200),
  origins: z.array(ZOrigin).max(ORIGINS_PER_CHANGE).default([]),
  image: ZPrintable(2_000)
    .pipe(z.url({ protocol: /^https?$/ }))
    .nullable()
    .default(null),
  primaryColour: ZHexColour.optional(),
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
export const ZOperatorWebhookParams = ZClientIdParams.extend({ webhookId: ZIdentifier });
export const ZOperatorRotateWebhookSecretResponse = ZRotateWebhookSecretResponse;
