import { CALL_RECORDS, type Expect, type HasColumnsOf } from '../../infrastructure/clickhouse/schema';
import { CallRecord, codecGroup, latencyBin } from './call-record';
import { NO_SIGNALLING } from './call-signalling';
import { e164Of } from './caller';
import { textOf } from './json-string-token';
import { CallListRow } from '../contracts/call-list-item';

/** A validated record with what ingestion adds from the trunk read model. */
export interface EnrichedCallRecord extends CallRecord {
  account_id: string;
  provider: string;
}

/** A row of call_records as stored (and as read back for a cancel row). */
export interface CallRow {
  account_id: string;
  start_time: string;
  call_id: string;
  version: number;
  sign: 1 | -1;
  trunk_id: string;
  provider: string;
  direction: string;
  status: string;
  from_number: string;
  to_number: string;
  end_time: string | null;
  duration_seconds: number;
  carrier_lag_ms: number | null;
  ai_latency_ms: number | null;
  gateway_processing_ms: number | null;
  total_latency_ms: number | null;
  latency_bin: number;
  packet_loss_percent: number | null;
  jitter_ms: number | null;
  codec_used: string;
  codec_group: string;
  disconnect_reason: string;
  turns: string;
  sip_trace: string;
  ingested_at: string;
  /** The E.164 forms of from/to ('' when the caller is not a number). */
  from_e164: string;
  to_e164: string;
  invite_at: string | null;
  ringing_at: string | null;
  answered_at: string | null;
  sip_code: number | null;
  sip_reason: string;
  q850_cause: number | null;
  failure_class: string;
  retryable: number | null;
  source_address: string;
  /** Migration 5 (answered and billable_seconds default to talkOf's rule for older rows). */
  answered: number;
  billable_seconds: number;
  mos: number | null;
}

/** The writer's row is call_records as migrated: a column added there and not here (or here only) fails the typecheck. */
export type CallRowIsStored = Expect<HasColumnsOf<CallRow, typeof CALL_RECORDS>>;

/** ClickHouse DateTime64(3) text: `YYYY-MM-DD hh:mm:ss.sss`, read as UTC by the column's zone. */
export const chDateTime = (date: Date): string => date.toISOString().replace('T', ' ').replace('Z', '');

export const isoFromChDateTime = (text: string): string => `${text.replace(' ', 'T')}Z`;

/** Total latency exists only when all three parts were reported. */
export function totalLatency(
  r: Pick<CallRecord, 'carrier_lag_ms' | 'ai_latency_ms' | 'gateway_processing_ms'>,
): number | null {
  if (r.carrier_lag_ms === null || r.ai_latency_ms === null || r.gateway_processing_ms === null) return null;
  return r.carrier_lag_ms + r.ai_latency_ms + r.gateway_processing_ms;
}

export function rowOf(record: EnrichedCallRecord, version: number, now: Date): CallRow {
  return {
    ...rowFields(record, version, now),
    turns: JSON.stringify(record.turns),
    sip_trace: textOf(record.sip_trace) ?? '',
  };
}

/** Every column of the row but the two large texts, which the writer renders on their own (call-record.line.ts). */
export function rowFields(
  record: EnrichedCallRecord,
  version: number,
  now: Date,
): Omit<CallRow, 'turns' | 'sip_trace'> {
  const total = totalLatency(record);
  const signalling = record.signalling ?? NO_SIGNALLING;
  const at = (date: Date | null) => (date ? chDateTime(date) : null);
  return {
    account_id: record.account_id,
    start_time: chDateTime(record.start_time),
    call_id: record.id,
    version,
    sign: 1,
    trunk_id: record.trunk_id,
    provider: record.provider,
    direction: record.direction,
    status: record.status,
    from_number: record.from,
    to_number: record.to,
    end_time: record.end_time ? chDateTime(record.end_time) : null,
    duration_seconds: record.duration_seconds,
    carrier_lag_ms: record.carrier_lag_ms,
    ai_latency_ms: record.ai_latency_ms,
    gateway_processing_ms: record.gateway_processing_ms,
    total_latency_ms: total,
    latency_bin: total === null ? 0 : latencyBin(total),
    packet_loss_percent: record.packet_loss_percent,
    jitter_ms: record.jitter_ms,
    codec_used: record.codec_used ?? '',
    codec_group: codecGroup(record.codec_used),
    disconnect_reason: record.disconnect_reason ?? '',
    ingested_at: chDateTime(now),
    from_e164: e164Of(record.from) ?? '',
    to_e164: e164Of(record.to) ?? '',
    invite_at: at(signalling.invite_at),
    ringing_at: at(signalling.ringing_at),
    answered_at: at(signalling.answered_at),
    sip_code: signalling.sip_code,
    sip_reason: signalling.sip_reason ?? '',
    q850_cause: signalling.q850_cause,
    failure_class: signalling.failure_class ?? '',
    retryable: signalling.retryable === null ? null : Number(signalling.retryable),
    source_address: signalling.source_address ?? '',
    answered: Number(record.answered),
    billable_seconds: record.billable_seconds,
    mos: record.mos,
  };
}

const msOf = (text: string | null): number | null => (text === null ? null : Date.parse(isoFromChDateTime(text)));

/** A stored row as the list query reads it back, so a call.completed call is built like a listed one. */
export function listRowOf(row: CallRow): CallListRow {
  return {
    call_id: row.call_id,
    trunk_id: row.trunk_id,
    from_number: row.from_number,
    to_number: row.to_number,
    status: row.status,
    duration_seconds: row.duration_seconds,
    direction: row.direction,
    start_ms: Date.parse(isoFromChDateTime(row.start_time)),
    end_ms: msOf(row.end_time),
    carrier_lag_ms: row.carrier_lag_ms,
    ai_latency_ms: row.ai_latency_ms,
    gateway_processing_ms: row.gateway_processing_ms,
    from_e164: row.from_e164,
    to_e164: row.to_e164,
    invite_ms: msOf(row.invite_at),
    ringing_ms: msOf(row.ringing_at),
    answered_ms: msOf(row.answered_at),
    sip_code: row.sip_code,
    failure_class: row.failure_class,
    billable_seconds: row.billable_seconds,
    mos: row.mos,
  };
}
