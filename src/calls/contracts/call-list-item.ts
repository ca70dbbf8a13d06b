/**
 * The list form of a call: one item of GET /v1/calls, the common part of GET /v1/calls/{id} and
 * each call of a call.completed webhook. All three are built by `callListItem`, so they cannot
 * drift apart (test/unit/calls/call-list-item.spec.ts and the call.completed e2e case compare them).
 */
// A type, not an interface: it must be assignable to the webhook event's opaque call record.
export type CallListItem = {
  id: string;
  trunk_id: string;
  from: string;
  to: string;
  from_e164: string | null;
  to_e164: string | null;
  status: string;
  duration_seconds: number;
  start_time: string;
  end_time: string | null;
  carrier_lag_ms: number | null;
  ai_latency_ms: number | null;
  gateway_processing_ms: number | null;
  direction: string;
  invite_at: string | null;
  ringing_at: string | null;
  answered_at: string | null;
  sip_code: number | null;
  failure_class: string | null;
  billable_seconds: number;
  mos: number | null;
};

/** The list columns of call_records as read back (instants in epoch milliseconds, '' for absent text). */
export interface CallListRow {
  call_id: string;
  trunk_id: string;
  from_number: string;
  to_number: string;
  status: string;
  duration_seconds: number | string;
  direction: string;
  start_ms: number | string;
  end_ms: number | string | null;
  carrier_lag_ms: number | null;
  ai_latency_ms: number | null;
  gateway_processing_ms: number | null;
  from_e164: string;
  to_e164: string;
  invite_ms: number | string | null;
  ringing_ms: number | string | null;
  answered_ms: number | string | null;
  sip_code: number | string | null;
  failure_class: string;
  billable_seconds: number | string;
  mos: number | string | null;
}

const isoOrNull = (ms: number | string | null): string | null =>
  ms === null ? null : new Date(Number(ms)).toISOString();
const numberOrNull = (n: number | string | null): number | null => (n === null ? null : Number(n));

export function callListItem(row: CallListRow): CallListItem {
  return {
    id: row.call_id,
    trunk_id: row.trunk_id,
    from: row.from_number,
    to: row.to_number,
    from_e164: row.from_e164 || null,
    to_e164: row.to_e164 || null,
    status: row.status,
    duration_seconds: Number(row.duration_seconds),
    start_time: new Date(Number(row.start_ms)).toISOString(),
    end_time: isoOrNull(row.end_ms),
    carrier_lag_ms: numberOrNull(row.carrier_lag_ms),
    ai_latency_ms: numberOrNull(row.ai_latency_ms),
    gateway_processing_ms: numberOrNull(row.gateway_processing_ms),
    direction: row.direction,
    invite_at: isoOrNull(row.invite_ms),
    ringing_at: isoOrNull(row.ringing_ms),
    answered_at: isoOrNull(row.answered_ms),
    sip_code: numberOrNull(row.sip_code),
    failure_class: row.failure_class || null,
    billable_seconds: Number(row.billable_seconds),
    mos: numberOrNull(row.mos),
  };
}

/** The keys every list item carries, in the order `callListItem` writes them. */
export const CALL_LIST_ITEM_KEYS = Object.keys(
  callListItem({
    call_id: '',
    trunk_id: '',
    from_number: '',
    to_number: '',
    status: '',
    duration_seconds: 0,
    direction: '',
    start_ms: 0,
    end_ms: null,
    carrier_lag_ms: null,
    ai_latency_ms: null,
    gateway_processing_ms: null,
    from_e164: '',
    to_e164: '',
    invite_ms: null,
    ringing_ms: null,
    answered_ms: null,
    sip_code: null,
    failure_class: '',
    billable_seconds: 0,
    mos: null,
  }),
) as (keyof CallListItem)[];
