import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { AuditEvent } from './audit-record';
import type { StreamHead } from './merkle-heads';

/**
 * The export file: a header, the heads before the window (only when `from` cuts the log), one
 * record per event, and an end record. NDJSON (one JSON object a line) or CSV (one row a record,
 * nested values as JSON in a cell). A file without its end record was cut off.
 */
export const EXPORT_FORMAT = 'trunkline.audit-export';
export const EXPORT_VERSION = 1;

export interface ExportHeader {
  record: 'header';
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  account_id: string;
  from: string | null;
  to: string | null;
  exported_at: string;
  /** How each event's hash is computed (docs/audit.md). */
  hash: 'sha256(rfc8785(record with sealed secrets))';
  /** Events of the account before the window: the `head` records give where each stream stood. */
  events_before: number;
}

export interface ExportHead {
  record: 'head';
  stream_id: string;
  revision: number;
  hash: string | null;
}

export type ExportEvent = { record: 'event' } & AuditEvent;

export interface ExportEnd {
  record: 'end';
  /** Events in the file. */
  events: number;
  last_position: string | null;
  /** Merkle root and count of the account's stream heads after the last event of the file. */
  root: string;
  streams: number;
}

export type ExportRecord = ExportHeader | ExportHead | ExportEvent | ExportEnd;

export const headRecord = (head: StreamHead): ExportHead => ({
  record: 'head',
  stream_id: head.streamId,
  revision: head.revision,
  hash: head.hash,
});

export const CSV_COLUMNS = [
  'record',
  'position',
  'id',
  'stream_id',
  'revision',
  'type',
  'resource_type',
  'resource_id',
  'actor_key_id',
  'source_address',
  'request_id',
  'occurred_at',
  'hash',
  'previous_hash',
  'data',
  'metadata',
] as const;

export const toNdjson = (record: ExportRecord): string => `${JSON.stringify(record)}\n`;

/**
 * RFC 4180 (csv-stringify): CRLF rows; a cell is quoted when it holds a quote, a comma or a line
 * break (csv-stringify quotes the first two by itself; `quoted_match` adds the lone CR or LF).
 */
const CSV_OPTIONS = { record_delimiter: '\r\n', quoted_match: /[\r\n]/ } as const;

/** Header and end travel as JSON in the `data` cell; a head uses stream_id, revision and hash. */
export function toCsvRow(r: ExportRecord): string {
  const row: (string | number | null)[] = CSV_COLUMNS.map(() => null);
  const set = (column: (typeof CSV_COLUMNS)[number], value: string | number | null) =>
    (row[CSV_COLUMNS.indexOf(column)] = value);
  set('record', r.record);
  if (r.record === 'header' || r.record === 'end') set('data', JSON.stringify(r));
  if (r.record === 'head') {
    set('stream_id', r.stream_id);
    set('revision', r.revision);
    set('hash', r.hash);
  }
  if (r.record === 'event') {
    for (const column of ['position', 'id', 'stream_id', 'revision', 'type', 'resource_type', 'resource_id'] as const)
      set(column, r[column]);
    set('actor_key_id', r.actor.key_id);
    set('source_address', r.actor.source_address);
    set('request_id', r.actor.request_id);
    set('occurred_at', r.occurred_at);
    set('hash', r.hash);
    set('previous_hash', r.previous_hash);
    set('data', JSON.stringify(r.data));
    set('metadata', JSON.stringify(r.metadata));
  }
  return stringify([row], CSV_OPTIONS);
}

export const CSV_HEADER_ROW = stringify([[...CSV_COLUMNS]], CSV_OPTIONS);

/** RFC 4180 cells of one row (no cell holds a line break: nested values are JSON). */
export function parseCsvRow(line: string): string[] {
  const rows = parse(line) as string[][];
  if (rows.length !== 1) throw new Error(`a row is one line of cells, not ${rows.length}`);
  return rows[0];
}

/** A CSV row back into the record it was written from. */
export function fromCsvRow(cells: string[]): ExportRecord {
  if (cells.length !== CSV_COLUMNS.length)
    throw new Error(`a row has ${CSV_COLUMNS.length} cells, not ${cells.length}`);
  const get = (column: (typeof CSV_COLUMNS)[number]) => cells[CSV_COLUMNS.indexOf(column)];
  const orNull = (text: string) => (text === '' ? null : text);
  const record = get('record');
  if (record === 'header' || record === 'end') return JSON.parse(get('data')) as ExportRecord;
  if (record === 'head')
    return { record, stream_id: get('stream_id'), revision: Number(get('revision')), hash: orNull(get('hash')) };
  if (record !== 'event') throw new Error(`unknown record ${JSON.stringify(record)}`);
  return {
    record,
    position: get('position'),
    id: get('id'),
    stream_id: get('stream_id'),
    revision: Number(get('revision')),
    type: get('type'),
    resource_type: orNull(get('resource_type')) as ExportEvent['resource_type'],
    resource_id: orNull(get('resource_id')),
    actor: {
      key_id: orNull(get('actor_key_id')),
      source_address: orNull(get('source_address')),
      request_id: orNull(get('request_id')),
    },
    occurred_at: get('occurred_at'),
    hash: orNull(get('hash')),
    previous_hash: orNull(get('previous_hash')),
    data: JSON.parse(get('data')) as unknown,
    metadata: JSON.parse(get('metadata')) as unknown,
  };
}
