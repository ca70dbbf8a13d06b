import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { AppLogger } from '../platform/logging/logging';
import { DomainError } from '../shared/domain-error';
import { IDEMPOTENCY_STORE, IdempotencyStore, StoredResponse } from './idempotency-store.port';
import { IDEMPOTENCY_SETTINGS, IdempotencySettings } from './idempotency.settings';
import { requestFingerprint } from './request-fingerprint';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;
const POLL_MS = 25;

interface Held {
  scope: string;
  key: string;
  token: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request claimed, until its answer is stored or the claim released. */
    idempotency?: Held;
  }
}

/**
 * Idempotency-Key on every POST (docs/api-notes.md): a preHandler claims the key (after the gate
 * has authenticated, before the handler), an onSend stores a 2xx answer for the retention time
 * or releases the claim. A retry with the same key and request gets the stored answer with
 * `Idempotent-Replayed: true`; another request with the key is 422; a request that finds the key
 * claimed waits for the answer (a concurrent retry), and 409 once it has waited `waitMs`.
 */
@Injectable()
export class IdempotencyGuard {
  private readonly logger: Logger;

  constructor(
    @Inject(IDEMPOTENCY_STORE) private readonly store: IdempotencyStore,
    @Inject(IDEMPOTENCY_SETTINGS) private readonly settings: IdempotencySettings,
    logging: AppLogger,
  ) {
    this.logger = logging.for('idempotency');
  }

  readonly preHandler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> => {
    const key = keyOf(request);
    if (key === undefined || !request.principal) return;
    const scope = request.principal.accountId ?? `key_${request.principal.keyId}`;
    const fingerprint = requestFingerprint(request.method, request.url.split('?')[0], request.body);
    const deadline = Date.now() + this.settings.waitMs;
    for (;;) {
      const outcome = await this.dependency(() => this.store.claim(scope, key, fingerprint, this.settings.claimTtlMs));
      if (outcome.kind === 'claimed') {
        request.idempotency = { scope, key, token: outcome.token };
        return;
      }
      if (outcome.fingerprint !== fingerprint)
        throw new DomainError(
          'idempotency_key_reused',
          'This Idempotency-Key was used with another request (path or body); use a new key for a new request',
          { param: 'Idempotency-Key' },
        );
      if (outcome.kind === 'completed') return replay(reply, outcome.response);
      if (Date.now() >= deadline)
        throw new DomainError(
          'idempotency_key_in_use',
          'A request with this Idempotency-Key is still being processed; retry shortly',
          { retryAfterSeconds: 1 },
        );
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };

  readonly onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const held = request.idempotency;
    if (!held) return payload;
    request.idempotency = undefined;
    const answer = storable(reply, payload);
    try {
      if (answer) await this.store.complete(held.scope, held.key, held.token, answer, this.settings.retentionMs);
      else await this.store.release(held.scope, held.key, held.token);
    } catch (error) {
      // The answer goes out anyway; the claim lapses after claimTtlMs and a retry runs again.
      this.logger.warn({ err: { message: (error as Error)?.message } }, 'could not store an idempotent answer');
    }
    return payload;
  };

  private async dependency<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      this.logger.warn({ err: { message: (error as Error)?.message } }, 'idempotency store unavailable');
      throw new DomainError('service_unavailable', 'A backing service is unavailable; retry shortly', {
        retryAfterSeconds: 1,
      });
    }
  }
}

/** The request's Idempotency-Key: only on POSTs to a route that exists; 400 when malformed. */
function keyOf(request: FastifyRequest): string | undefined {
  if (request.method !== 'POST' || request.routeOptions.url === undefined) return undefined;
  const value = request.headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !KEY_FORMAT.test(value))
    throw new DomainError('missing_required_field', 'Idempotency-Key must be 1-255 printable ASCII characters', {
      reason: 'invalid_header',
      param: 'Idempotency-Key',
    });
  return value;
}

/** Only a 2xx answer is kept: a failed request is retried for real (its cause may be gone). */
function storable(reply: FastifyReply, payload: unknown): StoredResponse | null {
  if (reply.statusCode < 200 || reply.statusCode >= 300) return null;
  if (payload !== undefined && payload !== null && typeof payload !== 'string' && !Buffer.isBuffer(payload))
    return null;
  const type = reply.getHeader('content-type');
  return {
    status: reply.statusCode,
    contentType: typeof type === 'string' ? type : null,
    body: payload === undefined || payload === null ? '' : payload.toString(),
  };
}

function replay(reply: FastifyReply, response: StoredResponse): FastifyReply {
  void reply.code(response.status).header('Idempotent-Replayed', 'true');
  if (response.contentType) void reply.header('content-type', response.contentType);
  return reply.send(response.body === '' ? undefined : response.body);
}
