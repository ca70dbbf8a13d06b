/**
 * Synthetic call records for tests and benchmarks: pure and deterministic. Record `i` depends only
 * on (seed, i, trunkIds, from, to), never on the records before it, so a run can be split into
 * shards with `startIndex` and still produce exactly the records of one long run.
 */

import {
  STATUS_MIX,
  INBOUND_SHARE,
  DURATION_MS,
  FAILED_SETUP_MS,
  CARRIER_LAG_MS,
  AI_LATENCY_MS,
  GATEWAY_MS,
  PACKET_LOSS_PERCENT,
  JITTER_MS,
  CODEC_MIX,
  CONNECTED_REASONS,
  DISCONNECTED_REASONS,
  FAILED_REASONS,
  OMIT,
  TURNS,
  AGENT_OPENS,
  HOURLY_WEIGHT,
  TRUNK_SKEW,
  CALLER_POOL,
  COUNTRIES,
} from './call-mix';
import type { CallRecordInput, CallStatus, CallTurn, GenerateCallsOptions } from './call-record';
import { IsoFormatter } from './iso-time';
import { cumulative, mix32, pick, Rng } from './random';
import { type Ending, sipTrace } from './sip-trace';

export * from './call-mix';
export * from './call-record';
export { IsoFormatter } from './iso-time';
export { DEFAULT_MAX_BATCH_BYTES, type NdjsonBatch, ndjsonBatches, toNdjson } from './ndjson';
export { hex8, mix32, Rng } from './random';

// Module constants, not globals: inside a vm context (Jest runs tests in one) every global lookup
// goes through the context's interceptor, which made generation 13 times slower there.
const { exp, floor, imul, max, min, round } = Math;
const MAX_INDEX = 2 ** 48;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const PAD3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

// ---- Numbers, trunks, ids ----
const COUNTRY_BOUNDS = cumulative(COUNTRIES.map((c) => c[1]));
const STATUS_BOUNDS = cumulative(STATUS_MIX.map((s) => s[1]));
const CODEC_BOUNDS = cumulative(CODEC_MIX.map((c) => c[1]));
const CONNECTED_BOUNDS = cumulative(CONNECTED_REASONS.map((r) => r[1]));
const DISCONNECTED_BOUNDS = cumulative(DISCONNECTED_REASONS.map((r) => r[1]));
const FAILED_BOUNDS = cumulative(FAILED_REASONS.map((r) => r[1]));
/** Nine decimal digits from 30 random bits. */
const digits9 = (x: number): string =>
  PAD3[x % 1000] + PAD3[((x / 1000) | 0) % 1000] + PAD3[((x / 1_000_000) | 0) % 1000];

/** A stable E.164 number for a 32-bit key: the same key always gives the same number. */
export function phoneNumber(key: number): string {
  const h1 = mix32(key ^ 0x5bd1e995);
  const h2 = mix32(h1 + 0x27d4eb2f);
  const h3 = mix32(h2 ^ 0x165667b1);
  const [cc, , leads, length] = COUNTRIES[pick(COUNTRY_BOUNDS, h1 / 4_294_967_296)];
  return `+${cc}${leads[(h1 & 0xffff) % leads.length]}${(digits9(h2 >>> 2) + digits9(h3 >>> 2)).slice(0, length - 1)}`;
}

interface TrunkProfile {
  id: string;
  dids: string[];
  carrierIp: string;
  carrierFactor: number;
  aiFactor: number;
}

/** What belongs to the trunk itself (its numbers, its carrier, how fast its path is) hangs on its id alone. */
function trunkProfile(id: string): TrunkProfile {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = mix32(h ^ id.charCodeAt(i));
  const dids = [phoneNumber(h), phoneNumber(h + 1), phoneNumber(h + 2)];
  const h1 = mix32(h ^ 0x1b873593);
  const h2 = mix32(h1);
  return {
    id,
    dids,
    carrierIp: `198.51.100.${1 + (h1 % 254)}`,
    carrierFactor: 0.75 + 0.6 * (h2 / 4_294_967_296),
    aiFactor: 0.85 + 0.4 * ((h2 & 0xffff) / 65_536),
  };
}

/** Feistel permutation of a 48-bit index as two 24-bit halves, keyed by the seed: distinct indices, distinct results. */
function permuteIndex(index: number, keys: readonly number[]): [number, number] {
  let left = floor(index / 16_777_216);
  let right = index & 0xffffff;
  for (const key of keys) {
    const next = left ^ (mix32(right ^ key) & 0xffffff);
    left = right;
    right = next;
  }
  return [left, right];
}

/** Appends `chars` base62 digits of a small non-negative integer (kept below 2^30, so V8 stays in integer math). */
function base62(out: string, x: number, chars: number): string {
  for (let i = 0; i < chars; i++) {
    out += BASE62[x % 62];
    x = (x / 62) | 0;
  }
  return out;
}

/** 10 characters encode the permuted index (unique per seed); 14 more vary with the seed, so seeds do not collide either. */
function callId(index: number, idKeys: readonly number[], rng: Rng): string {
  const [high, low] = permuteIndex(index, idKeys);
  const id = base62(base62('call_', high, 5), low, 5);
  return base62(base62(base62(id, rng.u32() >>> 2, 5), rng.u32() >>> 2, 5), rng.u32() >>> 2, 4);
}

// ---- One call ----
interface Plan {
  key: number;
  idKeys: number[];
  trunks: TrunkProfile[];
  trunkBounds: Float64Array;
  fromMs: number;
  toMs: number;
  rng: Rng;
  iso: IsoFormatter;
  callers: (string | undefined)[];
}

const Q850: Record<string, number> = {
  network_error: 38,
  media_timeout: 102,
  ai_provider_error: 41,
  gateway_error: 41,
};

/** Uniform over the range, thinned by the hour-of-day weight (rejection sampling). */
function sampleStart(p: Plan, rng: Rng): number {
  const span = p.toMs - p.fromMs;
  let t = p.fromMs;
  for (let attempt = 0; attempt < 32; attempt++) {
    t = p.fromMs + floor(rng.next() * span);
    if (rng.next() < HOURLY_WEIGHT[floor((t - floor(t / DAY_MS) * DAY_MS) / HOUR_MS)]) break;
  }
  return t;
}

/** Start and length in ms; a call that would outlast the range is moved back so it ends by `to`. */
function callTiming(p: Plan, rng: Rng, status: CallStatus): [number, number] {
  let length: number;
  if (status === 'failed') {
    length = min(FAILED_SETUP_MS.max, round(rng.logNormal(FAILED_SETUP_MS.median, FAILED_SETUP_MS.sigma)));
  } else {
    const d = DURATION_MS[status];
    length = min(DURATION_MS.max, max(DURATION_MS.min, round(rng.logNormal(d.median, d.sigma))));
  }
  let start = sampleStart(p, rng);
  if (start + length > p.toMs) {
    start = max(p.fromMs, p.toMs - max(length, 1));
    length = min(length, p.toMs - start);
  }
  return [start, length];
}

function callEnding(rng: Rng, status: CallStatus): Ending {
  if (status === 'failed') {
    const [reason, , failure] = FAILED_REASONS[pick(FAILED_BOUNDS, rng.next())];
    return { reason, failure, byCarrier: false, q850: 0 };
  }
  if (status === 'disconnected') {
    const reason = DISCONNECTED_REASONS[pick(DISCONNECTED_BOUNDS, rng.next())][0];
    return { reason, failure: null, byCarrier: reason === 'network_error', q850: Q850[reason] };
  }
  const reason = CONNECTED_REASONS[pick(CONNECTED_BOUNDS, rng.next())][0];
  const byCarrier = reason === 'caller_hangup' || (reason === 'normal_clearing' && rng.next() < 0.6);
  return { reason, failure: null, byCarrier, q850: 16 };
}

/**
 * Alternating turns whose count grows with talk time. Agent turns after caller speech carry a
 * processing time around the call's AI latency; caller turns and an opening greeting carry 0.
 * Speech plus processing fits in TURNS.talkShare of the call.
 */
function buildTurns(rng: Rng, talkMs: number, agentOpens: boolean, aiBase: number): CallTurn[] {
  const wanted = round((talkMs / 1000 / TURNS.secondsPerTurn) * exp(0.25 * rng.normal()));
  const n = max(1, min(wanted, TURNS.max, floor(talkMs / 1000)));
  const turns: CallTurn[] = new Array(n);
  let speech = 0;
  let processing = 0;
  for (let i = 0; i < n; i++) {
    const agent = (i % 2 === 0) === agentOpens;
    const shape = agent ? TURNS.agentMs : TURNS.callerMs;
    const duration_ms = max(1, round(rng.logNormal(shape.median, shape.sigma)));
    const processing_time_ms = agent && i > 0 ? max(1, round(rng.logNormal(aiBase, AI_LATENCY_MS.perTurnSigma))) : 0;
    speech += duration_ms;
    processing += processing_time_ms;
    turns[i] = { turn_number: i + 1, speaker: agent ? 'agent' : 'caller', duration_ms, processing_time_ms };
  }
  fitTurns(turns, floor(talkMs * TURNS.talkShare), speech, processing);
  return turns;
}

/** Shrinks speech to fit the budget; processing times (the latency data) only when they alone would take over half of it. */
function fitTurns(turns: CallTurn[], budget: number, speech: number, processing: number): void {
  if (speech + processing <= budget) return;
  const scaleProcessing = processing > budget / 2;
  const speechFactor = scaleProcessing ? budget / (speech + processing) : (budget - processing) / speech;
  for (const turn of turns) {
    turn.duration_ms = max(1, floor(turn.duration_ms * speechFactor));
    if (scaleProcessing && turn.processing_time_ms > 0)
      turn.processing_time_ms = max(1, floor(turn.processing_time_ms * speechFactor));
  }
}

/** The call's ai_latency_ms is the mean of its agent processing times, when it has any. */
function meanProcessing(turns: CallTurn[]): number | null {
  let sum = 0;
  let count = 0;
  for (const turn of turns)
    if (turn.processing_time_ms > 0) {
      sum += turn.processing_time_ms;
      count++;
    }
  return count === 0 ? null : round(sum / count);
}
// ---- Records ----
/** Callers repeat (the pool is skewed to its first entries); at most CALLER_POOL numbers are cached. */
function callerNumber(p: Plan, caller: number): string {
  return (p.callers[caller] ??= phoneNumber(p.key ^ caller));
}

const round2 = (x: number): number => round(x * 100) / 100;

function buildCall(p: Plan, index: number): CallRecordInput {
  const { rng, iso } = p;
  rng.seed(p.key, index >>> 0, floor(index / 4_294_967_296));
  const id = callId(index, p.idKeys, rng);
  const trunk = p.trunks[pick(p.trunkBounds, rng.next())];
  const inbound = rng.next() < INBOUND_SHARE;
  const status = STATUS_MIX[pick(STATUS_BOUNDS, rng.next())][0];
  const did = trunk.dids[(rng.u32() >>> 2) % trunk.dids.length];
  const contact = callerNumber(p, floor(CALLER_POOL * rng.next() ** 2));
  const from = inbound ? contact : did;
  const to = inbound ? did : contact;
  const [startMs, lengthMs] = callTiming(p, rng, status);
  const ending = callEnding(rng, status);
  const answered = status !== 'failed';
  const hasMetrics = answered || rng.next() >= OMIT.failedMetrics;
  const aiBase =
    rng.next() < AI_LATENCY_MS.slowShare
      ? rng.logNormal(AI_LATENCY_MS.slowMedian, AI_LATENCY_MS.slowSigma)
      : rng.logNormal(AI_LATENCY_MS.median * trunk.aiFactor, AI_LATENCY_MS.sigma);
  const turns =
    answered && rng.next() >= OMIT.turns
      ? buildTurns(rng, lengthMs, rng.next() < AGENT_OPENS[inbound ? 'inbound' : 'outbound'], aiBase)
      : undefined;
  const codec = hasMetrics ? CODEC_MIX[pick(CODEC_BOUNDS, rng.next())][0] : undefined;
  const dropped = status === 'disconnected';
  const omitEnd = !answered && rng.next() < OMIT.failedEndTime;
  return {
    id,
    trunk_id: trunk.id,
    direction: inbound ? 'inbound' : 'outbound',
    from,
    to,
    status,
    start_time: iso.format(startMs),
    end_time: omitEnd ? undefined : iso.format(startMs + lengthMs),
    duration_seconds: !omitEnd && rng.next() < OMIT.duration ? undefined : floor(lengthMs / 1000),
    carrier_lag_ms: hasMetrics
      ? max(1, round(rng.logNormal(CARRIER_LAG_MS.median * trunk.carrierFactor, CARRIER_LAG_MS.sigma)))
      : undefined,
    ai_latency_ms: hasMetrics
      ? min(AI_LATENCY_MS.max, max(1, (turns && meanProcessing(turns)) ?? round(aiBase)))
      : undefined,
    gateway_processing_ms: hasMetrics ? max(1, round(rng.logNormal(GATEWAY_MS.median, GATEWAY_MS.sigma))) : undefined,
    packet_loss_percent: hasMetrics
      ? min(
          100,
          round2(
            rng.logNormal(
              dropped ? PACKET_LOSS_PERCENT.droppedMedian : PACKET_LOSS_PERCENT.median,
              PACKET_LOSS_PERCENT.sigma,
            ),
          ),
        )
      : undefined,
    jitter_ms: hasMetrics
      ? round(rng.logNormal(JITTER_MS.median, JITTER_MS.sigma) * (dropped ? JITTER_MS.droppedFactor : 1))
      : undefined,
    codec_used: codec,
    disconnect_reason: rng.next() < OMIT.reason ? undefined : ending.reason,
    turns,
    sip_trace: sipTrace(rng, { inbound, from, to, carrierIp: trunk.carrierIp, ending, codec }),
  };
}

/**
 * Lazily yields `count` records (indices startIndex … startIndex+count-1), so any number can be
 * streamed in constant memory. The options are checked here, before the first record.
 */
export function generateCalls(opts: GenerateCallsOptions): Iterable<CallRecordInput> {
  const startIndex = opts.startIndex ?? 0;
  const fromMs = opts.from.getTime();
  const toMs = opts.to.getTime();
  if (!Number.isSafeInteger(opts.count) || opts.count < 0) throw new RangeError('count must be a non-negative integer');
  if (!Number.isSafeInteger(startIndex) || startIndex < 0 || startIndex + opts.count > MAX_INDEX)
    throw new RangeError(`startIndex + count must stay within 0..2^48`);
  if (opts.trunkIds.length === 0) throw new RangeError('trunkIds must name at least one trunk');
  if (!(toMs > fromMs)) throw new RangeError('to must be after from');
  if (!Number.isSafeInteger(opts.seed)) throw new RangeError('seed must be an integer');
  const key = mix32((opts.seed >>> 0) ^ mix32(floor(opts.seed / 4_294_967_296) + 0x3c6ef372));
  const plan: Plan = {
    key,
    idKeys: [1, 2, 3, 4].map((round) => mix32(key + imul(round, 0x9e3779b9))),
    trunks: opts.trunkIds.map(trunkProfile),
    trunkBounds: cumulative(opts.trunkIds.map((_, k) => 1 / (k + 1) ** TRUNK_SKEW)),
    fromMs,
    toMs,
    rng: new Rng(),
    iso: new IsoFormatter(),
    callers: new Array<string | undefined>(CALLER_POOL),
  };
  return (function* records(): Generator<CallRecordInput> {
    for (let i = startIndex; i < startIndex + opts.count; i++) yield buildCall(plan, i);
  })();
}
