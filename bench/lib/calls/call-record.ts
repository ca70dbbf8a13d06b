/** The call record the generator produces: the ingestion body of api.md, one shape. */
export type CallStatus = 'connected' | 'failed' | 'disconnected';
export interface CallTurn {
  turn_number: number;
  speaker: 'caller' | 'agent';
  duration_ms: number;
  processing_time_ms: number;
  interrupted?: boolean;
  start_offset_ms?: number;
}
/** Optional fields that a record leaves out are `undefined` (JSON omits them); one shape keeps V8 fast. */
export interface CallRecordInput {
  id: string;
  trunk_id: string;
  direction: 'inbound' | 'outbound';
  from: string;
  to: string;
  status: CallStatus;
  start_time: string;
  end_time?: string;
  duration_seconds?: number;
  carrier_lag_ms?: number;
  ai_latency_ms?: number;
  gateway_processing_ms?: number;
  packet_loss_percent?: number;
  jitter_ms?: number;
  codec_used?: string;
  disconnect_reason?: string;
  turns?: CallTurn[];
  sip_trace?: string;
  mos?: number;
  answered_at?: string;
  /** The INVITE's final SIP code (the generator leaves it out; tests add it). */
  sip_code?: number;
}
export interface GenerateCallsOptions {
  count: number;
  trunkIds: string[];
  from: Date;
  to: Date;
  seed: number;
  startIndex?: number;
}
