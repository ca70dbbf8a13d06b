import type { CallSignalling } from './call-signalling';
import type { MaybeToken } from './json-string-token';

/** A call record as ingestion accepts it, after validation (detail form of api.md + direction). */
export interface CallRecord {
  id: string;
  trunk_id: string;
  direction: 'inbound' | 'outbound';
  from: string;
  to: string;
  status: 'connected' | 'failed' | 'disconnected';
  start_time: Date;
  end_time: Date | null;
  duration_seconds: number;
  carrier_lag_ms: number | null;
  ai_latency_ms: number | null;
  gateway_processing_ms: number | null;
  packet_loss_percent: number | null;
  jitter_ms: number | null;
  codec_used: string | null;
  disconnect_reason: string | null;
  turns: Turn[];
  /** As validated, or still its JSON token from the request (call-line.reader.ts): `textOf` reads either. */
  sip_trace: MaybeToken;
  /** ITU-T G.107 E-model MOS (1-4.5, two decimals), from a media server; null when not measured. */
  mos: number | null;
  /** Whether the agent answered (see talkOf). */
  answered: boolean;
  /** Answer to end in whole seconds; 0 when never answered (see talkOf). */
  billable_seconds: number;
  /** What a SIP gateway saw (docs/sip-gateway.md); absent for records built without one. */
  signalling?: CallSignalling;
}

export interface Turn {
  turn_number: number;
  speaker: 'caller' | 'agent';
  duration_ms: number;
  processing_time_ms: number;
  /** An agent turn cut short by the caller speaking (barge-in). */
  interrupted: boolean;
  /** When the turn started, in ms after the call's start_time; null when not reported. */
  start_offset_ms: number | null;
}

export const CALL_STATUSES = ['connected', 'failed', 'disconnected'] as const;

/** G711u, G711a, PCMU, PCMA count as G711; G722 and G.722 as G722; others by their upper-case name. */
export function codecGroup(codec: string | null): string {
  if (!codec) return '';
  const upper = codec.toUpperCase();
  if (['G711', 'G711U', 'G711A', 'PCMU', 'PCMA', 'G.711', 'G.711U', 'G.711A'].includes(upper)) return 'G711';
  if (upper === 'G722' || upper === 'G.722') return 'G722';
  return upper;
}

/**
 * Histogram bin of a latency: exact below 256 ms, 8 significant bits above (the bin's lower
 * bound is within 0.8% of any value in it). Keeps percentiles inside the 1% the contract allows.
 */
export function latencyBin(ms: number): number {
  if (ms < 256) return ms;
  const shift = Math.floor(Math.log2(ms)) - 7;
  return Math.floor(ms / 2 ** shift) * 2 ** shift;
}

/** What decides whether a call was answered and how long it talked. */
export interface TalkFacts {
  status: CallRecord['status'];
  duration_seconds: number;
  end_time: Date | null;
  answered_at: Date | null;
  sip_code: number | null;
}

/**
 * Answered: the gateway saw the answer (`answered_at`), or, for a record without one, the call was
 * not `failed` and its final code (if any) is 2xx (a 487 is a cancel before the answer). Billable
 * seconds: answer → end, floored, at most `duration_seconds`; 0 for a call never answered; the whole
 * `duration_seconds` for an answered record without signalling times (a record from before
 * gateways reported them, which counted from the answer). Migration 5 gives stored rows the same
 * rule as column defaults (TALK_DEFAULTS), and a spec checks that both agree.
 */
export function talkOf(facts: TalkFacts): { answered: boolean; billable_seconds: number } {
  const { status, duration_seconds, end_time, answered_at, sip_code } = facts;
  const answered =
    answered_at !== null || (status !== 'failed' && (sip_code === null || (sip_code >= 200 && sip_code < 300)));
  if (!answered) return { answered, billable_seconds: 0 };
  if (answered_at === null || end_time === null) return { answered, billable_seconds: duration_seconds };
  const talked = Math.floor((end_time.getTime() - answered_at.getTime()) / 1000);
  return { answered, billable_seconds: Math.min(duration_seconds, Math.max(0, talked)) };
}
