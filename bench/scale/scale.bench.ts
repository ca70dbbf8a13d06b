import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { Redis } from 'ioredis';
import { generateCalls } from '../src/tools/call-generator';
import type { InstanceReady } from './scale-instance';
import { progress, runBench } from './support/bench-main';
import { Cleanups, deleteRedisNamespace, dropSchema } from './support/cleanups';
import { measure } from './support/http-load';
import { NdjsonBody, sendAll } from './support/ingest-senders';
import { describeMachine, Machine } from './support/machine';
import { startServerChild } from './support/server-child';

/*
 * What N instances of the service do together on this machine, N = 1, 2, 3 in one run: all on one
 * PostgreSQL event store schema and one Redis namespace (throwaway, removed at the end), started
 * one more per step. Per step: authenticated GET /v1/trunks req/s (autocannon on every instance at
 * once, the connections split between them) and ingestion records/s (NDJSON bodies spread over
 * the instances). Each instance ingests into its own embedded chDB: no ClickHouse server runs
 * here, so each chDB stands in for a shard. After the run: every record is counted exactly once
 * over all instances, and every event was applied once to the shared read models.
 */
interface Options {
  json: boolean;
  databaseUrl: string;
  redisUrl: string;
  seconds: number;
  connections: number;
  records: number;
  maxInstances: number;
}
interface Step {
  instances: number;
  getPerSecond: number;
  getP99Ms: number;
  get2xxShare: number;
  ingestPerSecond: number;
  ingestP99Ms: number;
}
interface Report {
  machine: Machine;
  options: Omit<Options, 'json' | 'databaseUrl' | 'redisUrl'>;
  steps: Step[];
  checks: { recordsSent: number; recordsCounted: number; eventsStored: number; eventsApplied: number };
}

const ADMIN = `sk_live_${randomBytes(32)
  .toString('hex')
  .replace(/[^A-Za-z0-9]/g, '')
  .slice(0, 32)}`;
const BODY_RECORDS = 1000;

function parse(argv: string[]): Options {
  const flag = (name: string, fallback: number) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? Number(argv[i + 1]) : fallback;
  };
  return {
    json: argv.includes('--json'),
    databaseUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    seconds: flag('seconds', 8),
    connections: flag('connections', 24),
    records: flag('records', 30_000),
    maxInstances: flag('instances', 3),
  };
}

async function run(options: Options, cleanups: Cleanups): Promise<Report> {
  const machine = await describeMachine(options.databaseUrl, options.redisUrl);
  const suffix = randomBytes(6).toString('hex');
  const shared = {
    EVENT_STORE_URL: options.databaseUrl,
    EVENT_STORE_SCHEMA: `bench_${suffix}`,
    REDIS_URL: options.redisUrl,
    REDIS_NAMESPACE: `bench:${suffix}:`,
    MASTER_KEY: randomBytes(32).toString('base64'),
    ADMIN_API_KEY: ADMIN,
    PROVIDER_VALIDATION: 'format',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
  };
  cleanups.add('drop schema', () => dropSchema(options.databaseUrl, shared.EVENT_STORE_SCHEMA));
  cleanups.add(
    'delete namespace',
    async () => void (await deleteRedisNamespace(options.redisUrl, shared.REDIS_NAMESPACE)),
  );
  const instances: { origin: string; ca: string; cpuMicros: () => Promise<number> }[] = [];
  const startInstance = async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-scale-'));
    cleanups.add('remove data dir', async () => rmSync(dataDir, { recursive: true, force: true }));
    const child = await startServerChild<InstanceReady>(join(__dirname, 'scale-instance.js'), cleanups, {
      env: { PATH: process.env.PATH, ...shared, DATA_DIR: dataDir },
    });
    instances.push({
      origin: `https://127.0.0.1:${child.ready.port}`,
      ca: child.ready.cert,
      cpuMicros: child.cpuMicros,
    });
    progress(`instance ${instances.length} listening on ${child.ready.port}`);
  };
  await startInstance();
  const setup = await provision(instances[0]);
  const steps: Step[] = [];
  let sent = 0;
  for (let n = 1; n <= options.maxInstances; n++) {
    if (n > 1) await startInstance();
    const per = Math.max(1, Math.floor(options.connections / n));
    const gets = await Promise.all(
      instances.map((i) =>
        measure(
          {
            url: `${i.origin}/v1/trunks?limit=20`,
            ca: i.ca,
            headers: { authorization: `Bearer ${setup.readKey}` },
            cpuMicros: i.cpuMicros,
          },
          { connections: per, seconds: options.seconds, warmupSeconds: 2 },
        ),
      ),
    );
    const bodies = ndjsonBodies(setup.trunkIds, sent, options.records);
    const started = performance.now();
    const ingests = await Promise.all(
      instances.map((i, k) =>
        sendAll(
          { origin: i.origin, ca: i.ca, key: setup.ingestKey },
          bodies.filter((_, b) => b % n === k),
          Math.max(1, Math.floor(6 / n)),
        ),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    sent += options.records;
    const total = gets.reduce((sum, g) => sum + g.requests, 0);
    steps.push({
      instances: n,
      getPerSecond: Math.round(gets.reduce((sum, g) => sum + g.requestsPerSecond, 0)),
      getP99Ms: Math.max(...gets.map((g) => g.p99Ms)),
      get2xxShare: total === 0 ? 0 : 1 - gets.reduce((sum, g) => sum + g.non2xx + g.errors, 0) / total,
      ingestPerSecond: Math.round(options.records / seconds),
      ingestP99Ms: Math.max(...ingests.map((s) => s.p99Ms)),
    });
    progress(`${n} instance(s): ${steps.at(-1)!.getPerSecond} GET/s, ${steps.at(-1)!.ingestPerSecond} records/s`);
  }
  return {
    machine,
    options: {
      seconds: options.seconds,
      connections: options.connections,
      records: options.records,
      maxInstances: options.maxInstances,
    },
    steps,
    checks: await checks(options, shared, instances, setup.readKey, sent),
  };
}

async function provision(instance: {
  origin: string;
  ca: string;
}): Promise<{ readKey: string; ingestKey: string; trunkIds: string[] }> {
  const call = async (path: string, body: unknown, key = ADMIN) => {
    const { request, Agent } = await import('undici');
    const response = await request(`${instance.origin}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      dispatcher: new Agent({ connect: { ca: instance.ca } }),
    });
    const json = (await response.body.json()) as Record<string, string>;
    if (response.statusCode >= 300) throw new Error(`POST ${path}: ${response.statusCode} ${JSON.stringify(json)}`);
    return json;
  };
  const account = await call('/v1/accounts', { name: 'Scale bench' });
  const key = async (scopes: string[]) =>
    (await call('/v1/api-keys', { account_id: account.id, name: scopes.join('+'), scopes })).key;
  const [fullKey, readKey, ingestKey] = [await key(['full']), await key(['read']), await key(['ingest'])];
  const trunkIds: string[] = [];
  for (let t = 0; t < 5; t++) {
    const trunk = await call(
      '/v1/trunks',
      {
        name: `Scale ${t}`,
        ai_provider: 'custom',
        sip_username: `scale-${t}-${randomBytes(3).toString('hex')}`,
        sip_password: 'a-long-secret',
        custom_endpoint: 'wss://agent.example.com/ws',
      },
      fullKey,
    );
    trunkIds.push(trunk.id);
  }
  return { readKey, ingestKey, trunkIds };
}

function ndjsonBodies(trunkIds: string[], startIndex: number, count: number): NdjsonBody[] {
  const lines = [
    ...generateCalls({ count, startIndex, seed: 7, trunkIds, from: new Date(Date.now() - 86_400_000), to: new Date() }),
  ].map((r) => JSON.stringify(r));
  const bodies: NdjsonBody[] = [];
  for (let i = 0; i < lines.length; i += BODY_RECORDS)
    bodies.push({
      body: Buffer.from(lines.slice(i, i + BODY_RECORDS).join('\n')),
      count: Math.min(BODY_RECORDS, lines.length - i),
    });
  return bodies;
}

/** Nothing counted twice: calls over every instance's store, events applied once to the read models. */
async function checks(
  options: Options,
  shared: Record<string, string>,
  instances: { origin: string; ca: string }[],
  readKey: string,
  sent: number,
): Promise<Report['checks']> {
  const { request, Agent } = await import('undici');
  let counted = 0;
  for (const i of instances) {
    const response = await request(`${i.origin}/v1/calls?limit=1`, {
      headers: { authorization: `Bearer ${readKey}` },
      dispatcher: new Agent({ connect: { ca: i.ca } }),
    });
    counted += Number(((await response.body.json()) as { pagination: { total: number } }).pagination.total);
  }
  const pg = new Client({ connectionString: options.databaseUrl });
  const redis = new Redis(options.redisUrl);
  try {
    await pg.connect();
    for (let attempt = 0; attempt < 50; attempt++) {
      const stored = Number(
        (await pg.query(`SELECT count(*) AS n FROM "${shared.EVENT_STORE_SCHEMA}".events`)).rows[0].n,
      );
      const applied = Number(
        (await redis.hget(`${shared.REDIS_NAMESPACE}rm:projection-stats:read-models`, 'events')) ?? 0,
      );
      if (applied >= stored || attempt === 49)
        return { recordsSent: sent, recordsCounted: counted, eventsStored: stored, eventsApplied: applied };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('unreachable');
  } finally {
    await pg.end();
    redis.disconnect();
  }
}

function format(report: Report): string {
  const { machine: m, steps, checks: c } = report;
  const rows = steps.map(
    (s) =>
      `| ${s.instances} | ${s.getPerSecond} | ${s.getP99Ms.toFixed(1)} | ${(100 * s.get2xxShare).toFixed(1)}% | ${s.ingestPerSecond} | ${s.ingestP99Ms.toFixed(0)} |`,
  );
  return [
    `machine: ${m.cpu}, ${m.cores} cores, ${m.node}, ${m.postgres}, Redis ${m.redis}, load average ${m.loadAverage} at start`,
    `GET /v1/trunks?limit=20: ${report.options.connections} connections split over the instances, ${report.options.seconds} s each; ingestion: ${report.options.records} records per step in bodies of ${BODY_RECORDS}`,
    '',
    '| instances | GET req/s (sum) | GET p99 ms (worst) | GET 2xx | ingest records/s | ingest p99 ms |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    `records sent ${c.recordsSent}, counted over all instances ${c.recordsCounted} (${c.recordsSent === c.recordsCounted ? 'each once' : 'MISMATCH'}); events stored ${c.eventsStored}, applied to the read models ${c.eventsApplied} (${c.eventsStored === c.eventsApplied ? 'each once' : 'MISMATCH'})`,
    '',
  ].join('\n');
}

runBench<Options, Report>({ parse, run, format });
