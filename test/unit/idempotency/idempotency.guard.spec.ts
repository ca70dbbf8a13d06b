import type { FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import { IdempotencyGuard } from '../../../src/idempotency/idempotency.guard';
import { IDEMPOTENCY_DEFAULTS } from '../../../src/idempotency/idempotency.settings';
import { MemoryIdempotencyStore } from '../../../src/idempotency/memory.idempotency-store';
import { requestFingerprint } from '../../../src/idempotency/request-fingerprint';
import { AppLogger } from '../../../src/platform/logging/logging';

function postRequest(key: string | undefined, body: unknown = { name: 'a' }): FastifyRequest {
  return {
    method: 'POST',
    url: '/v1/trunks',
    routeOptions: { url: '/v1/trunks' },
    headers: key === undefined ? {} : { 'idempotency-key': key },
    principal: { keyId: 'key_1', accountId: 'acct_1', scopes: ['full'], environment: 'live' },
    body,
  } as unknown as FastifyRequest;
}

function guardWith(store = new MemoryIdempotencyStore(), waitMs = 60) {
  const guard = new IdempotencyGuard(
    store,
    { namespace: 't:', ...IDEMPOTENCY_DEFAULTS, waitMs },
    new AppLogger(pino({ level: 'silent' })),
  );
  return { guard, store };
}

const reply = { statusCode: 201, getHeader: () => 'application/json' } as unknown as FastifyReply;

describe('IdempotencyGuard', () => {
  it('answers 409 idempotency_key_in_use when the first request holds the key past the wait', async () => {
    const { guard } = guardWith();
    await guard.preHandler(postRequest('k'), reply);
    await expect(guard.preHandler(postRequest('k'), reply)).rejects.toMatchObject({
      code: 'idempotency_key_in_use',
      status: 409,
    });
  });

  it('lets a waiting request run once the first one failed and released the key', async () => {
    const { guard } = guardWith(new MemoryIdempotencyStore(), 2000);
    const first = postRequest('k');
    await guard.preHandler(first, reply);
    const second = postRequest('k');
    const waiting = guard.preHandler(second, reply);
    await guard.onSend(first, { ...reply, statusCode: 503 } as FastifyReply, '{}');
    await waiting;
    expect(second.idempotency).toMatchObject({ scope: 'acct_1', key: 'k' });
  });

  it('leaves requests without the header, and other methods, alone', async () => {
    const { guard, store } = guardWith();
    await guard.preHandler(postRequest(undefined), reply);
    await guard.preHandler({ ...postRequest('k'), method: 'PATCH' } as FastifyRequest, reply);
    expect(store.size).toBe(0);
  });
});

describe('requestFingerprint', () => {
  it('is the same for the same object with its keys in another order, and differs by path and body', () => {
    const a = requestFingerprint('POST', '/v1/trunks', { name: 'x', nested: { b: 1, a: [1, { d: 2, c: 3 }] } });
    const b = requestFingerprint('POST', '/v1/trunks', { nested: { a: [1, { c: 3, d: 2 }], b: 1 }, name: 'x' });
    expect(a).toBe(b);
    expect(requestFingerprint('POST', '/v1/accounts', { name: 'x' })).not.toBe(
      requestFingerprint('POST', '/v1/trunks', { name: 'x' }),
    );
    expect(requestFingerprint('POST', '/v1/trunks', { name: 'x' })).not.toBe(
      requestFingerprint('POST', '/v1/trunks', { name: 'y' }),
    );
  });
});
