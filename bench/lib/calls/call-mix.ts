/**
 * What synthetic calls look like (call-generator.ts): statuses, durations, latencies, codecs,
 * reasons, turns and traffic shape. Log-normal draws are given as median and sigma (of ln x).
 */
export const STATUS_MIX = [
  ['connected', 0.85],
  ['failed', 0.08],
  ['disconnected', 0.07],
] as const;
export const INBOUND_SHARE = 0.7;
/** Talk time of answered calls; failed calls end within the first second (duration 0). */
export const DURATION_MS = {
  connected: { median: 90_000, sigma: 0.95 },
  disconnected: { median: 40_000, sigma: 1.1 },
  min: 1_000,
  max: 7_200_000,
};
export const FAILED_SETUP_MS = { median: 250, sigma: 0.8, max: 999 };
export const CARRIER_LAG_MS = { median: 40, sigma: 0.35 };
/** A call is slow (model overloaded, long tool call) with probability `slowShare`. */
export const AI_LATENCY_MS = {
  median: 550,
  sigma: 0.4,
  slowShare: 0.04,
  slowMedian: 2_200,
  slowSigma: 0.45,
  perTurnSigma: 0.3,
  max: 30_000,
};
export const GATEWAY_MS = { median: 6, sigma: 0.5 };
export const PACKET_LOSS_PERCENT = { median: 0.12, sigma: 1.1, droppedMedian: 1.5 };
export const JITTER_MS = { median: 8, sigma: 0.6, droppedFactor: 2 };
export const CODEC_MIX = [
  ['G711u', 0.55],
  ['G722', 0.25],
  ['G.722', 0.08],
  ['G711a', 0.07],
  ['PCMU', 0.03],
  ['opus', 0.02],
] as const;
export const CONNECTED_REASONS = [
  ['normal_clearing', 0.45],
  ['caller_hangup', 0.35],
  ['agent_hangup', 0.2],
] as const;
export const DISCONNECTED_REASONS = [
  ['network_error', 0.4],
  ['media_timeout', 0.3],
  ['ai_provider_error', 0.2],
  ['gateway_error', 0.1],
] as const;
/** Each failure reason with the final SIP response that carries it. */
export const FAILED_REASONS = [
  ['no_answer', 0.3, '480 Temporarily Unavailable'],
  ['busy', 0.25, '486 Busy Here'],
  ['service_unavailable', 0.15, '503 Service Unavailable'],
  ['request_timeout', 0.1, '408 Request Timeout'],
  ['call_rejected', 0.1, '603 Decline'],
  ['network_error', 0.05, '500 Server Internal Error'],
  ['unallocated_number', 0.05, '404 Not Found'],
] as const;
/** Shares of records that leave an optional field out. */
export const OMIT = { reason: 0.03, duration: 0.05, turns: 0.03, failedMetrics: 0.6, failedEndTime: 0.15 };
export const TURNS = {
  secondsPerTurn: 7,
  max: 120,
  callerMs: { median: 2_600, sigma: 0.6 },
  agentMs: { median: 3_400, sigma: 0.5 },
  talkShare: 0.95,
};
/** Who speaks first: the agent greets on inbound calls; the callee says hello on outbound ones. */
export const AGENT_OPENS = { inbound: 0.85, outbound: 0.15 };
/** Relative call volume per UTC hour (max 1): business hours are busy, nights quiet. */
export const HOURLY_WEIGHT = [
  0.12, 0.08, 0.06, 0.06, 0.08, 0.12, 0.25, 0.5, 0.8, 1, 1, 0.95, 0.85, 0.9, 1, 1, 0.9, 0.75, 0.55, 0.4, 0.3, 0.25, 0.2,
  0.15,
];
/** Trunk k (0-based) gets volume ∝ 1/(k+1)^TRUNK_SKEW; callers come from a pool, some often. */
export const TRUNK_SKEW = 0.6;
export const CALLER_POOL = 50_000;
/** Country code, share, leading national digits, national number length (E.164 totals of 11-13 digits). */
export const COUNTRIES = [
  ['1', 0.55, '2345678', 10],
  ['44', 0.12, '7', 10],
  ['49', 0.08, '1', 11],
  ['33', 0.06, '67', 9],
  ['61', 0.05, '4', 9],
  ['91', 0.06, '6789', 10],
  ['55', 0.05, '1234', 11],
  ['81', 0.03, '9', 10],
] as const;
