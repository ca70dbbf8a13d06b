import { CALL_RECORDS } from '../../infrastructure/clickhouse/schema';
import type { ExportFormat, QueryParams } from '../../infrastructure/clickhouse/clickhouse.port';
import { EXPORT_TIMEOUT_MS } from '../../infrastructure/clickhouse/clickhouse.format';
import { callFilters } from '../../calls/read/calls.queries';
import { ExportFileFormat, ExportFilters } from '../domain/export.events';

/** Each file format by ClickHouse's name for it, and the file's extension and media type. */
export const FILE_FORMATS: Record<ExportFileFormat, { engine: ExportFormat; extension: string; mediaType: string }> = {
  csv: { engine: 'CSVWithNames', extension: 'csv', mediaType: 'text/csv; charset=utf-8' },
  ndjson: { engine: 'JSONEachRow', extension: 'ndjson', mediaType: 'application/x-ndjson; charset=utf-8' },
  parquet: { engine: 'Parquet', extension: 'parquet', mediaType: 'application/vnd.apache.parquet' },
};

/**
 * The list form of a call (GET /v1/calls, `callListItem`): the same keys in the same order, the
 * same values. Times stay DateTime64 so Parquet gets timestamps; CSV and NDJSON print them as
 * ISO 8601 UTC with milliseconds (date_time_output_format=iso, set by both adapters). Absent text
 * is null as in the list (NULL: `\N` in CSV).
 */
export const EXPORT_COLUMNS = `call_id AS id, trunk_id, from_number AS \`from\`, to_number AS \`to\`,
  nullIf(from_e164, '') AS from_e164, nullIf(to_e164, '') AS to_e164, status, duration_seconds,
  start_time, end_time, carrier_lag_ms, ai_latency_ms, gateway_processing_ms, direction,
  invite_at, ringing_at, answered_at, sip_code, nullIf(failure_class, '') AS failure_class,
  billable_seconds, mos`;

/**
 * The calls of the export, newest first like the list; FINAL keeps the latest version of each
 * call. The engine sorts and merges in its own memory (bounded by its limit), never the app's.
 */
export function exportQuery(
  accountId: string,
  filters: ExportFilters,
): { sql: string; count: string; params: QueryParams } {
  const { where, params } = callFilters(accountId, {
    trunk_id: filters.trunk_id ?? undefined,
    status: (filters.status ?? undefined) as 'connected' | 'failed' | 'disconnected' | undefined,
    from: filters.from ?? undefined,
    to: filters.to ?? undefined,
    direction: (filters.direction ?? undefined) as 'inbound' | 'outbound' | undefined,
    start_date: filters.start_date,
    end_date: filters.end_date,
  });
  return {
    // The statement's own time limit: a job may run longer than a request (EXPORT_TIMEOUT_MS).
    sql: `SELECT ${EXPORT_COLUMNS} FROM ${CALL_RECORDS.name} FINAL WHERE ${where} ORDER BY start_time DESC, call_id DESC
      SETTINGS max_execution_time = ${EXPORT_TIMEOUT_MS / 1000}`,
    // Each live call is +1 net of its cancelled versions (as the list's total).
    count: `SELECT sum(sign) AS total FROM ${CALL_RECORDS.name} WHERE ${where}`,
    params,
  };
}

export const exportFileName = (exportId: string, format: ExportFileFormat): string =>
  `${exportId}.${FILE_FORMATS[format].extension}`;
