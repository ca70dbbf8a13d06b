import { SETTLE_DEADLINE_MS } from './deadlines';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { CommandBus } from '@nestjs/cqrs';
import { createApp, RunningApp } from '../../src/app.factory';
import { CreateAccount } from '../../src/accounts/write/create-account.handler';
import { IssueApiKey } from '../../src/api-keys/write/api-key.handlers';
import type { Scope } from '../../src/shared/api-key-scopes';
import { AppConfig, loadConfig } from '../../src/platform/config/app-config';
import { closeRedisClient, createRedisClient, waitForReady } from '../../src/infrastructure/redis/redis.client';
import { ApiClient } from './http-client';
import { registerPublishedDocument } from './openapi-conformance';
import { OpenApiDocument } from '../../src/platform/openapi/openapi.controller';
import { deleteNamespace } from './redis';
import { ShiftableClock } from './test-clock';

export interface TestApp {
  running: RunningApp;
  config: AppConfig;
  /** Client with the admin key. */
  admin: ApiClient;
  /** Client without a key. */
  anonymous: ApiClient;
  adminKey: string;
  /** Every log line the app wrote. */
  logs: string[];
  dataDir: string;
  /** The app's wall clock: move it forward instead of waiting for an instant to pass. */
  clock: ShiftableClock;
  stop(): Promise<void>;
}

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The real app on a random loopback port, over HTTPS with its generated certificate. Stores
 * default to embedded PGlite in a temp dir and memory; pass env to use PostgreSQL or Redis.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { dataDir?: string; keepData?: boolean; adminKey?: string } = {},
): Promise<TestApp> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'trunkline-test-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    REDIS_NAMESPACE: `t:${Math.random().toString(36).slice(2)}:`,
    // A busy machine may hold a Redis command past the production 1 s (tests that need the
    // timeout itself set it).
    REDIS_COMMAND_TIMEOUT_MS: String(SETTLE_DEADLINE_MS),
    // Read-your-writes: a write waits for the read models up to this bound (5 s in production),
    // then returns anyway; a busy machine can take longer, and a test then reads a stale view.
    CONSISTENCY_TIMEOUT_MS: String(SETTLE_DEADLINE_MS),
    ...env,
  });
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const clock = new ShiftableClock();
  const running = await createApp(config, {
    logStream: logStream as unknown as import('pino').DestinationStream,
    clock,
  });
  const adminKey = config.adminApiKey ?? running.generatedAdminKey ?? options.adminKey;
  if (!adminKey) throw new Error('test app has no admin key: pass ADMIN_API_KEY when reusing a data dir');
  const origin = `${running.baseUrl.startsWith('https') ? 'https' : 'http'}://127.0.0.1:${running.port}`;
  registerPublishedDocument(origin, running.app.get(OpenApiDocument).document);
  const ca = running.tls?.cert ?? null;
  const admin = new ApiClient(origin, ca, adminKey);
  const anonymous = new ApiClient(origin, ca, null);
  return {
    running,
    config,
    admin,
    anonymous,
    adminKey,
    logs,
    dataDir,
    clock,
    async stop() {
      await Promise.all([admin.close(), anonymous.close()]);
      await running.close();
      if (config.redisUrl) await clearRedisNamespace(config.redisUrl, config.redisNamespace);
      if (!options.keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An account and a key of the given scopes in it, through the admin API. */
export async function provisionAccount(
  app: TestApp,
  scopes: string[] = ['full'],
  name = 'Acme',
): Promise<{ accountId: string; key: string; keyId: string; client: ApiClient }> {
  const account = await app.admin.post('/v1/accounts', { name });
  if (account.status !== 201) throw new Error(`account: ${account.status} ${account.text}`);
  const key = await app.admin.post('/v1/api-keys', {
    account_id: account.body.id,
    name: `${scopes.join('+')} key`,
    scopes,
  });
  if (key.status !== 201) throw new Error(`key: ${key.status} ${key.text}`);
  return { accountId: account.body.id, key: key.body.key, keyId: key.body.id, client: app.admin.withKey(key.body.key) };
}

/**
 * The same, through the command bus instead of HTTP: for tests that must not spend the admin
 * key's rate limit on setup.
 */
export async function provisionAccountDirect(app: TestApp, scopes: Scope[] = ['full'], name = 'Acme') {
  const bus = app.running.app.get(CommandBus);
  const metadata = { actor: 'test', correlation_id: 'test-setup' };
  const account = await bus.execute(new CreateAccount(name, metadata));
  const key = await bus.execute(
    new IssueApiKey({ accountId: account.id, name: 'test key', scopes, expiresAt: null }, metadata),
  );
  return {
    accountId: account.id as string,
    key: key.key as string,
    keyId: key.id as string,
    client: app.admin.withKey(key.key),
  };
}

async function clearRedisNamespace(url: string, namespace: string): Promise<void> {
  const redis = createRedisClient(url, { connectionName: 'test-cleanup' });
  try {
    await waitForReady(redis, 5000);
    await deleteNamespace(redis, namespace);
  } finally {
    await closeRedisClient(redis);
  }
}
