import { readCallLine } from '../../../src/calls/ingestion/call-line.reader';
import { MAX_SIP_TRACE_BYTES, validateCallRecord } from '../../../src/calls/ingestion/call-record.validation';
import { textOf } from '../../../src/calls/ingestion/json-string-token';
import { parseLine } from '../../../src/platform/http/ndjson.parser';

const TRACE = 'INVITE sip:+14155550199@x SIP/2.0\r\nFrom: "Caller \\ ü 😀" <sip:a@b>\r\nVia: a/b\t\b\f\r\n';

const record = (fields: Record<string, unknown> = {}) => ({
  id: 'call_reader1',
  trunk_id: 'conn_reader',
  from: '+14155550100',
  to: '+442071838750',
  status: 'connected',
  start_time: '2026-11-21T10:00:00.000Z',
  end_time: '2026-11-21T10:01:30.500Z',
  metrics: { carrier_lag_ms: 40 },
  turns: [{ turn_number: 1, speaker: 'caller', duration_ms: 900 }],
  sip_trace: TRACE,
  ...fields,
});

const line = (text: string): Buffer => Buffer.from(text);
const json = (fields: Record<string, unknown> = {}) => line(JSON.stringify(record(fields)));

/** What the reader makes of a line must be what parseLine and validation make of it, sip_trace decoded. */
function expectSameAsParse(bytes: Buffer): ReturnType<typeof readCallLine> {
  const read = readCallLine(bytes);
  const parsed = parseLine(bytes);
  if (parsed.error !== undefined) {
    expect(read).toEqual(parsed);
    return read;
  }
  const value = read.sipTrace ? { ...(read.value as object), sip_trace: read.sipTrace.text } : read.value;
  expect(value).toEqual(parsed.value);
  const verdict = validateCallRecord(read.value);
  if (verdict.ok && read.sipTrace) verdict.record.sip_trace = textOf(read.sipTrace);
  expect(verdict).toEqual(validateCallRecord(parsed.value));
  return read;
}

describe('call line reader', () => {
  it('keeps a top-level SIP trace as its token and parses the rest as parseLine does', () => {
    const read = expectSameAsParse(json());
    expect(read.sipTrace?.bytes.toString()).toBe(JSON.stringify(TRACE));
    expect((read.value as { sip_trace: unknown }).sip_trace).toBeNull();
  });

  it.each([
    [
      'whitespace around every token and a CR before the newline',
      ` { "id" : "call_ws" ,\t"sip_trace" :\t"a\\r\\nb" , "x" : [ 1 , { "y" : "}" } ] } \r`,
    ],
    ['the trace first', `{"sip_trace":"abc","id":"call_first"}`],
    ['an empty trace', `{"id":"call_empty","sip_trace":""}`],
    ['a nested sip_trace after the field', `{"sip_trace":"abc","metrics":{"sip_trace":"n"}}`],
    ['an escaped key that spells sip_trace before the field', `{"sip\\u005ftrace":"x","sip_trace":"y"}`],
  ])('takes the token with %s', (_name, text) => {
    expect(expectSameAsParse(line(text)).sipTrace).toBeDefined();
  });

  it.each([
    ['a \\u escape in the trace', json({ sip_trace: 'bell \u0007 here' })],
    ['a raw control character in the trace', line(JSON.stringify(record()).replace('Via: a', 'Via:\u0001a'))],
    ['a raw tab in the trace', line(JSON.stringify(record()).replace('Via: a', 'Via:\ta'))],
    ['an unknown escape in the trace', line(JSON.stringify(record()).replace('Via: a', 'Via: \\q'))],
    ['a trace one byte over the limit', json({ sip_trace: 'ü'.repeat(MAX_SIP_TRACE_BYTES / 2) + 'x' })],
    ['two sip_trace members (the last wins)', line(`{"sip_trace":"one","id":"call_dup","sip_trace":"two"}`)],
    ['an escaped key that spells sip_trace after the field', line(`{"sip_trace":"y","sip\\u005ftrace":"x"}`)],
    ['a nested sip_trace before the field', json({ metrics: { sip_trace: 'n' } })],
    ['a \\u0000 anywhere in the line', json({ id: 'call_\u0000' })],
    ['the stand-in spelled by the request', json({ sip_trace: '\u0000sip_trace cut\u0000' })],
    ['a null trace', json({ sip_trace: null })],
    ['a trace that is not a string', json({ sip_trace: ['a', 'b'] })],
    ['no trace', json({ sip_trace: undefined })],
    ['a byte-order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json()])],
    [
      'bytes that are not UTF-8',
      Buffer.concat([json().subarray(0, 40), Buffer.from([0xc3, 0x28]), json().subarray(40)]),
    ],
    ['a trailing comma', line(JSON.stringify(record()).replace(/}$/, ',}'))],
    ['text after the object', line(`${JSON.stringify(record())} x`)],
    ['an unterminated trace', line(`{"id":"call_open","sip_trace":"abc`)],
    ['an array', line(`[${JSON.stringify(record())}]`)],
    ['a bad value before the trace', line(`{"id":"call_bad","n":01,"sip_trace":"abc"}`)],
    ['a bad value after the trace', line(`{"id":"call_bad","sip_trace":"abc","n":tru}`)],
  ])('goes the ordinary way with %s, with the same answer', (_name, bytes) => {
    expect(expectSameAsParse(bytes).sipTrace).toBeUndefined();
  });

  it('takes a trace of exactly the limit once decoded, escapes counted as one byte', () => {
    const text = 'ü'.repeat(MAX_SIP_TRACE_BYTES / 2 - 2) + '\r\n';
    expect(Buffer.byteLength(text)).toBe(MAX_SIP_TRACE_BYTES - 2);
    expect(expectSameAsParse(json({ sip_trace: `${text}ab` })).sipTrace).toBeDefined();
  });

  it('answers as parseLine and validation do for a record with any byte deleted, or JSON punctuation put in or over any byte', () => {
    const bytes = line(
      `{"id":"call_m","metrics":{"sip_trace":"n"},"sip_trace":"a\\"b\\\\c\\r\\nü","turns":[{"turn_number":1}]}`,
    );
    const changes = [0x22, 0x5c, 0x7b, 0x7d, 0x5d, 0x2c, 0x3a, 0x09, 0x75];
    for (let at = 0; at < bytes.length; at++) {
      expectSameAsParse(Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]));
      for (const byte of changes) {
        expectSameAsParse(Buffer.concat([bytes.subarray(0, at), Buffer.from([byte]), bytes.subarray(at + 1)]));
        expectSameAsParse(Buffer.concat([bytes.subarray(0, at), Buffer.from([byte]), bytes.subarray(at)]));
      }
    }
  });
});
