import { createServer } from 'node:https';
import { loadTlsMaterial } from '../../src/platform/http/tls-material';
import { failStartup, serveControl } from '../lib/child-control';
import { BARE_DIR_ENV, BARE_KIND_ENV, type BareReady } from './memory-messages';

/*
 * The baselines of bench:memory, one per child process, idle once ready: a bare Node HTTPS
 * server (the app's runtime and TLS with nothing of the app), and a bare chDB session on an empty
 * data dir (the engine's library with none of our settings, schema or worker code).
 */
async function main(): Promise<void> {
  const dir = process.env[BARE_DIR_ENV];
  if (!dir) throw new Error(`${BARE_DIR_ENV} is not set`);
  const close = process.env[BARE_KIND_ENV] === 'chdb' ? openChdb(dir) : await listenHttps(dir);
  serveControl(close);
  process.send?.({ type: 'ready', pid: process.pid } satisfies BareReady);
}

async function listenHttps(dir: string): Promise<() => Promise<void>> {
  const tls = await loadTlsMaterial({ certFile: null, keyFile: null, dataDir: dir });
  const server = createServer({ cert: tls.cert, key: tls.key }, (_req, res) => res.end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return () => new Promise((resolve) => server.close(() => resolve()));
}

function openChdb(dir: string): () => Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- chdb is optional: loaded untyped at run time, as the worker does
  const { Session } = require('chdb') as {
    Session: new (path: string) => { query(sql: string): string; close(): void };
  };
  const session = new Session(dir);
  session.query('SELECT 1');
  return () => Promise.resolve(session.close());
}

main().catch(failStartup);
