import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { progress, runBench } from '../lib/bench-main';
import { type Cleanups, dropSchema, tempDir } from '../lib/cleanups';
import { describeMachine } from '../lib/machine';
import { parseBenchArgs, STORES_NOTE, storeUrls } from '../lib/options';
import { startApp } from '../lib/start-app';
import { compareAppends } from './audit-appends';
import { type AuditReport, formatReport } from './audit-report';
import { seedAccount } from './audit-seed';
import { measureExport, measureOfflineVerify, measureServerVerify } from './audit-stream';
import { waitForCheckpoint, waitForReady } from './audit-wait';

/*
 * The audit log's costs (docs/benchmarks.md): the append rate with and without the hash chain in
 * the same run, then one account of --events events exported over HTTPS from the real app on
 * PostgreSQL (events/s and the app's memory growth during the stream), verified by the service
 * and offline from the exported file.
 */
const COMMAND = {
  script: 'audit/audit.bench.js',
  options: {
    events: { type: 'integer', default: 200_000, help: "events of the exported account (the issue's figure: 1000000)" },
    streams: { type: 'integer', default: 1000, help: 'streams the events are spread over' },
    batch: { type: 'integer', default: 100, help: 'events per append while seeding' },
    writers: { type: 'integer', default: 8, help: 'concurrent writers of the append rounds and the seeding' },
    seconds: { type: 'integer', default: 5, help: 'measured seconds of each append round' },
    rounds: { type: 'integer', default: 3, help: 'alternating unchained/chained append rounds (medians reported)' },
  },
  notes: [STORES_NOTE],
} as const;

const parse = (argv: string[]) => ({ ...parseBenchArgs(argv, COMMAND), ...storeUrls() });

async function run(options: ReturnType<typeof parse>, cleanups: Cleanups): Promise<AuditReport> {
  const machine = await describeMachine(options.databaseUrl, options.redisUrl);
  const { writers, seconds, rounds } = options;
  progress(`append rounds: ${writers} writers, ${rounds} × ${seconds} s each side`);
  const appends = await compareAppends(options.databaseUrl, { writers, seconds, rounds }, cleanups);
  const schema = `bench_audit_${randomBytes(5).toString('hex')}`;
  cleanups.add(`drop schema ${schema}`, () => dropSchema(options.databaseUrl, schema));
  const app = await startApp(cleanups, {
    provision: { account: 'Audit bench', keys: ['audit'], trunks: 0, providers: ['custom'] },
    env: { EVENT_STORE_URL: options.databaseUrl, EVENT_STORE_SCHEMA: schema, AUDIT_CHECKPOINT_INTERVAL_MS: '2000' },
    readyTimeoutMs: 120_000,
  });
  const account = app.ready.account;
  if (!account?.keys.audit) throw new Error('the app child provisioned no audit key');
  const target = {
    origin: `https://127.0.0.1:${app.ready.port}`,
    ca: app.ready.cert,
    key: account.keys.audit,
    appPid: app.ready.pid,
  };
  progress(`seeding ${options.events} events over ${options.streams} streams`);
  const seed = await seedAccount(options.databaseUrl, schema, account.id, options);
  progress('waiting for the read models and a checkpoint that covers the seeded events');
  await waitForReady(target);
  await waitForCheckpoint(target, options.events);
  progress('export');
  const file = join(tempDir(cleanups, 'trunkline-audit-bench-'), 'export.ndjson');
  const exported = await measureExport(target, file);
  progress('verify (service)');
  const serverVerify = await measureServerVerify(target);
  progress('verify (offline, the exported file)');
  const offlineVerify = await measureOfflineVerify(file);
  return { machine, appends, seed, exported, serverVerify, offlineVerify };
}

runBench({ parse, run, format: formatReport });
