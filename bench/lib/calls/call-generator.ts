/**
 * Synthetic call records for tests and benchmarks: pure and deterministic. Record `i` depends only
 * on (seed, i, trunkIds, from, to), never on the records before it, so a run can be split into
 * shards with `startIndex` and still produce exactly the records of one long run.
 */

// ---- Distribution parameters. Log-normal draws are given as median and sigma (of ln x). ----
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
}
export interface GenerateCallsOptions {
  count: number;
  trunkIds: string[];
  from: Date;
  to: Date;
  seed: number;
  startIndex?: number;
}

// Module constants, not globals: inside a vm context (Jest runs tests in one) every global lookup
// goes through the context's interceptor, which made generation 13 times slower there.
const { exp, floor, imul, log, max, min, round, sqrt } = Math;
const NodeBuffer = Buffer;
const utf8Length = (text: string): number => NodeBuffer.byteLength(text);
const MAX_INDEX = 2 ** 48;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const PAD2 = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const PAD3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/** murmur3's finalizer: a bijection on 32-bit integers with good avalanche. */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** xoshiro128**: 128-bit state, so per-record streams never overlap in practice (mulberry32's 32-bit state would). */
export class Rng {
  private a = 1;
  private b = 2;
  private c = 3;
  private d = 4;
  private spare = 0;
  private hasSpare = false;

  seed(key: number, lo: number, hi: number): void {
    this.a = mix32(lo ^ key);
    this.b = mix32((hi + 0x9e3779b9) ^ key);
    this.c = mix32(this.a + 0x632be5ab);
    this.d = mix32(this.b ^ lo ^ 0x85157af5) | 1;
    this.hasSpare = false;
  }

  u32(): number {
    const r = imul(rotl(imul(this.b, 5), 7), 9);
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return r >>> 0;
  }

  next(): number {
    return this.u32() / 4_294_967_296;
  }

  /** Standard normal by Marsaglia's polar method (no trigonometry); the pair's second value is kept. */
  normal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spare;
    }
    let u: number, v: number, s: number;
    do {
      u = 2 * this.next() - 1;
      v = 2 * this.next() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const f = sqrt((-2 * log(s)) / s);
    this.spare = v * f;
    this.hasSpare = true;
    return u * f;
  }

  logNormal(median: number, sigma: number): number {
    return median * exp(sigma * this.normal());
  }
}

const rotl = (x: number, k: number): number => (x << k) | (x >>> (32 - k));

/** Cumulative table for weighted picks; the last bound is forced to 1 so rounding never falls off. */
function cumulative(weights: readonly number[]): Float64Array {
  const total = weights.reduce((sum, w) => sum + w, 0);
  const bounds = new Float64Array(weights.length);
  let acc = 0;
  weights.forEach((w, i) => {
    acc += w / total;
    bounds[i] = acc;
  });
  bounds[bounds.length - 1] = 1;
  return bounds;
}

function pick(bounds: Float64Array, u: number): number {
  let i = 0;
  while (u >= bounds[i] && i < bounds.length - 1) i++;
  return i;
}

const HEX2 = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
export const hex8 = (x: number): string =>
  HEX2[x >>> 24] + HEX2[(x >>> 16) & 255] + HEX2[(x >>> 8) & 255] + HEX2[x & 255];

/** ISO 8601 with milliseconds and Z, from epoch ms: the date part is cached per UTC day. */
export class IsoFormatter {
  private readonly days = new Map<number, string>();

  format(ms: number): string {
    const day = floor(ms / DAY_MS);
    let prefix = this.days.get(day);
    if (prefix === undefined) {
      if (this.days.size > 4096) this.days.clear();
      prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
      this.days.set(day, prefix);
    }
    let rest = ms - day * DAY_MS;
    const h = floor(rest / HOUR_MS);
    rest -= h * HOUR_MS;
    const m = floor(rest / 60_000);
    rest -= m * 60_000;
    const s = floor(rest / 1000);
    return `${prefix}${PAD2[h]}:${PAD2[m]}:${PAD2[s]}.${PAD3[rest - s * 1000]}Z`;
  }
}

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
interface Ending {
  reason: string;
  failure: string | null;
  byCarrier: boolean;
  q850: number;
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
// ---- SIP trace ----
const GATEWAY_IP = '203.0.113.10';
const GATEWAY_HOST = 'sip.trunkline.example';
const PAYLOAD_TYPE: Record<string, string> = {
  G711u: '0',
  PCMU: '0',
  G711a: '8',
  G722: '9',
  'G.722': '9',
  opus: '111',
};
// Static payload types (0, 8, 9) need no rtpmap line; dynamic ones (opus, DTMF) do.
const DTMF_MAP = 'a=rtpmap:101 telephone-event/8000\n';
const OPUS_MAP = 'a=rtpmap:111 opus/48000/2\n';
const Q850_TEXT: Record<number, string> = {
  16: 'Normal call clearing',
  38: 'Network out of order',
  41: 'Temporary failure',
  102: 'Recovery on timer expiry',
};
const RINGS_FIRST = new Set(['no_answer', 'request_timeout', 'call_rejected']);
const NO_BODY = 'Content-Length: 0\n';

interface TraceInput {
  inbound: boolean;
  from: string;
  to: string;
  carrierIp: string;
  ending: Ending;
  codec: string | undefined;
}

/** Content-Length counts the body as sent, with CRLF line ends; the trace shows LF only. */
function withSdp(
  contact: string,
  ip: string,
  session: number,
  port: number,
  formats: string,
  maps: string,
  mapLines: number,
): string {
  const body = `v=0\no=- ${session} ${session} IN IP4 ${ip}\ns=-\nc=IN IP4 ${ip}\nt=0 0\nm=audio ${port} RTP/AVP ${formats}\n${maps}`;
  return `Contact: ${contact}\nContent-Type: application/sdp\nContent-Length: ${body.length + 6 + mapLines}\n\n${body}`;
}

/**
 * INVITE → 100 → (180) → 200 → ACK → BYE → 200, or INVITE → 100 → (180) → 4xx-6xx → ACK.
 * Built by plain concatenation of shared header blocks: V8 keeps these as ropes, and the one
 * copy happens when the record is serialised.
 */
function sipTrace(rng: Rng, c: TraceInput): string {
  const uacIp = c.inbound ? c.carrierIp : GATEWAY_IP;
  const uasIp = c.inbound ? GATEWAY_IP : c.carrierIp;
  const ruri = `sip:${c.to}@${c.inbound ? GATEWAY_HOST : uasIp}`;
  const callId = `Call-ID: ${hex8(rng.u32())}${hex8(rng.u32())}@${uacIp}\n`;
  const fromValue = `<sip:${c.from}@${uacIp}>;tag=${hex8(rng.u32())}`;
  const toValue = `<${ruri}>;tag=${hex8(rng.u32())}`;
  const head = `\nVia: SIP/2.0/TLS ${uacIp}:5061;branch=z9hG4bK${hex8(rng.u32())}\nFrom: ${fromValue}\n`;
  const dialog = `To: ${toValue}\n${callId}`;
  const early = `${head}To: <${ruri}>\n${callId}CSeq: 1 INVITE\n`;
  const opus = c.codec === 'opus';
  const maps = opus ? OPUS_MAP + DTMF_MAP : DTMF_MAP;
  const offer = withSdp(
    `<sip:${c.from}@${uacIp}:5061;transport=tls>`,
    uacIp,
    rng.u32() >>> 2,
    10_000 + 2 * ((rng.u32() >>> 2) % 10_000),
    opus ? '111 9 0 8 101' : '9 0 8 101',
    maps,
    opus ? 2 : 1,
  );
  let trace = `INVITE ${ruri} SIP/2.0${early}Max-Forwards: 70\n${offer}\nSIP/2.0 100 Trying${early}${NO_BODY}`;
  const { ending } = c;
  if (ending.failure === null || RINGS_FIRST.has(ending.reason))
    trace += `\nSIP/2.0 180 Ringing${head}${dialog}CSeq: 1 INVITE\n${NO_BODY}`;
  if (ending.failure !== null) {
    return `${trace}\nSIP/2.0 ${ending.failure}${head}${dialog}CSeq: 1 INVITE\n${NO_BODY}\nACK ${ruri} SIP/2.0${head}${dialog}CSeq: 1 ACK\n${NO_BODY}`;
  }
  const uasContact = `sip:${c.to}@${uasIp}:5061;transport=tls`;
  const answer = withSdp(
    `<${uasContact}>`,
    uasIp,
    rng.u32() >>> 2,
    20_000 + 2 * ((rng.u32() >>> 2) % 10_000),
    `${PAYLOAD_TYPE[c.codec ?? 'G711u'] ?? '0'} 101`,
    maps,
    opus ? 2 : 1,
  );
  trace += `\nSIP/2.0 200 OK${head}${dialog}CSeq: 1 INVITE\n${answer}`;
  trace += `\nACK ${uasContact} SIP/2.0\nVia: SIP/2.0/TLS ${uacIp}:5061;branch=z9hG4bK${hex8(rng.u32())}\nFrom: ${fromValue}\n${dialog}CSeq: 1 ACK\n${NO_BODY}`;
  const reason = `Reason: Q.850;cause=${ending.q850};text="${Q850_TEXT[ending.q850]}"\n`;
  // The carrier side is the UAC of an inbound call and the UAS of an outbound one.
  const byUac = c.inbound === ending.byCarrier;
  const byeHead = byUac
    ? `\nVia: SIP/2.0/TLS ${uacIp}:5061;branch=z9hG4bK${hex8(rng.u32())}\nFrom: ${fromValue}\nTo: ${toValue}\n${callId}CSeq: 2 BYE\n`
    : `\nVia: SIP/2.0/TLS ${uasIp}:5061;branch=z9hG4bK${hex8(rng.u32())}\nFrom: ${toValue}\nTo: ${fromValue}\n${callId}CSeq: 1 BYE\n`;
  const byeTarget = byUac ? uasContact : `sip:${c.from}@${uacIp}:5061;transport=tls`;
  return `${trace}\nBYE ${byeTarget} SIP/2.0${byeHead}${reason}${NO_BODY}\nSIP/2.0 200 OK${byeHead}${NO_BODY}`;
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

export interface NdjsonBatch {
  body: string;
  count: number;
  bytes: number;
}
/** The ingestion limit is 16 MiB a request; a little is left for rounding and headers. */
export const DEFAULT_MAX_BATCH_BYTES = 16 * 1024 * 1024 - 64 * 1024;

/** NDJSON request bodies of at most `batchSize` records and `maxBytes` bytes (a lone oversized record still goes alone). */
export function* ndjsonBatches(
  records: Iterable<CallRecordInput>,
  batchSize: number,
  maxBytes = DEFAULT_MAX_BATCH_BYTES,
): Generator<NdjsonBatch> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError('batchSize must be a positive integer');
  let lines: string[] = [];
  let bytes = 0;
  for (const record of records) {
    const line = `${JSON.stringify(record)}\n`;
    const size = utf8Length(line);
    if (lines.length > 0 && (lines.length === batchSize || bytes + size > maxBytes)) {
      yield { body: lines.join(''), count: lines.length, bytes };
      lines = [];
      bytes = 0;
    }
    lines.push(line);
    bytes += size;
  }
  if (lines.length > 0) yield { body: lines.join(''), count: lines.length, bytes };
}

export function* toNdjson(
  records: Iterable<CallRecordInput>,
  batchSize: number,
  maxBytes = DEFAULT_MAX_BATCH_BYTES,
): Generator<string> {
  for (const batch of ndjsonBatches(records, batchSize, maxBytes)) yield batch.body;
}
