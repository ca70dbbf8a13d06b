import Fastify from 'fastify';
import { BARE_SPEC_ENV, BareReady, BareServerSpec, ChildFailed } from './child-messages';

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
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    fastify.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('message', (message: { type?: string }) => message?.type === 'stop' && stop());
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
  const ready: BareReady = { type: 'ready', port: address.port };
  process.send?.(ready);
}

main().catch((error: unknown) => {
  const failed: ChildFailed = { type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  if (process.send) process.send(failed, () => process.exit(1));
  else process.exit(1);
});
