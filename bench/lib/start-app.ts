import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type AppProvision, type AppReady, PROVISION_ENV } from './app-messages';
import type { CpuOps } from './child-messages';
import { type ChildOptions, ServerChild } from './child-process';
import { Cleanups, deleteRedisNamespace, dropSchema, tempDir } from './cleanups';

const UNLIMITED_PER_MINUTE = '1000000000';
/** Every variable the app's config reads: none comes in from the caller's environment unasked. */
const APP_VARIABLES = [
  'ADMIN_API_KEY',
  'ALERT_EVALUATION_INTERVAL_MS',
  'APP_ENV',
  'BODY_LIMIT_BYTES',
  'CLICKHOUSE_CLUSTER',
  'CLICKHOUSE_URL',
  'CONSISTENCY_TIMEOUT_MS',
  'DATA_DIR',
  'ELEVENLABS_API_BASE',
  'GATEWAY_RATE_LIMIT_PER_MINUTE',
  'GATEWAY_UNKNOWN_LOOKUPS_PER_MINUTE',
  'EVENT_STORE_SCHEMA',
  'EVENT_STORE_URL',
  'HEADERS_TIMEOUT_MS',
  'HOST',
  'LOG_LEVEL',
  'MASTER_KEY',
  'OPENAI_API_BASE',
  'PORT',
  'PROVIDER_PROBE_CUSTOM_ENDPOINTS',
  'PROVIDER_TIMEOUT_MS',
  'PROVIDER_VALIDATION',
  'RATE_LIMIT_PER_MINUTE',
  'REDIS_NAMESPACE',
  'REDIS_URL',
  'REQUEST_TIMEOUT_MS',
  'SIP_DOMAIN',
  'SIP_ROUTE_CUSTOM',
  'SIP_ROUTE_ELEVENLABS',
  'SIP_ROUTE_OPENAI',
  'STANDARD_WEBHOOKS_RETRIES_MS',
  'TLS_CERT_FILE',
  'TLS_KEY_FILE',
  'TLS_MODE',
  'WEBHOOK_ALLOW_PRIVATE',
  'WEBHOOK_CA_FILE',
  'WEBHOOK_CONCURRENCY',
  'WEBHOOK_DELIVERY_RETENTION_MS',
  'WEBHOOK_POLL_INTERVAL_MS',
  'WEBHOOK_RETENTION_SWEEP_MS',
  'WEBHOOK_RETRY_SCHEDULE_MS',
  'WEBHOOK_TIMEOUT_MS',
];

/** The V8 flags `npm start` gives the app (package.json "start"; docs/memory.md says why). */
export const APP_NODE_FLAGS: readonly string[] = ['--max-old-space-size=384'];

export type AppEnv = Record<string, string | undefined>;

export interface StartAppOptions extends Pick<ChildOptions, 'execArgv' | 'readyTimeoutMs' | 'stopGraceMs'> {
  /** The compiled app server; lib/app-server.js unless the bench has its own. */
  script?: string;
  provision?: AppProvision;
  /** On top of the defaults below; an undefined value leaves the app's own default. */
  env?: AppEnv;
  /** The app's DATA_DIR; a fresh temp dir, removed by the cleanups, by default. */
  dataDir?: string;
}

/**
 * The real app in a child process, with its own temp data dir (removed by the cleanups) and
 * embedded stores unless `env` names others (throwawayStores): NODE_ENV=production on
 * 127.0.0.1 with a port of its own, a fresh master key, an unlimited rate limit, format-only
 * provider validation, LOG_LEVEL=warn. Nothing else of the caller's app configuration goes in.
 */
export function startApp<E = object, O extends object = CpuOps>(
  cleanups: Cleanups,
  options: StartAppOptions = {},
): Promise<ServerChild<AppReady<E>, O>> {
  const { script, provision, env, dataDir = tempDir(cleanups, 'trunkline-bench-'), ...child } = options;
  return ServerChild.start<AppReady<E>, O>(script ?? join(__dirname, 'app-server.js'), cleanups, {
    ...child,
    execArgv: [...APP_NODE_FLAGS, ...(child.execArgv ?? [])],
    env: appEnvironment({ DATA_DIR: dataDir, [PROVISION_ENV]: provision && JSON.stringify(provision), ...env }),
  });
}

/**
 * A throwaway PostgreSQL event-store schema and Redis namespace, removed by the cleanups (after
 * the children that use them have stopped: registered first, they run last).
 */
export function throwawayStores(
  urls: { databaseUrl: string; redisUrl: string },
  cleanups: Cleanups,
  prefix = 'bench',
): AppEnv & { REDIS_NAMESPACE: string; EVENT_STORE_SCHEMA: string } {
  const suffix = randomBytes(6).toString('hex');
  const schema = `${prefix}_${suffix}`;
  const namespace = `${prefix}:${suffix}:`;
  cleanups.add(`drop schema ${schema}`, () => dropSchema(urls.databaseUrl, schema));
  cleanups.add(
    `delete Redis namespace ${namespace}`,
    async () => void (await deleteRedisNamespace(urls.redisUrl, namespace)),
  );
  return {
    EVENT_STORE_URL: urls.databaseUrl,
    EVENT_STORE_SCHEMA: schema,
    REDIS_URL: urls.redisUrl,
    REDIS_NAMESPACE: namespace,
  };
}

function appEnvironment(overrides: AppEnv): NodeJS.ProcessEnv {
  const inherited: AppEnv = { ...process.env };
  for (const name of APP_VARIABLES) delete inherited[name];
  const env: AppEnv = {
    ...inherited,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    MASTER_KEY: randomBytes(32).toString('base64'),
    PROVIDER_VALIDATION: 'format',
    RATE_LIMIT_PER_MINUTE: UNLIMITED_PER_MINUTE,
    LOG_LEVEL: 'warn',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
}
