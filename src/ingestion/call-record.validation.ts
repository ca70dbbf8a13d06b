import { CALL_STATUSES, CallRecord, Turn } from './call-record';

export type RecordVerdict =
  | { ok: true; record: CallRecord }
  | { ok: false; code: 'missing_required_field' | 'invalid_field' | 'too_large'; message: string };

const ID = /^call_[A-Za-z0-9_-]{1,64}$/;
const TRUNK_ID = /^conn_[A-Za-z0-9]{1,64}$/;
const E164 = /^\+[1-9]\d{1,14}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const CODEC = /^[A-Za-z0-9._-]{1,32}$/;
const REASON = /^[A-Za-z0-9._ -]{1,64}$/;
export const MAX_SIP_TRACE_BYTES = 64 * 1024;
const MAX_TURNS = 2000;
const MAX_LATENCY_MS = 600_000;
const KNOWN = new Set([
  'id',
  'trunk_id',
  'direction',
  'from',
  'to',
  'status',
  'start_time',
  'end_time',
  'duration_seconds',
  'carrier_lag_ms',
  'ai_latency_ms',
  'gateway_processing_ms',
  'packet_loss_percent',
  'jitter_ms',
  'codec_used',
  'disconnect_reason',
  'turns',
  'sip_trace',
  'metrics',
  'account_id',
]);

class Invalid extends Error {
  constructor(
    readonly code: 'missing_required_field' | 'invalid_field' | 'too_large',
    message: string,
  ) {
    super(message);
  }
}

/**
 * One record, judged on its own: a bad record is rejected with a reason while the rest of its
 * batch is stored. Latency and quality fields may sit at top level (list form) or under
 * `metrics` (detail form). `account_id` in the body is ignored: it comes from the trunk.
 */
export function validateCallRecord(input: unknown): RecordVerdict {
  try {
    return { ok: true, record: parse(input) };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

function parse(input: unknown): CallRecord {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new Invalid('invalid_field', 'a record must be a JSON object');
  const raw = input as Record<string, unknown>;
  const unknown = Object.keys(raw).find((k) => !KNOWN.has(k));
  if (unknown) throw new Invalid('invalid_field', `unknown field: ${unknown}`);
  const metrics = raw.metrics === undefined ? {} : raw.metrics;
  if (typeof metrics !== 'object' || metrics === null || Array.isArray(metrics))
    throw new Invalid('invalid_field', 'metrics must be an object');
  const m = metrics as Record<string, unknown>;
  const pick = (name: string) => (m[name] !== undefined ? m[name] : raw[name]);
  const start = instant(raw.start_time, 'start_time', true)!;
  const end = instant(raw.end_time, 'end_time', false);
  if (end && end.getTime() < start.getTime()) throw new Invalid('invalid_field', 'end_time is before start_time');
  const duration = optionalInt(raw.duration_seconds, 'duration_seconds', 0, 7 * 86_400);
  return {
    id: text(raw.id, 'id', ID, 'id must be call_ followed by 1-64 letters, digits, _ or -'),
    trunk_id: text(raw.trunk_id, 'trunk_id', TRUNK_ID, 'trunk_id must be a trunk id (conn_…)'),
    direction: oneOf(raw.direction ?? 'inbound', 'direction', ['inbound', 'outbound']),
    from: text(raw.from, 'from', E164, 'from must be an E.164 number (+ and 2-15 digits)'),
    to: text(raw.to, 'to', E164, 'to must be an E.164 number (+ and 2-15 digits)'),
    status: oneOf(raw.status, 'status', CALL_STATUSES),
    start_time: start,
    end_time: end,
    duration_seconds: duration ?? (end ? Math.floor((end.getTime() - start.getTime()) / 1000) : 0),
    carrier_lag_ms: optionalInt(pick('carrier_lag_ms'), 'carrier_lag_ms', 0, MAX_LATENCY_MS),
    ai_latency_ms: optionalInt(pick('ai_latency_ms'), 'ai_latency_ms', 0, MAX_LATENCY_MS),
    gateway_processing_ms: optionalInt(pick('gateway_processing_ms'), 'gateway_processing_ms', 0, MAX_LATENCY_MS),
    packet_loss_percent: optionalNumber(pick('packet_loss_percent'), 'packet_loss_percent', 0, 100),
    jitter_ms: optionalInt(pick('jitter_ms'), 'jitter_ms', 0, MAX_LATENCY_MS),
    codec_used: optionalText(pick('codec_used'), 'codec_used', CODEC),
    disconnect_reason: optionalText(raw.disconnect_reason, 'disconnect_reason', REASON),
    turns: turns(raw.turns),
    sip_trace: sipTrace(raw.sip_trace),
  };
}

function text(value: unknown, field: string, pattern: RegExp, message: string): string {
  if (value === undefined || value === null) throw new Invalid('missing_required_field', `${field} is required`);
  if (typeof value !== 'string' || !pattern.test(value)) throw new Invalid('invalid_field', message);
  return value;
}

function optionalText(value: unknown, field: string, pattern: RegExp): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !pattern.test(value))
    throw new Invalid('invalid_field', `${field} must match ${pattern.source}`);
  return value;
}

function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (value === undefined || value === null) throw new Invalid('missing_required_field', `${field} is required`);
  if (typeof value !== 'string' || !allowed.includes(value as T))
    throw new Invalid('invalid_field', `${field} must be one of ${allowed.join(', ')}`);
  return value as T;
}

function instant(value: unknown, field: string, required: boolean): Date | null {
  if (value === undefined || value === null) {
    if (required) throw new Invalid('missing_required_field', `${field} is required`);
    return null;
  }
  const ms = typeof value === 'string' && ISO_INSTANT.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new Invalid('invalid_field', `${field} must be an ISO 8601 instant with a time zone`);
  return new Date(ms);
}

function optionalInt(value: unknown, field: string, min: number, max: number): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new Invalid('invalid_field', `${field} must be an integer from ${min} to ${max}`);
  return value;
}

function optionalNumber(value: unknown, field: string, min: number, max: number): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max)
    throw new Invalid('invalid_field', `${field} must be a number from ${min} to ${max}`);
  return value;
}

function turns(value: unknown): Turn[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_TURNS)
    throw new Invalid('invalid_field', `turns must be an array of at most ${MAX_TURNS} turns`);
  return value.map((turn, i) => {
    const t = (typeof turn === 'object' && turn !== null ? turn : {}) as Record<string, unknown>;
    const at = `turns[${i}]`;
    return {
      turn_number: optionalInt(t.turn_number, `${at}.turn_number`, 1, MAX_TURNS) ?? missing(`${at}.turn_number`),
      speaker: oneOf(t.speaker, `${at}.speaker`, ['caller', 'agent']),
      duration_ms: optionalInt(t.duration_ms, `${at}.duration_ms`, 0, 86_400_000) ?? missing(`${at}.duration_ms`),
      processing_time_ms: optionalInt(t.processing_time_ms, `${at}.processing_time_ms`, 0, MAX_LATENCY_MS) ?? 0,
    };
  });
}

function missing(field: string): never {
  throw new Invalid('missing_required_field', `${field} is required`);
}

function sipTrace(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new Invalid('invalid_field', 'sip_trace must be a string');
  if (Buffer.byteLength(value) > MAX_SIP_TRACE_BYTES)
    throw new Invalid('too_large', `sip_trace is larger than ${MAX_SIP_TRACE_BYTES} bytes`);
  return value;
}
