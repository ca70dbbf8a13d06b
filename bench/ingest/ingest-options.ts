import { parseArgs } from 'node:util';

export interface IngestBenchOptions {
  records: number;
  batchSize: number;
  senders: number;
  trunks: number;
  seed: number;
  /** Records sent (and inserted by the baseline) before the measured ones, not counted. */
  warmupRecords: number;
  /** Rounds of (app, direct insert); the median of each side is reported. */
  rounds: number;
  json: boolean;
  /** Write V8 CPU profiles of both children to this directory. */
  cpuProfDir: string | null;
}

const USAGE = `usage: node dist/bench/ingest.bench.js [options]
  --records N   measured records (200000)
  --batch N     records per request (1000)
  --senders N   concurrent HTTPS senders (4)
  --trunks N    trunks the records spread over (10)
  --seed N      generator seed (20240501)
  --warmup N    records sent first and not counted, in both app and baseline (10000; 0 for none)
  --rounds N    rounds of (app, direct insert), each with fresh data; medians are reported (1)
  --cpu-prof    write V8 CPU profiles of the app and baseline children to ./bench-profiles/
  --json        print machine-readable JSON instead of the table`;

export function parseIngestOptions(argv: string[]): IngestBenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      records: { type: 'string' },
      batch: { type: 'string' },
      senders: { type: 'string' },
      trunks: { type: 'string' },
      seed: { type: 'string' },
      warmup: { type: 'string' },
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
  const batchSize = integer('batch', values.batch, 1000, 1);
  if (batchSize > 10_000) throw new Error('--batch must be at most 10000 (the ingestion limit per request)');
  return {
    records: integer('records', values.records, 200_000, 1),
    batchSize,
    senders: integer('senders', values.senders, 4, 1),
    trunks: integer('trunks', values.trunks, 10, 1),
    seed: integer('seed', values.seed, 20240501, 0),
    warmupRecords: integer('warmup', values.warmup, 10_000, 0),
    rounds: integer('rounds', values.rounds, 1, 1),
    json: values.json ?? false,
    cpuProfDir: values['cpu-prof'] ? `${process.cwd()}/bench-profiles` : null,
  };
}

function integer(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`--${name} must be an integer >= ${min}`);
  return value;
}
