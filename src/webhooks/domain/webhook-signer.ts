import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks secrets: `whsec_` + base64 of the key bytes (24-64 bytes per the spec). */
export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
/** The SecretBox field of an endpoint's signing secret (its AAD binds it to the endpoint). */
export const SIGNING_SECRET_FIELD = 'signing_secret';

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

function keyOf(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('not a whsec_ secret');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` under the decoded secret. */
export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The three Standard Webhooks headers. Several secrets (the current one and, for 24 h after a
 * rotation, the previous one) give space-separated signatures; a receiver accepts any that
 * verifies, so it may switch secrets at any time during the overlap.
 */
export function signedHeaders(
  secrets: string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => sign(s, id, timestampSeconds, body)).join(' '),
  };
}
