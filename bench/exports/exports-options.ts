import { parseBenchArgs } from '../lib/options';
import { EXPORT_FILE_FORMATS, ExportFileFormat } from '../../src/exports/domain/export.events';

const COMMAND = {
  script: 'exports/exports.bench.js',
  options: {
    calls: { type: 'integer', default: 1_000_000, help: 'call records to load and export' },
    days: { type: 'integer', default: 30, help: 'spread over the last N days' },
    trunks: { type: 'integer', default: 20, help: 'trunks' },
    seed: { type: 'integer', default: 42, min: 0, help: 'generator seed' },
    batch: { type: 'integer', default: 10_000, field: 'batchRows', help: 'rows per INSERT' },
    formats: {
      type: 'string',
      default: 'csv,ndjson,parquet',
      pattern: /^(csv|ndjson|parquet)(,(csv|ndjson|parquet))*$/,
      help: 'formats to export, comma-separated',
    },
    settle: {
      type: 'integer',
      default: 300,
      min: 0,
      field: 'settleSeconds',
      help: 'seconds to wait at most for background merges after the load',
    },
  },
  notes: ["sip_trace is cut to its first line in the load (exports do not carry it): the load's time only"],
} as const;

export type ExportsBenchOptions = ReturnType<typeof parseExportsOptions>;

export function parseExportsOptions(argv: string[]) {
  const { formats, ...args } = parseBenchArgs(argv, COMMAND);
  const list = formats
    .split(',')
    .filter((f): f is ExportFileFormat => (EXPORT_FILE_FORMATS as readonly string[]).includes(f));
  return { ...args, formats: list };
}
