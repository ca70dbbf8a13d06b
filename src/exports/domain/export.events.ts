import { eventGuard } from '../../shared/event-guard';

/** The file formats a client asks for; docs/exports.md. */
export const EXPORT_FILE_FORMATS = ['csv', 'ndjson', 'parquet'] as const;
export type ExportFileFormat = (typeof EXPORT_FILE_FORMATS)[number];

/** The list filters of GET /v1/calls, the range resolved to instants when the export was asked for. */
export interface ExportFilters {
  start_date: string;
  end_date: string;
  trunk_id: string | null;
  status: string | null;
  from: string | null;
  to: string | null;
  direction: string | null;
}

export type ExportRequested = {
  type: 'ExportRequested';
  data: {
    export_id: string;
    account_id: string;
    format: ExportFileFormat;
    filters: ExportFilters;
    requested_at: string;
  };
};

/** A runner took the job; attempt counts from 1 (a crash mid-run leaves it for the next attempt). */
export type ExportStarted = {
  type: 'ExportStarted';
  data: { export_id: string; account_id: string; attempt: number; started_at: string };
};

export type ExportCompleted = {
  type: 'ExportCompleted';
  data: {
    export_id: string;
    account_id: string;
    format: ExportFileFormat;
    rows: number;
    bytes: number;
    completed_at: string;
    /** The file is deleted after this instant (EXPORT_RETENTION_HOURS after completion). */
    expires_at: string;
  };
};

export type ExportFailed = {
  type: 'ExportFailed';
  data: { export_id: string; account_id: string; reason: string; failed_at: string };
};

/** The file was deleted at the end of its retention. */
export type ExportExpired = {
  type: 'ExportExpired';
  data: { export_id: string; account_id: string; expired_at: string };
};

export type ExportEvent = ExportRequested | ExportStarted | ExportCompleted | ExportFailed | ExportExpired;

export const isExportEvent = eventGuard<ExportEvent>({
  ExportRequested: true,
  ExportStarted: true,
  ExportCompleted: true,
  ExportFailed: true,
  ExportExpired: true,
});
