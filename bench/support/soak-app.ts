import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChildProcess, fork } from 'node:child_process';
import { Cleanups, deleteRedisNamespace, dropSchema } from './cleanups';
import type { SoakReady, SoakStatsReply, SoakStatsRequest } from './soak-messages';

const READY_TIMEOUT_MS = 90_000;

export interface SoakApp {
  ready: SoakReady;
  /** The server's memory and event-loop delay since the previous call. */
  stats(): Promise<SoakStatsReply>;
  stop(): Promise<void>;
}

/**
 * The soak's app child on the production-shaped stores, as startPlatformApp starts the other
 * benches' (throwaway schema, namespace and data dir, removed by the cleanups), but forking the
 * soak server, which also reports memory and event-loop delay over IPC (server-child.ts has no
 * way to ask a child anything but its CPU time). The rate limit stays at the
 * default: the soak's rate is far below it, and a limit that never triggers measures nothing.
 */
export async function startSoakApp(databaseUrl: string, redisUrl: string, cleanups: Cleanups): Promise<SoakApp> {
  const suffix = randomBytes(6).toString('hex');
  const schema = `soak_${suffix}`;
  const namespace = `soak:${suffix}:`;
  const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-soak-'));
  cleanups.add('remove data dir', async () => rmSync(dataDir, { recursive: true, force: true }));
  cleanups.add(`drop schema ${schema}`, () => dropSchema(databaseUrl, schema));
  cleanups.add(
    `delete Redis namespace ${namespace}`,
    async () => void (await deleteRedisNamespace(redisUrl, namespace)),
  );
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'ADMIN_API_KEY',
    'APP_ENV',
    'CLICKHOUSE_URL',
    'TLS_MODE',
    'TLS_CERT_FILE',
    'TLS_KEY_FILE',
    'PORT',
    'HOST',
    'RATE_LIMIT_PER_MINUTE',
  ])
    delete inherited[name];
  const child = fork(join(__dirname, 'soak-app-server.js'), [], {
    env: {
      ...inherited,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      EVENT_STORE_URL: databaseUrl,
      EVENT_STORE_SCHEMA: schema,
      REDIS_URL: redisUrl,
      REDIS_NAMESPACE: namespace,
      MASTER_KEY: randomBytes(32).toString('base64'),
      PROVIDER_VALIDATION: 'format',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stop = stopper(child);
  cleanups.add('stop the soak app', stop);
  const ready = await reply<SoakReady>(child, 'ready', READY_TIMEOUT_MS);
  return {
    ready,
    stop,
    stats: () => {
      const request: SoakStatsRequest = { type: 'soak-stats' };
      child.send(request);
      return reply<SoakStatsReply>(child, 'soak-stats', 10_000);
    },
  };
}

/** The child's next message of `type` (a `failed` message or an exit rejects). */
function reply<T>(child: ChildProcess, type: string, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => settle(new Error(`soak app: no ${type} within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: { type?: string; message?: string }) => {
      if (message?.type === type) settle(null, message as T);
      else if (message?.type === 'failed') settle(new Error(`soak app failed:\n${message.message}`));
    };
    const onExit = (code: number | null, signal: string | null) =>
      settle(new Error(`soak app exited (code ${code}, signal ${signal})`));
    function settle(error: Error | null, value?: T): void {
      clearTimeout(timer);
      child.off('message', onMessage).off('exit', onExit);
      if (error) reject(error);
      else resolve(value as T);
    }
    child.on('message', onMessage).once('exit', onExit);
  });
}

/** Graceful stop over IPC, SIGKILL after a grace period; safe to call more than once. */
function stopper(child: ChildProcess): () => Promise<void> {
  let stopped: Promise<void> | null = null;
  return () =>
    (stopped ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      if (child.connected) child.send({ type: 'stop' }, (error) => error && child.kill('SIGTERM'));
      else child.kill('SIGTERM');
    }));
}
