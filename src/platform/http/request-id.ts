import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const kRequestId = Symbol('requestId');
/** A client's id is echoed only when it is short and plain, so logs cannot be forged with it. */
const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * One id per raw request: Fastify's request.id, the X-Request-Id header, and the `request_id`
 * of every log line written for the request.
 */
export function requestIdOf(raw: IncomingMessage): string {
  const holder = raw as IncomingMessage & { [kRequestId]?: string };
  if (holder[kRequestId] === undefined) {
    const given = raw.headers['x-request-id'];
    holder[kRequestId] = typeof given === 'string' && SANE.test(given) ? given : randomUUID();
  }
  return holder[kRequestId];
}
