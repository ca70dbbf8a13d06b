import { START_DEADLINE_MS } from '../support/deadlines';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../support/http-client';
import { PrivatePostgres } from '../support/private-postgres';
import { PrivateRedis } from '../support/private-redis';
import { ServiceProcess, startServiceProcess } from '../support/service-process';

const ADMIN_KEY = `sk_live_${randomBytes(24)
  .toString('base64')
  .replace(/[^A-Za-z0-9]/g, '')
  .padEnd(32, 'x')
  .slice(0, 32)}`;
export const EVENT_SCHEMA = 'trunkline';

export interface Tenant {
  accountId: string;
  /** Full-scope key of the account. */
  fullKey: string;
  /** Ingest-scope key (the SIP gateway). */
  ingestKey: string;
}

/**
 * Everything a fault case breaks, private to the suite: a PostgreSQL cluster and a Redis on free
 * ports, and the service as a child process on them (embedded chDB in a temp data dir). The
 * service is restarted only by the SIGKILL cases; dependencies are restarted under it.
 */
export class FaultEnvironment {
  service!: ServiceProcess;
  /** One client per key and service process: a restart changes the origin. */
  private clients = new Map<string, ApiClient>();
  private readonly dataDir = mkdtempSync(join(tmpdir(), 'trunkline-faults-'));
  private readonly masterKey = randomBytes(32).toString('base64');
  private earlierOutput = '';
  /** A case's own settings on top of the suite's (FaultSpec.serviceEnv). */
  private overrides: Record<string, string> = {};

  private constructor(
    readonly postgres: PrivatePostgres,
    readonly redis: PrivateRedis,
  ) {}

  static async start(): Promise<FaultEnvironment> {
    const redis = await PrivateRedis.start();
    const postgres = await PrivatePostgres.start().catch(async (error: unknown) => {
      await redis.kill();
      throw error;
    });
    const env = new FaultEnvironment(postgres, redis);
    await env.startService().catch(async (error: unknown) => {
      await env.stop();
      throw error;
    });
    return env;
  }

  get env(): Record<string, string> {
    return {
      DATA_DIR: this.dataDir,
      ADMIN_API_KEY: ADMIN_KEY,
      EVENT_STORE_URL: this.postgres.url,
      EVENT_STORE_SCHEMA: EVENT_SCHEMA,
      REDIS_URL: this.redis.url,
      REDIS_NAMESPACE: 'faults:',
      MASTER_KEY: this.masterKey,
      PROVIDER_VALIDATION: 'format',
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'warn',
      // The bounds under test here are the production ones (a write returns after 5 s of lagging
      // read models, a Redis command fails after 1 s), not the tests' generous defaults
      // (service-process.ts): a fault must never hold a request past them.
      CONSISTENCY_TIMEOUT_MS: '5000',
      REDIS_COMMAND_TIMEOUT_MS: '1000',
      ...this.overrides,
    };
  }

  /** A client of the running service process with `key` (none: anonymous). */
  client(key: string | null): ApiClient {
    const id = `${this.service.origin} ${key ?? '-'}`;
    let client = this.clients.get(id);
    if (!client) {
      client = new ApiClient(this.service.origin, this.service.ca, key);
      this.clients.set(id, client);
    }
    return client;
  }

  async startService(): Promise<void> {
    this.service = await startServiceProcess(this.env);
  }

  async killService(): Promise<void> {
    this.service.child.kill('SIGKILL');
    await this.service.exited;
    this.earlierOutput += this.service.output();
  }

  /** Everything every service process of the suite wrote (FAULT_LOG_DIR keeps it per case). */
  output(): string {
    return this.earlierOutput + this.service.output();
  }

  /** The embedded ClickHouse engine: the chDB process the service forks. */
  chdbWorkerPid(): number | null {
    const parent = this.service.child.pid;
    for (const entry of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid === parent && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('chdb.worker'))
          return Number(entry);
      } catch {
        // gone meanwhile
      }
    }
    return null;
  }

  async restartService(): Promise<void> {
    await this.killService();
    await this.startService();
  }

  /**
   * Runs the service with `overrides` on top of the suite's settings, restarting it (before the
   * case's traffic) only when they differ from the running one's: a case's settings never leak
   * into the next case.
   */
  async useServiceEnv(overrides: Record<string, string>): Promise<void> {
    if (JSON.stringify(overrides) === JSON.stringify(this.overrides)) return;
    this.overrides = { ...overrides };
    await this.restartService();
    await this.waitReady();
  }

  async tenant(name: string): Promise<Tenant> {
    const admin = this.client(ADMIN_KEY);
    const account = await admin.post('/v1/accounts', { name });
    if (account.status !== 201) throw new Error(`account: ${account.status} ${account.text}`);
    const issue = async (scopes: string[]) => {
      const key = await admin.post('/v1/api-keys', { account_id: account.body.id, name: scopes.join('+'), scopes });
      if (key.status !== 201) throw new Error(`key: ${key.status} ${key.text}`);
      return key.body.key as string;
    };
    return { accountId: account.body.id, fullKey: await issue(['full']), ingestKey: await issue(['ingest']) };
  }

  /** Readiness: both stores answer and the read models have caught up. */
  async waitReady(timeoutMs = START_DEADLINE_MS): Promise<number> {
    const started = Date.now();
    const probe = this.client(null);
    for (;;) {
      const ready = await probe.get('/readyz').catch(() => null);
      if (ready?.status === 200) return Date.now() - started;
      if (Date.now() - started > timeoutMs)
        throw new Error(`not ready after ${timeoutMs} ms: ${ready?.text ?? 'no answer'}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async stop(): Promise<void> {
    await Promise.all([...this.clients.values()].map((c) => c.close().catch(() => undefined)));
    this.clients.clear();
    if (this.service) await this.killService().catch(() => undefined);
    await Promise.all([this.redis.kill(), this.postgres.destroy()]);
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
