import type { CallSignalling } from './call-signalling';

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
  sip_trace: string | null;
  /** What a SIP gateway saw (docs/sip-gateway.md); absent for records built without one. */
  signalling?: CallSignalling;
}

export interface Turn {
  turn_number: number;
  speaker: 'caller' | 'agent';
  duration_ms: number;
  processing_time_ms: number;
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
