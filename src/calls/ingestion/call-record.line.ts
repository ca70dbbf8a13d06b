import type { Expect } from '../../infrastructure/clickhouse/schema';
import type { Turn } from './call-record';
import { EnrichedCallRecord, rowFields } from './call-record.row';
import { JsonStringToken } from './json-string-token';

/**
 * A record's row (the columns `rowOf` gives) as one JSONEachRow line, written straight into its
 * Buffer. The two large texts skip a round of escaping: `turns` goes as the JSON array itself,
 * which ClickHouse stores in the String column as that text (input_format_json_read_arrays_as_strings,
 * EXECUTOR_SETTINGS), instead of a string of JSON escaped once more; a SIP trace still in its
 * request token goes as those bytes. What is stored is what `rowOf` builds.
 */
export function rowLine(record: EnrichedCallRecord, version: number, now: Date): Buffer {
  const fields = JSON.stringify(rowFields(record, version, now));
  const head = `${fields.slice(0, -1)},"turns":${turnsJson(record.turns)},"sip_trace":`;
  const trace = record.sip_trace;
  const token = trace instanceof JsonStringToken ? trace.bytes : null;
  const text = token ? '' : JSON.stringify(trace ?? '');
  const headBytes = Buffer.byteLength(head);
  const traceBytes = token ? token.length : Buffer.byteLength(text);
  const line = Buffer.allocUnsafe(headBytes + traceBytes + 2);
  line.write(head, 0);
  if (token) token.copy(line, headBytes);
  else line.write(text, headBytes);
  line[line.length - 2] = 0x7d;
  line[line.length - 1] = 0x0a;
  return line;
}

/**
 * `JSON.stringify(turns)`, written out (a quarter of its time): every value is a validated
 * integer, `caller`/`agent`, a boolean or null, so nothing needs escaping, and the keys come in the
 * order validation builds them. A spec holds it to JSON.stringify's bytes.
 */
/** A key added to Turn fails the typecheck here until turnsJson writes it. */
export type TurnsJsonWritesEveryKey = Expect<
  [
    Exclude<
      keyof Turn,
      'turn_number' | 'speaker' | 'duration_ms' | 'processing_time_ms' | 'interrupted' | 'start_offset_ms'
    >,
  ] extends [never]
    ? true
    : false
>;

export function turnsJson(turns: readonly Turn[]): string {
  let json = '[';
  for (let i = 0; i < turns.length; i++) {
    const t = turns[i];
    json +=
      `${i === 0 ? '' : ','}{"turn_number":${t.turn_number},"speaker":"${t.speaker}","duration_ms":${t.duration_ms},` +
      `"processing_time_ms":${t.processing_time_ms},"interrupted":${t.interrupted},"start_offset_ms":${t.start_offset_ms}}`;
  }
  return `${json}]`;
}
