import type { Host } from '../lib/machine';
import type { PageCosts } from './analytics-http';
import type { Headline, PartsInfo, StatementTime } from './analytics-messages';

export interface AppLoadFigures {
  rows: number;
  ms: number;
  jsonBytes: number;
  batchRows: number;
  shortSipTrace: boolean;
  avgSipTraceBytes: number;
  settleMs: number;
  settled: boolean;
  parts: PartsInfo[];
}

export interface Series {
  /**
   * app-cold: each request's whole hours not yet kept (its range starts one hour later than the one
   * before); app-now: the last `days` up to each request's own instant (a dashboard's range, moving
   * by the milliseconds between requests).
   */
  source: 'app' | 'app-cold' | 'app-now' | 'raw' | 'postgres';
  granularity: 'hourly' | 'daily';
  label: string;
  samplesMs: number[];
  headline: Headline;
}

/** GET /v1/analytics/concurrency over the bench's range: the account, then its busiest trunk. */
export interface ConcurrencySeries {
  label: string;
  samplesMs: number[];
  peak: number;
  buckets: number;
}

export interface AnalyticsReport {
  machine: Host & { chdb: string; loadAverageBeforeMeasuring: number; loadAverageAtEnd: number };
  load: AppLoadFigures;
  exportMs: number;
  postgresLoad: { rows: number; copyMs: number; indexMs: number; analyzeMs: number; tableBytes: number } | null;
  postgresSettings: Record<string, string> | null;
  series: Series[];
  pages: PageCosts;
  statements: StatementTime[];
  concurrency: ConcurrencySeries[];
}
