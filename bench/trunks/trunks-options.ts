import { parseArgs } from 'node:util';

export interface TrunksBenchOptions {
  /** Measured seconds of each POST, PATCH and GET run. */
  seconds: number;
  warmupSeconds: number;
  /** Concurrent clients of the POST and PATCH runs. */
  writers: number;
  /** Distinct trunks the PATCH run spreads over. */
  patchTrunks: number;
  /** Trunks in the account during the GET run. */
  trunks: number;
  /** Concurrent POSTs that top the account up to `trunks`. */
  seedConnections: number;
  /** Connections of the GET run (app and bare alike). */
  connections: number;
  /** Alternating bare/app GET rounds; the median of each is reported. */
  rounds: number;
  json: boolean;
  cpuProf: boolean;
  databaseUrl: string;
  redisUrl: string;
}

const USAGE = `usage: node dist/bench/trunks.bench.js [options]
  --seconds N           measured seconds of each POST, PATCH and GET run (10)
  --warmup N            warm-up seconds before each run, discarded (3)
  --writers N           concurrent clients of the POST and PATCH runs (16)
  --patch-trunks N      trunks the PATCHes are spread over (200)
  --trunks N            trunks in the account for the GET run (10000)
  --seed-connections N  concurrent POSTs that create the missing trunks (32)
  --connections N       autocannon connections of the GET run (50)
  --rounds N            alternating bare/app GET rounds, median reported (3)
  --cpu-prof            write a V8 CPU profile of the app child to ./bench-profiles/
  --json                print machine-readable JSON instead of the table
env: BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_REDIS_URL (redis://127.0.0.1:6379)`;

export function parseTrunksBenchOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): TrunksBenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      seconds: { type: 'string' },
      warmup: { type: 'string' },
      writers: { type: 'string' },
      'patch-trunks': { type: 'string' },
      trunks: { type: 'string' },
      'seed-connections': { type: 'string' },
      connections: { type: 'string' },
      rounds: { type: 'string' },
      'cpu-prof': { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  return {
    seconds: positive('seconds', values.seconds, 10),
    warmupSeconds: positive('warmup', values.warmup, 3, true),
    writers: positive('writers', values.writers, 16),
    patchTrunks: positive('patch-trunks', values['patch-trunks'], 200),
    trunks: positive('trunks', values.trunks, 10_000),
    seedConnections: positive('seed-connections', values['seed-connections'], 32),
    connections: positive('connections', values.connections, 50),
    rounds: positive('rounds', values.rounds, 3),
    json: values.json ?? false,
    cpuProf: values['cpu-prof'] ?? false,
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
