import Fastify from 'fastify';
import { RedisRateLimiter } from '../../src/rate-limiting/redis.rate-limiter';
import { closeRedisClient, createRedisClient, waitForReady } from '../../src/infrastructure/redis/redis.client';
import { BARE_SPEC_ENV, type BareReady, type BareServerSpec } from './bare-baseline';
import { failStartup, serveControl } from './child-control';

/*
 * The baseline: Fastify 5 over HTTPS with the app's certificate and the app's TLS settings,
 * answering the same route shape with a body of the same bytes, and nothing else (no auth,
 * no rate limit, no stores, no logging). With `spec.redis`, the floor: the same server making
 * the app's one Redis round trip per request (the gate's script: credential, rate limit and the
 * read model read ahead) through the app's adapter, and nothing else.
 */
const UNLIMITED = 1_000_000_000;
const WINDOW_SECONDS = 60;

async function main(): Promise<void> {
  const spec = JSON.parse(process.env[BARE_SPEC_ENV] ?? 'null') as BareServerSpec | null;
  if (!spec) throw new Error(`${BARE_SPEC_ENV} is not set`);
  const payload: unknown = JSON.parse(spec.body);
  const fastify = Fastify({ https: { cert: spec.cert, key: spec.key, minVersion: 'TLSv1.2' }, logger: false });
  const hops = spec.redis;
  if (hops) {
    const redis = createRedisClient(hops.url, { connectionName: 'bench:floor' });
    await waitForReady(redis, 5000);
    const limiter = new RedisRateLimiter(redis, hops.namespace);
    fastify.addHook('onClose', () => closeRedisClient(redis));
    // The account read model is a hash, read ahead in the gate's script as the app reads it.
    const ahead = { kind: 'hash', key: hops.readKey } as const;
    fastify.get(spec.route, async () => {
      const { readAhead } = hops.credentialKey
        ? await limiter.consumeWithCredential(hops.credentialKey, 'key:', 'ip:floor', UNLIMITED, WINDOW_SECONDS, ahead)
        : await limiter.consumeReadingAhead('key:floor', UNLIMITED, WINDOW_SECONDS, ahead);
      if (!readAhead || Object.keys(readAhead).length === 0) throw new Error(`no read model at ${hops.readKey}`);
      return payload;
    });
  } else {
    fastify.get(spec.route, async () => payload);
  }
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = fastify.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  serveControl(() => fastify.close());
  const ready: BareReady = { type: 'ready', port: address.port };
  process.send?.(ready);
}

main().catch(failStartup);
