import Fastify from 'fastify';
import { failStartup, serveControl } from './child-control';
import { BARE_SPEC_ENV, BareReady, BareServerSpec } from './child-messages';

/*
 * The baseline: Fastify 5 over HTTPS with the app's certificate and the app's TLS settings,
 * answering the same route shape with a body of the same bytes, and nothing else (no auth,
 * no rate limit, no stores, no logging).
 */
async function main(): Promise<void> {
  const spec = JSON.parse(process.env[BARE_SPEC_ENV] ?? 'null') as BareServerSpec | null;
  if (!spec) throw new Error(`${BARE_SPEC_ENV} is not set`);
  const payload: unknown = JSON.parse(spec.body);
  const fastify = Fastify({ https: { cert: spec.cert, key: spec.key, minVersion: 'TLSv1.2' }, logger: false });
  fastify.get(spec.route, async () => payload);
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = fastify.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  serveControl(() => fastify.close());
  const ready: BareReady = { type: 'ready', port: address.port };
  process.send?.(ready);
}

main().catch(failStartup);
