import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../../shared/domain-error';

export const MAX_RECORDS_PER_REQUEST = 10_000;
export const MAX_INGEST_BYTES = 16 * 1024 * 1024;

/** One NDJSON line: its parsed value, or why it could not be parsed. */
export interface NdjsonLine {
  value?: unknown;
  error?: string;
}

/** An NDJSON body as its lines' bytes, each parsed by the route that takes it (`recordLines`, or its own reader). */
export class NdjsonBody {
  constructor(readonly lines: Buffer[]) {}
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Splits NDJSON into lines as the bytes arrive: a bad line becomes a rejected record, not a
 * failed request; more than 10,000 records or 16 MiB stops reading at once with 413. Lines stay
 * bytes (views of the received chunks) until the route reads them: call ingestion parses most of
 * a record without decoding its SIP trace (call-line.reader.ts).
 */
export function registerNdjsonParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(
    'application/x-ndjson',
    (request: FastifyRequest, payload: NodeJS.ReadableStream, done) => {
      const lines: Buffer[] = [];
      let pending: Buffer = Buffer.alloc(0);
      let bytes = 0;
      let finished = false;
      const finish = (error: Error | null) => {
        if (finished) return;
        finished = true;
        if (error) {
          payload.removeAllListeners('data');
          payload.resume();
        }
        done(error, error ? undefined : new NdjsonBody(lines));
      };
      const take = (line: Buffer) => {
        if (line.length === 0 || (line.length === 1 && line[0] === 0x0d)) return;
        if (lines.length >= MAX_RECORDS_PER_REQUEST)
          throw new DomainError('payload_too_large', `At most ${MAX_RECORDS_PER_REQUEST} records per request`);
        lines.push(line);
      };
      payload.on('data', (chunk: Buffer) => {
        if (finished) return;
        bytes += chunk.length;
        try {
          if (bytes > MAX_INGEST_BYTES)
            throw new DomainError('payload_too_large', `At most ${MAX_INGEST_BYTES} bytes per request`);
          pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
          let start = 0;
          for (let newline = pending.indexOf(0x0a, start); newline !== -1; newline = pending.indexOf(0x0a, start)) {
            take(pending.subarray(start, newline));
            start = newline + 1;
          }
          pending = pending.subarray(start);
        } catch (error) {
          finish(error as Error);
        }
      });
      payload.on('end', () => {
        try {
          take(pending);
          finish(lines.length > 0 && !lines.some((line) => parseLine(line).error === undefined) ? unreadable() : null);
        } catch (error) {
          finish(error as Error);
        }
      });
      payload.on('error', (error: Error) => finish(error));
      void request;
    },
  );
}

/**
 * Not one line could be read: rather a transport mistake than bad records (curl -d strips the
 * newlines, so the records run together on one line), answered 400 so that --fail-with-body and
 * every HTTP client see a failure instead of `200 {"accepted": 0}`.
 */
function unreadable(): DomainError {
  return new DomainError(
    'missing_required_field',
    'No line of the body could be read as JSON: records must be separated by newlines; with curl use --data-binary (-d strips newlines)',
    { reason: 'no_records' },
  );
}

/** One line as JSON, or why it is not: the `invalid_json` message of a rejected record. */
export function parseLine(line: Buffer): NdjsonLine {
  let text: string;
  try {
    text = utf8.decode(line);
  } catch {
    return { error: 'line is not valid UTF-8' };
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { error: `line is not valid JSON: ${(error as Error).message}` };
  }
}

/**
 * The records of an ingestion body: NDJSON lines as parsed, or a JSON array, or an object with
 * the array under `listKey` (`{"calls": [...]}`), each line judged on its own afterwards.
 */
export function recordLines(
  body: unknown,
  listKey: string,
  read: (line: Buffer) => NdjsonLine = parseLine,
): NdjsonLine[] {
  if (body instanceof NdjsonBody) return body.lines.map((line) => read(line));
  const list = Array.isArray(body)
    ? body
    : body && typeof body === 'object' && Array.isArray((body as Record<string, unknown>)[listKey])
      ? ((body as Record<string, unknown>)[listKey] as unknown[])
      : null;
  if (!list)
    throw new DomainError(
      'missing_required_field',
      `Send NDJSON (application/x-ndjson), a JSON array of records, or {"${listKey}": [...]}`,
      { reason: 'invalid_type' },
    );
  if (list.length > MAX_RECORDS_PER_REQUEST)
    throw new DomainError('payload_too_large', `At most ${MAX_RECORDS_PER_REQUEST} records per request`);
  return list.map((value) => ({ value }));
}
