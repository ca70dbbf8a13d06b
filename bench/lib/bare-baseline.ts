import { join } from 'node:path';
import { ServerChild } from './child-process';
import type { Cleanups } from './cleanups';
import type { LoadTarget } from './http-load';
import { getUntilOk } from './probe';

export interface BareReady {
  type: 'ready';
  port: number;
}

/** What the bench passes to the bare server child (as one JSON environment variable). */
export interface BareServerSpec {
  cert: string;
  key: string;
  /** Fastify route pattern, e.g. /v1/accounts/:account_id */
  route: string;
  /** The app's response body: served re-serialised from the parsed object, as the app does. */
  body: string;
  /**
   * When set, each request first makes the app's one Redis round trip through the app's own
   * adapter (the gate's script: credential, rate limit, read model read ahead): the floor.
   */
  redis?: { url: string; readKey: string };
}

export const BARE_SPEC_ENV = 'BENCH_BARE_SERVER_SPEC';

/**
 * The same-run baseline of an app route: bare Fastify over HTTPS in its own child process, with
 * the app's certificate, answering `spec.route` with the app's own body (its size is checked).
 * Its load target is the app target's, on the bare server's port.
 */
export async function startBareServer(
  spec: BareServerSpec,
  appTarget: LoadTarget,
  cleanups: Cleanups,
): Promise<{ target: LoadTarget; stop: () => Promise<void> }> {
  const child = await ServerChild.start<BareReady>(join(__dirname, 'bare-server.js'), cleanups, {
    env: { ...process.env, NODE_ENV: 'production', [BARE_SPEC_ENV]: JSON.stringify(spec) },
  });
  const url = new URL(appTarget.url);
  url.port = String(child.ready.port);
  const target: LoadTarget = { ...appTarget, url: url.href, cpuMicros: child.cpuMicros };
  const body = await getUntilOk(target.url, target.ca, {});
  if (Buffer.byteLength(body) !== Buffer.byteLength(spec.body))
    throw new Error(`bare body is ${Buffer.byteLength(body)} B, the app's ${Buffer.byteLength(spec.body)} B`);
  return { target, stop: child.stop };
}
