import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const kRequestId = Symbol('requestId');
/** A client's id is echoed only when it is short and plain, so logs cannot be forged with it. */
const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * One id per raw request, shared by Fastify (request.id, X-Request-Id) and pino-http (the `req`
 * on every log line), whichever asks first.
 */
export function requestIdOf(raw: IncomingMessage): string {
  const holder = raw as IncomingMessage & { [kRequestId]?: string };
  if (holder[kRequestId] === undefined) {
    const given = raw.headers['x-request-id'];
    holder[kRequestId] = typeof given === 'string' && SANE.test(given) ? given : randomUUID();
  }
  return holder[kRequestId];
}
