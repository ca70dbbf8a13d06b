/** IPC between exports.bench.ts and its app child (exports-app-server.ts). */
import type { ExportFileFormat } from '../../src/exports/domain/export.events';
import type { CallsOps } from '../analytics/analytics-messages';

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

export interface ExportsOps extends CallsOps {
  baseline: [BaselineRequest, BaselineResult];
}
