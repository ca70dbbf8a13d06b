/* IPC between ingest.bench.ts and its two children (the app, the direct insert). */
import type { RecordSpec } from '../lib/call-records';

/** Time and volume of one kind of ClickHouse statement, measured around the executor's calls. */
export interface StatementTally {
  calls: number;
  rows: number;
  ms: number;
}

/** The app child's ClickHouse statements so far, warm-up included. */
export interface IngestAppStats {
  inserts: StatementTally;
  /** The writer's previous-version lookups. */
  lookups: StatementTally;
}

export interface IngestOps {
  'ingest-stats': [undefined, IngestAppStats];
}

/** Passed to the direct-insert child as one JSON environment variable. */
export interface DirectInsertSpec {
  dataDir: string;
  records: RecordSpec;
  count: number;
  /** Records inserted (and discarded from the figures) before the measured ones, from index `count`. */
  warmupCount: number;
  /** Rows per INSERT: the app's mean INSERT size in this run. */
  batchRows: number;
}

export interface DirectInsertResult {
  type: 'result';
  records: number;
  inserts: number;
  /** Sum of the INSERT calls' wall time (rows are built before each call, untimed). */
  seconds: number;
  /** CPU time of this process and its chDB process during the INSERT calls (0 without /proc). */
  cpuMicros: number;
  engineVersion: string;
}

export const DIRECT_SPEC_ENV = 'BENCH_INGEST_DIRECT_SPEC';
