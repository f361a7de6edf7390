// A webhook's signing (docs/webhooks.md, "Verifying"): its secrets, made and kept sealed under a key
// of the server's own, the signatures a delivery carries, and an event's public id.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { type TDb } from '../../db/database';
import { storedSecret } from '../../crypto/server-secrets';

const MINUTE_MS = 60_000;
/** A signature older than this is refused by receivers that follow docs/webhooks.md. */
export const WEBHOOK_SIGNATURE_TOLERANCE_S = 300;
/** After a rotation the previous secret signs too, for this long (docs/webhooks.md, "Rotating"). */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 60 * MINUTE_MS;
/** How many rotated-away secrets may still be signing at once: a delivery carries one more. */
export const MAX_RETIRING_SECRETS = 4;
const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and the base64 of 24 random bytes, as Standard Webhooks says. */
export const newSecret = () => `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;

/**
 * One Standard Webhooks signature: `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`,
 * the key being the secret's body base64-decoded (Buffer reads base64url too, so the secrets of
 * endpoints registered before this scheme sign with their bytes as well).
 */
export function webhookSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The `webhook-signature` header: one signature per secret, space-separated. */
export const webhookSignatures = (secrets: string[], id: string, timestamp: number, body: string) =>
  secrets.map((secret) => webhookSignature(secret, id, timestamp, body)).join(' ');

/** A merchant event's public id: unique across databases, and no count of anything. */
export const newEventId = () => `evt_${randomBytes(16).toString('base64url')}`;

// The signing secrets are kept sealed under a key of the server's own (server_secrets).
async function sealKey(db: TDb): Promise<Buffer> {
  return createHash('sha256')
    .update(await storedSecret(db, 'webhook-secrets'))
    .digest();
}

export async function seal(db: TDb, secret: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await sealKey(db), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((b) => b.toString('base64url')).join('.');
}

export async function unseal(db: TDb, sealed: string): Promise<string> {
  const [iv, tag, data] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !data) throw new Error('A webhook secret is not sealed as expected');
  const decipher = createDecipheriv('aes-256-gcm', await sealKey(db), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}
