import { parseArgs } from 'node:util';

export interface BenchOptions {
  seconds: number;
  warmupSeconds: number;
  connections: number;
  rounds: number;
  /** Path template: {account_id} (or another id app-server.ts provisions) is filled in. */
  path: string;
  /** Which key the GET carries: the admin key, or the account's full-scope key. */
  key: 'admin' | 'account';
  json: boolean;
  cpuProf: boolean;
  eventStore: { writers: number; seconds: number } | null;
  databaseUrl: string;
  redisUrl: string;
}

export const DEFAULT_PATH = '/v1/accounts/{account_id}';

const USAGE = `usage: node dist/bench/api.bench.js [options]
  --seconds N        measured seconds per run (10)
  --warmup N         warm-up seconds before each run, discarded (3)
  --connections N    autocannon connections (50)
  --rounds N         alternating bare/app rounds; the median of each is reported (3)
  --path P           GET path template, {account_id} filled in (${DEFAULT_PATH})
  --key admin|account  key sent (admin for /v1/accounts paths, else the account's full-scope key)
  --writers N        event-store concurrent writers (16)
  --es-seconds N     event-store bench seconds (10)
  --no-event-store   skip the event-store bench
  --cpu-prof         write a V8 CPU profile of the app child to ./bench-profiles/
  --json             print machine-readable JSON instead of the table
env: BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_REDIS_URL (redis://127.0.0.1:6379)`;

export function parseBenchOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      seconds: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      rounds: { type: 'string' },
      path: { type: 'string' },
      key: { type: 'string' },
      writers: { type: 'string' },
      'es-seconds': { type: 'string' },
      'no-event-store': { type: 'boolean' },
      'cpu-prof': { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const path = values.path ?? DEFAULT_PATH;
  if (!path.startsWith('/')) throw new Error('--path must start with /');
  const key = values.key ?? (path.startsWith('/v1/accounts') ? 'admin' : 'account');
  if (key !== 'admin' && key !== 'account') throw new Error('--key must be admin or account');
  return {
    seconds: positive('seconds', values.seconds, 10),
    warmupSeconds: positive('warmup', values.warmup, 3, true),
    connections: positive('connections', values.connections, 50),
    rounds: positive('rounds', values.rounds, 3),
    path,
    key,
    json: values.json ?? false,
    cpuProf: values['cpu-prof'] ?? false,
    eventStore: values['no-event-store']
      ? null
      : { writers: positive('writers', values.writers, 16), seconds: positive('es-seconds', values['es-seconds'], 10) },
    databaseUrl: env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
}

function positive(name: string, raw: string | undefined, fallback: number, zeroOk = false): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < (zeroOk ? 0 : 1))
    throw new Error(`--${name} must be a ${zeroOk ? 'non-negative' : 'positive'} integer`);
  return value;
}
