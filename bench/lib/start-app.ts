import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppReady } from './child-messages';
import { Cleanups, deleteRedisNamespace, dropSchema } from './cleanups';
import { ServerChild, startServerChild } from './server-child';

const UNLIMITED_PER_MINUTE = '1000000000';
/** Variables of the caller's environment that would change what is measured. */
const APP_VARIABLES = [
  'ADMIN_API_KEY',
  'APP_ENV',
  'CLICKHOUSE_URL',
  'TLS_MODE',
  'TLS_CERT_FILE',
  'TLS_KEY_FILE',
  'PORT',
  'HOST',
  'CONSISTENCY_TIMEOUT_MS',
];

export interface PlatformAppOptions {
  databaseUrl: string;
  redisUrl: string;
  cpuProf: boolean;
}

/**
 * The real app in a child process on the production-shaped stores (PostgreSQL event store, Redis),
 * each in a throwaway schema/namespace and temp data dir that the cleanups remove, with an
 * unlimited rate limit and LOG_LEVEL=warn. `env` adds what a bench needs on top.
 */
export async function startPlatformApp(
  options: PlatformAppOptions,
  cleanups: Cleanups,
  env: NodeJS.ProcessEnv = {},
): Promise<ServerChild<AppReady> & { namespace: string }> {
  const suffix = randomBytes(6).toString('hex');
  const schema = `bench_${suffix}`;
  const namespace = `bench:${suffix}:`;
  const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-bench-'));
  // Registered first, so they run last: after the children that use them have stopped.
  cleanups.add('remove data dir', async () => rmSync(dataDir, { recursive: true, force: true }));
  cleanups.add(`drop schema ${schema}`, () => dropSchema(options.databaseUrl, schema));
  cleanups.add(
    `delete Redis namespace ${namespace}`,
    async () => void (await deleteRedisNamespace(options.redisUrl, namespace)),
  );
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  for (const name of APP_VARIABLES) delete inherited[name];
  const child = await startServerChild<AppReady>(join(__dirname, 'app-server.js'), cleanups, {
    env: {
      ...inherited,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      EVENT_STORE_URL: options.databaseUrl,
      EVENT_STORE_SCHEMA: schema,
      REDIS_URL: options.redisUrl,
      REDIS_NAMESPACE: namespace,
      MASTER_KEY: randomBytes(32).toString('base64'),
      RATE_LIMIT_PER_MINUTE: UNLIMITED_PER_MINUTE,
      LOG_LEVEL: 'warn',
      ...env,
    },
    execArgv: options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${join(process.cwd(), 'bench-profiles')}`] : [],
  });
  return { ...child, namespace };
}
