import Fastify from 'fastify';
import { closeRedisClient, createRedisClient, waitForReady } from '../../src/infrastructure/redis/redis.client';
import { BARE_SPEC_ENV, type BareReady, type BareServerSpec } from './bare-baseline';
import { failStartup, serveControl } from './child-control';

/*
 * The baseline: Fastify 5 over HTTPS with the app's certificate and the app's TLS settings,
 * answering the same route shape with a body of the same bytes, and nothing else (no auth,
 * no rate limit, no stores, no logging). With `spec.redis`, the floor: the same server making
 * the app's one Redis round trip per request and nothing else. With a key this instance has
 * seen, the app's gate makes none (cached credential, leased rate-limit slots), so that round
 * trip is the handler's read of the record (HGETALL), made here with the same client options.
 */

async function main(): Promise<void> {
  const spec = JSON.parse(process.env[BARE_SPEC_ENV] ?? 'null') as BareServerSpec | null;
  if (!spec) throw new Error(`${BARE_SPEC_ENV} is not set`);
  const payload: unknown = JSON.parse(spec.body);
  const fastify = Fastify({ https: { cert: spec.cert, key: spec.key, minVersion: 'TLSv1.2' }, logger: false });
  const hops = spec.redis;
  if (hops) {
    const redis = createRedisClient(hops.url, { connectionName: 'bench:floor' });
    await waitForReady(redis, 5000);
    fastify.addHook('onClose', () => closeRedisClient(redis));
    fastify.get(spec.route, async () => {
      const record = await redis.hgetall(hops.readKey);
      if (Object.keys(record).length === 0) throw new Error(`no read model at ${hops.readKey}`);
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
