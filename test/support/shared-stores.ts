import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropSchema, testDatabaseUrl, uniqueSchemaName } from './postgres';
import { RedisTestContext, testRedisUrl } from './redis';
import { type ServiceProcess, startServiceProcess } from './service-process';

/**
 * Service processes of one test file as the instances of one deployment: one PostgreSQL event
 * store (a schema of the file's own), one Redis (a namespace of its own, under `redis`), one
 * master key and one admin key; each instance has a data directory of its own (its certificate
 * and its embedded chDB). `teardown()`, once the instances have exited, drops the schema, the
 * namespace and every data directory.
 */
export class SharedStores {
  readonly schema: string;
  readonly namespace: string;
  readonly redis: RedisTestContext;
  readonly masterKey = randomBytes(32).toString('base64');
  readonly adminKey = `sk_live_${randomBytes(24).toString('hex').slice(0, 32)}`;
  private readonly dataDirs: string[] = [];

  /** `name` prefixes the schema, the data directories and the Redis clients' names. */
  constructor(private readonly name: string) {
    this.schema = uniqueSchemaName(name.replace(/\W/g, '_'));
    this.redis = new RedisTestContext(name);
    this.namespace = this.redis.namespace();
  }

  /**
   * One more instance; `env` adds to the shared settings. Start the first alone: it creates the
   * event-store schema and the tables, which two instances starting together would race to do.
   */
  async start(env: Record<string, string> = {}): Promise<ServiceProcess> {
    const dataDir = mkdtempSync(join(tmpdir(), `trunkline-${this.name}-`));
    this.dataDirs.push(dataDir);
    return startServiceProcess({
      DATA_DIR: dataDir,
      EVENT_STORE_URL: testDatabaseUrl(),
      EVENT_STORE_SCHEMA: this.schema,
      REDIS_URL: testRedisUrl(),
      REDIS_NAMESPACE: this.namespace,
      MASTER_KEY: this.masterKey,
      ADMIN_API_KEY: this.adminKey,
      PROVIDER_VALIDATION: 'format',
      ...env,
    });
  }

  async teardown(): Promise<void> {
    for (const dir of this.dataDirs) rmSync(dir, { recursive: true, force: true });
    await dropSchema(this.schema, testDatabaseUrl());
    await this.redis.client('cleanup'); // teardown deletes the namespace's keys through a client
    await this.redis.teardown();
  }
}
