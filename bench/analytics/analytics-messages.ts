/** IPC between analytics.bench.ts and its app child (analytics-app-server.ts), and the calls app's share. */

/** What the calls app child (calls-app.ts) adds to its `ready`. */
export interface CallsReadyExtra {
  chdbVersion: string;
}

/** Which records to generate and insert: everything `generateCalls` needs, so a run is reproducible. */
export interface LoadSpec {
  accountId: string;
  calls: number;
  trunks: number;
  seed: number;
  fromMs: number;
  toMs: number;
  batchRows: number;
  /** true: each sip_trace is cut to its first line (the INVITE request line) to shorten the load. */
  shortSipTrace: boolean;
}

export interface LoadResult {
  rows: number;
  ms: number;
  /** JSONEachRow bytes sent to the engine. */
  jsonBytes: number;
  avgSipTraceBytes: number;
}

export interface PartsInfo {
  table: string;
  parts: number;
  rows: number;
  bytesOnDisk: number;
}

export interface SettleResult {
  ms: number;
  /** false: merges were still running when the time limit came. */
  settled: boolean;
  parts: PartsInfo[];
}

export interface RawRequest {
  accountId: string;
  fromMs: number;
  toMs: number;
  hourly: boolean;
  warmup: number;
  runs: number;
}

/** The overview's headline figures, to check that the three ways agree. */
export interface Headline {
  totalCalls: number;
  connectedCalls: number;
  p95: number;
  p99: number;
  trunks: number;
  buckets: number;
}

export interface TimedRuns {
  samplesMs: number[];
  headline: Headline;
}

export interface ExportResult {
  rows: number;
  ms: number;
  bytes: number;
}

export interface BreakdownRequest {
  accountId: string;
  fromMs: number;
  toMs: number;
  runs: number;
}

export interface StatementTime {
  label: string;
  p50Ms: number;
  p95Ms: number;
}

/** The requests every calls app child answers (calls-app.ts): the bulk load, then waiting for merges. */
export interface CallsOps {
  load: [LoadSpec, LoadResult];
  settle: [{ timeoutMs: number }, SettleResult];
}

/** What the analytics app child answers beyond the calls app's share. */
export interface AnalyticsOps extends CallsOps {
  raw: [RawRequest, TimedRuns];
  breakdown: [BreakdownRequest, StatementTime[]];
  export: [{ path: string; accountId: string }, ExportResult];
}
