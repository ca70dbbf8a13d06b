/** IPC between exports.bench.ts and its app child (exports-app-server.ts). */
import type { ExportFileFormat } from '../../src/exports/domain/export.events';
import type { LoadResult, LoadSpec, SettleResult } from '../analytics/analytics-messages';

export interface ExportsReadyExtra {
  chdbVersion: string;
}

/** The baseline: the engine writes the same statement's rows to a file, with no job around it. */
export interface BaselineRequest {
  accountId: string;
  format: ExportFileFormat;
  startMs: number;
  endMs: number;
  path: string;
}

export interface BaselineResult {
  ms: number;
  bytes: number;
}

export interface ExportsOps {
  load: [LoadSpec, LoadResult];
  settle: [{ timeoutMs: number }, SettleResult];
  baseline: [BaselineRequest, BaselineResult];
}
