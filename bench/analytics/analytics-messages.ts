/** IPC between analytics.bench.ts and its app child (analytics-app-server.ts). */

export interface AnalyticsAppReady {
  type: 'ready';
  port: number;
  /** The app's self-signed certificate (PEM). */
  cert: string;
  accountId: string;
  /** A full-scope key of that account. */
  accountKey: string;
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

/** A bench command to the child and its answer; the id pairs them. */
export type BenchCall =
  | { type: 'bench-call'; id: number; op: 'load'; args: LoadSpec }
  | { type: 'bench-call'; id: number; op: 'settle'; args: { timeoutMs: number } }
  | { type: 'bench-call'; id: number; op: 'raw'; args: RawRequest }
  | { type: 'bench-call'; id: number; op: 'breakdown'; args: BreakdownRequest }
  | { type: 'bench-call'; id: number; op: 'export'; args: { path: string; accountId: string } };

export interface BenchAnswer {
  type: 'bench-answer';
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

export interface BenchProgress {
  type: 'bench-progress';
  message: string;
}
