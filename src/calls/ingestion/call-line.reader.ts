import { isUtf8 } from 'node:buffer';
import { parseLine, type NdjsonLine } from '../../platform/http/ndjson.parser';
import { MAX_SIP_TRACE_BYTES } from './call-record.validation';
import { JsonStringToken } from './json-string-token';

/** One NDJSON line of a call record; `sipTrace` when its `sip_trace` was kept as its token. */
export interface CallLine extends NdjsonLine {
  sipTrace?: JsonStringToken;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const KEY = Buffer.from('"sip_trace"');
/**
 * Stands in for the cut token. A request can spell this value only with `\u0000` escapes (JSON
 * forbids a raw NUL), and a line holding one is never cut: so a parsed record whose `sip_trace` is
 * the stand-in got it from the cut, which was therefore its top-level member.
 */
const STAND_IN = '\u0000sip_trace cut\u0000';
const STAND_IN_JSON = JSON.stringify(STAND_IN);
const NUL_ESCAPE = Buffer.from('\\u0000');

/**
 * Reads a line as `parseLine` does, except that the `sip_trace` string (most of a record's bytes)
 * is cut out before `JSON.parse` and kept as its token: the rest of the line is parsed with a
 * stand-in in its place, which becomes null. The cut is kept only when it provably changes nothing
 * else: the line is valid UTF-8; the token is a well-formed JSON string without `\u` escapes or
 * control characters and within the size limit once decoded (so validation would take it as it is,
 * and reads it nowhere else); the rest parses and the stand-in is the record's own `sip_trace`
 * (top level, no second member after it). Anything else, valid or not, goes the ordinary way, which
 * words every rejection exactly as before.
 */
export function readCallLine(line: Buffer): CallLine {
  const start = sipTraceStart(line);
  const end = start < 0 ? -1 : sipTraceEnd(line, start);
  if (end > 0) {
    try {
      const value: unknown = JSON.parse(
        `${line.toString('utf8', 0, start)}${STAND_IN_JSON}${line.toString('utf8', end)}`,
      );
      if (isObject(value) && value.sip_trace === STAND_IN) {
        value.sip_trace = null;
        return { value, sipTrace: new JsonStringToken(line.subarray(start, end)) };
      }
    } catch {
      // Not valid JSON: the ordinary parse words the error.
    }
  }
  return parseLine(line);
}

/** Where the first `"sip_trace": "…"` string token starts, or -1. */
function sipTraceStart(line: Buffer): number {
  const key = line.indexOf(KEY);
  if (key < 0 || line.indexOf(NUL_ESCAPE) >= 0 || !isUtf8(line)) return -1;
  let at = skipSpace(line, key + KEY.length);
  if (line[at] !== 0x3a) return -1;
  at = skipSpace(line, at + 1);
  return line[at] === QUOTE ? at : -1;
}

/**
 * End of the token when validation would take its string as it is: simple escapes only (`\"`
 * `\\` `\/` `\b` `\f` `\n` `\r` `\t`, one byte each once decoded), no raw control characters
 * (JSON.parse refuses them), and at most MAX_SIP_TRACE_BYTES once decoded; else -1.
 */
function sipTraceEnd(line: Buffer, start: number): number {
  let escapes = 0;
  for (let at = start + 1; at < line.length; at++) {
    const byte = line[at];
    if (byte === QUOTE) return at - start - 1 - escapes <= MAX_SIP_TRACE_BYTES ? at + 1 : -1;
    if (byte < 0x20) return -1;
    if (byte === BACKSLASH) {
      if (!SIMPLE_ESCAPES.has(line[at + 1])) return -1;
      escapes++;
      at++;
    }
  }
  return -1;
}

const SIMPLE_ESCAPES = new Set([...'"\\/bfnrt'].map((c) => c.charCodeAt(0)));

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function skipSpace(line: Buffer, from: number): number {
  let at = from;
  while (at < line.length && (line[at] === 0x20 || line[at] === 0x09 || line[at] === 0x0d || line[at] === 0x0a)) at++;
  return at;
}
