/** Call records as NDJSON request bodies within the ingestion limits. */
import type { CallRecordInput } from './call-record';

// Module constants, not globals: inside a vm context (Jest runs tests in one) every global lookup
// goes through the context's interceptor, which made generation 13 times slower there.
const NodeBuffer = Buffer;
const utf8Length = (text: string): number => NodeBuffer.byteLength(text);

export interface NdjsonBatch {
  body: string;
  count: number;
  bytes: number;
}
/** The ingestion limit is 16 MiB a request; a little is left for rounding and headers. */
export const DEFAULT_MAX_BATCH_BYTES = 16 * 1024 * 1024 - 64 * 1024;

/** NDJSON request bodies of at most `batchSize` records and `maxBytes` bytes (a lone oversized record still goes alone). */
export function* ndjsonBatches(
  records: Iterable<CallRecordInput>,
  batchSize: number,
  maxBytes = DEFAULT_MAX_BATCH_BYTES,
): Generator<NdjsonBatch> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError('batchSize must be a positive integer');
  let lines: string[] = [];
  let bytes = 0;
  for (const record of records) {
    const line = `${JSON.stringify(record)}\n`;
    const size = utf8Length(line);
    if (lines.length > 0 && (lines.length === batchSize || bytes + size > maxBytes)) {
      yield { body: lines.join(''), count: lines.length, bytes };
      lines = [];
      bytes = 0;
    }
    lines.push(line);
    bytes += size;
  }
  if (lines.length > 0) yield { body: lines.join(''), count: lines.length, bytes };
}

export function* toNdjson(
  records: Iterable<CallRecordInput>,
  batchSize: number,
  maxBytes = DEFAULT_MAX_BATCH_BYTES,
): Generator<string> {
  for (const batch of ndjsonBatches(records, batchSize, maxBytes)) yield batch.body;
}
