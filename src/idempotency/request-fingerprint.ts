import { createHash } from 'node:crypto';

/**
 * What makes two requests "the same" for an Idempotency-Key: method, path and body. The body is
 * hashed in a canonical form (object keys sorted) so that a retry that serialises the same
 * object with its keys in another order is still the same request.
 */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  const hash = createHash('sha256').update(`${method} ${path}\n`);
  if (Buffer.isBuffer(body)) hash.update(body);
  else if (typeof body === 'string') hash.update(body);
  else if (body !== undefined) hash.update(canonicalJson(body));
  return hash.digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
