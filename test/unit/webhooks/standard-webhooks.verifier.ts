import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * An independent Standard Webhooks verifier (the scheme as standardwebhooks.com specifies it,
 * written from the spec, not from our signer): true when any v1 signature of the header is the
 * base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` under the base64-decoded part of whsec_.
 */
export function verifyStandardWebhook(
  secret: string,
  headers: Record<string, string>,
  body: string,
  toleranceSeconds = 300,
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const header = headers['webhook-signature'];
  if (!id || !timestamp || !header || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return header.split(' ').some((part) => {
    const [version, signature] = part.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
