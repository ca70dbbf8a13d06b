import { CPU_PROF_OPTION, parseBenchArgs } from '../lib/options';

const COMMAND = {
  script: 'ingest/ingest.bench.js',
  options: {
    records: { type: 'integer', default: 200_000, help: 'measured records' },
    // At most the ingestion limit per request.
    batch: { type: 'integer', default: 1000, max: 10_000, field: 'batchSize', help: 'records per request' },
    senders: { type: 'integer', default: 4, help: 'concurrent HTTPS senders' },
    trunks: { type: 'integer', default: 10, help: 'trunks the records spread over' },
    seed: { type: 'integer', default: 20240501, min: 0, help: 'generator seed' },
    warmup: {
      type: 'integer',
      default: 10_000,
      min: 0,
      field: 'warmupRecords',
      help: 'records sent first and not counted, in both app and baseline; 0 for none',
    },
    rounds: {
      type: 'integer',
      default: 1,
      help: 'rounds of (app, direct insert), each with fresh data; medians are reported',
    },
    'cpu-prof': {
      ...CPU_PROF_OPTION,
      help: "write V8 CPU profiles of the bench's children to ./bench-profiles/ and print where the app's CPU time went during the measured sends",
    },
  },
} as const;

export type IngestBenchOptions = ReturnType<typeof parseIngestOptions>;

export function parseIngestOptions(argv: string[]) {
  return parseBenchArgs(argv, COMMAND);
}
