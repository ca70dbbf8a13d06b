import { CALL_STATUSES, CallRecord, talkOf, Turn } from './call-record';
import { CALLER } from './caller';
import { SIGNALLING_FIELDS, signallingOf } from './call-signalling.validation';
import {
  fieldsOf,
  instant,
  Invalid,
  judge,
  oneOf,
  optionalInt,
  optionalNumber,
  optionalText,
  text,
} from './record-fields';

export type RecordVerdict =
  | { ok: true; record: CallRecord }
  | { ok: false; code: 'missing_required_field' | 'invalid_field' | 'too_large'; message: string };

const ID = /^call_[A-Za-z0-9_-]{1,64}$/;
const TRUNK_ID = /^conn_[A-Za-z0-9]{1,64}$/;
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
  'mos',
  'billable_seconds',
  'metrics',
  'account_id',
  ...SIGNALLING_FIELDS,
]);

/**
 * One record, judged on its own: a bad record is rejected with a reason while the rest of its
 * batch is stored. Latency and quality fields may sit at top level (list form) or under
 * `metrics` (detail form). `account_id` in the body is ignored: it comes from the trunk.
 */
export function validateCallRecord(input: unknown): RecordVerdict {
  const verdict = judge(() => parse(input));
  return verdict.ok ? { ok: true, record: verdict.value } : verdict;
}

function parse(input: unknown): CallRecord {
  const raw = fieldsOf(input, KNOWN, 'record');
  const metrics = raw.metrics === undefined ? {} : raw.metrics;
  if (typeof metrics !== 'object' || metrics === null || Array.isArray(metrics))
    throw new Invalid('invalid_field', 'metrics must be an object');
  const m = metrics as Record<string, unknown>;
  const pick = (name: string) => (m[name] !== undefined ? m[name] : raw[name]);
  const start = instant(raw.start_time, 'start_time', true)!;
  const end = instant(raw.end_time, 'end_time', false);
  if (end && end.getTime() < start.getTime()) throw new Invalid('invalid_field', 'end_time is before start_time');
  const duration = optionalInt(raw.duration_seconds, 'duration_seconds', 0, 7 * 86_400);
  const disconnectReason = optionalText(raw.disconnect_reason, 'disconnect_reason', REASON);
  const signalling = signallingOf(raw, { start, end, disconnectReason });
  const status =
    raw.status === undefined && signalling.classified
      ? signalling.classified.status
      : oneOf(raw.status, 'status', CALL_STATUSES);
  const durationSeconds = duration ?? (end ? Math.floor((end.getTime() - start.getTime()) / 1000) : 0);
  const talk = talkOf({
    status,
    duration_seconds: durationSeconds,
    end_time: end,
    answered_at: signalling.fields.answered_at,
    sip_code: signalling.fields.sip_code,
  });
  const billable = optionalInt(raw.billable_seconds, 'billable_seconds', 0, 7 * 86_400);
  if (billable !== null && billable > durationSeconds)
    throw new Invalid('invalid_field', `billable_seconds is more than duration_seconds (${durationSeconds})`);
  if (billable !== null && billable > 0 && !talk.answered)
    throw new Invalid('invalid_field', 'billable_seconds must be 0 for a call that was never answered');
  const mos = optionalNumber(pick('mos'), 'mos', 1, 4.5);
  return {
    id: text(raw.id, 'id', ID, 'id must be call_ followed by 1-64 letters, digits, _ or -'),
    trunk_id: text(raw.trunk_id, 'trunk_id', TRUNK_ID, 'trunk_id must be a trunk id (conn_…)'),
    direction: oneOf(raw.direction ?? 'inbound', 'direction', ['inbound', 'outbound']),
    from: text(raw.from, 'from', CALLER, CALLER_MESSAGE('from')),
    to: text(raw.to, 'to', CALLER, CALLER_MESSAGE('to')),
    status,
    start_time: start,
    end_time: end,
    duration_seconds: durationSeconds,
    carrier_lag_ms: optionalInt(pick('carrier_lag_ms'), 'carrier_lag_ms', 0, MAX_LATENCY_MS),
    ai_latency_ms: optionalInt(pick('ai_latency_ms'), 'ai_latency_ms', 0, MAX_LATENCY_MS),
    gateway_processing_ms: optionalInt(pick('gateway_processing_ms'), 'gateway_processing_ms', 0, MAX_LATENCY_MS),
    packet_loss_percent: optionalNumber(pick('packet_loss_percent'), 'packet_loss_percent', 0, 100),
    jitter_ms: optionalInt(pick('jitter_ms'), 'jitter_ms', 0, MAX_LATENCY_MS),
    codec_used: optionalText(pick('codec_used'), 'codec_used', CODEC),
    disconnect_reason: disconnectReason,
    turns: turns(raw.turns),
    sip_trace: sipTrace(raw.sip_trace),
    mos: mos === null ? null : Math.round(mos * 100) / 100,
    answered: talk.answered,
    billable_seconds: billable ?? talk.billable_seconds,
    signalling: signalling.fields,
  };
}

const CALLER_MESSAGE = (field: string) =>
  `${field} must be an E.164 number or a SIP caller as given (1-128 printable characters, no spaces, quotes or angle brackets)`;

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
      interrupted: flag(t.interrupted, `${at}.interrupted`),
      start_offset_ms: optionalInt(t.start_offset_ms, `${at}.start_offset_ms`, 0, 7 * 86_400_000),
    };
  });
}

function flag(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new Invalid('invalid_field', `${field} must be true or false`);
  return value;
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
