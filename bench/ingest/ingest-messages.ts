/** IPC and files between ingest.bench.ts and its two children (the app, the direct insert). */

/** Which records a run sends: `generateCalls` with these, so both children can rebuild them. */
export interface RecordSpec {
  seed: number;
  fromMs: number;
  toMs: number;
  /** Trunk ids in the generator's order, each with the provider ingestion enriches it with. */
  trunks: { id: string; provider: string }[];
  accountId: string;
}

export interface IngestAppReady {
  type: 'ready';
  port: number;
  /** The app's self-signed certificate (PEM), trusted by the senders. */
  cert: string;
  /** A key with the `ingest` scope only. */
  ingestKey: string;
  accountId: string;
  trunks: { id: string; provider: string }[];
  /** The bench samples the memory of this process and of the chDB process it forked. */
  pid: number;
}

/** Time and volume of one kind of ClickHouse statement, measured around the executor's calls. */
export interface StatementTally {
  calls: number;
  rows: number;
  ms: number;
}

/** What the app child leaves in BENCH_INGEST_STATS_FILE as it stops. */
export interface IngestAppStats {
  inserts: StatementTally;
  /** The writer's previous-version lookups (SELECT … FINAL per INSERT). */
  lookups: StatementTally;
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
export const STATS_FILE_ENV = 'BENCH_INGEST_STATS_FILE';
export const TRUNKS_ENV = 'BENCH_INGEST_TRUNKS';
