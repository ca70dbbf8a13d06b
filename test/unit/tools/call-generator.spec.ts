import { validateCallRecord } from '../../../src/calls/ingestion/call-record.validation';
import {
  CallRecordInput,
  CODEC_MIX,
  CONNECTED_REASONS,
  DISCONNECTED_REASONS,
  FAILED_REASONS,
  generateCalls,
  GenerateCallsOptions,
  ndjsonBatches,
  STATUS_MIX,
  toNdjson,
} from '../../../bench/lib/calls/call-generator';

const TO = new Date('2026-11-21T10:00:00.000Z');
const FROM = new Date(TO.getTime() - 7 * 86_400_000);
const TRUNKS = ['conn_aaaaaaaaaaaaaaaaaaaaaaaa', 'conn_bbbbbbbbbbbbbbbbbbbbbbbb', 'conn_cccccccccccccccccccccccc'];

const options = (overrides: Partial<GenerateCallsOptions> = {}): GenerateCallsOptions => ({
  count: 1_000,
  trunkIds: TRUNKS,
  from: FROM,
  to: TO,
  seed: 42,
  ...overrides,
});
const calls = (overrides: Partial<GenerateCallsOptions> = {}): CallRecordInput[] => [
  ...generateCalls(options(overrides)),
];
const share = (n: number, total: number): number => n / total;
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const E164 = /^\+[1-9]\d{7,14}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const REASONS = {
  connected: new Set<string>(CONNECTED_REASONS.map((r) => r[0])),
  disconnected: new Set<string>(DISCONNECTED_REASONS.map((r) => r[0])),
  failed: new Set<string>(FAILED_REASONS.map((r) => r[0])),
};
const CODECS = new Set<string>(CODEC_MIX.map((c) => c[0]));
const isInt = (x: unknown): boolean => Number.isInteger(x);

/** Every rule a single record must keep; returns the broken ones so a failure names them. */
function problems(call: CallRecordInput, from = FROM, to = TO): string[] {
  const out: string[] = [];
  const check = (ok: boolean, rule: string) => {
    if (!ok) out.push(rule);
  };
  check(/^call_[A-Za-z0-9]{24}$/.test(call.id), 'id shape');
  check(TRUNKS.includes(call.trunk_id), 'known trunk');
  check(E164.test(call.from) && E164.test(call.to), 'E.164 numbers');
  check(ISO.test(call.start_time) && new Date(call.start_time).toISOString() === call.start_time, 'start_time ISO');
  const start = Date.parse(call.start_time);
  check(start >= from.getTime() && start < to.getTime(), 'start_time within [from, to)');
  if (call.end_time !== undefined) {
    const end = Date.parse(call.end_time);
    check(ISO.test(call.end_time) && end >= start && end <= to.getTime(), 'start ≤ end_time ≤ to');
    if (call.duration_seconds !== undefined)
      check(call.duration_seconds === Math.floor((end - start) / 1000), 'duration = floor(end - start)');
  } else {
    check(call.status === 'failed', 'only failed calls lack end_time');
  }
  if (call.duration_seconds !== undefined)
    check(isInt(call.duration_seconds) && call.duration_seconds >= 0, 'integer duration');
  if (call.disconnect_reason !== undefined)
    check(REASONS[call.status].has(call.disconnect_reason), 'reason fits status');
  const latencies = [call.carrier_lag_ms, call.ai_latency_ms, call.gateway_processing_ms];
  if (latencies.some((x) => x === undefined)) {
    check(
      call.status === 'failed' && latencies.every((x) => x === undefined) && call.codec_used === undefined,
      'metrics absent together, failed calls only',
    );
  } else {
    check(
      latencies.every((x) => isInt(x) && (x as number) >= 1),
      'integer latencies',
    );
    check(call.codec_used !== undefined && CODECS.has(call.codec_used), 'known codec');
    const loss = call.packet_loss_percent as number;
    check(loss >= 0 && loss <= 100 && Math.round(loss * 100) / 100 === loss, 'packet loss 0..100, 2 decimals');
    check(isInt(call.jitter_ms) && (call.jitter_ms as number) >= 0, 'integer jitter');
  }
  if (call.status === 'failed')
    check(call.turns === undefined && (call.duration_seconds ?? 0) === 0, 'failed: no turns, duration 0');
  if (call.turns) out.push(...turnProblems(call));
  out.push(...traceProblems(call));
  return out;
}

function turnProblems(call: CallRecordInput): string[] {
  const turns = call.turns ?? [];
  const out: string[] = [];
  turns.forEach((turn, i) => {
    if (turn.turn_number !== i + 1) out.push('turns 1-based and sequential');
    if (i > 0 && turn.speaker === turns[i - 1].speaker) out.push('speakers alternate');
    const afterCaller = turn.speaker === 'agent' && i > 0;
    if (afterCaller ? turn.processing_time_ms < 1 : turn.processing_time_ms !== 0)
      out.push('processing_time only after caller speech');
    if (!isInt(turn.duration_ms) || turn.duration_ms < 1 || !isInt(turn.processing_time_ms))
      out.push('integer turn times');
  });
  const talk = turns.reduce((sum, t) => sum + t.duration_ms + t.processing_time_ms, 0);
  if (call.end_time && talk > Date.parse(call.end_time) - Date.parse(call.start_time))
    out.push('turns fit in the call');
  return out;
}

function traceProblems(call: CallRecordInput): string[] {
  const trace = call.sip_trace ?? '';
  const out: string[] = [];
  const has = (text: string) => trace.includes(text);
  if (!(
    trace.startsWith('INVITE sip:') &&
    has('\nSIP/2.0 100 Trying\n') &&
    has('\nCall-ID: ') &&
    has('CSeq: 1 INVITE')
  ))
    out.push('trace opens INVITE, 100 Trying');
  if (!has(`<sip:${call.from}@`) || !has(`sip:${call.to}@`)) out.push('trace names both numbers');
  if (trace.length < 300 || trace.length > 4_000) out.push('trace size');
  if (call.status === 'failed') {
    const failure = FAILED_REASONS.find((r) => r[0] === call.disconnect_reason)?.[2];
    if (has('\nBYE ') || has('200 OK') || !has('\nACK ') || (failure && !has(`\nSIP/2.0 ${failure}\n`)))
      out.push('failed trace ends in its failure response and ACK');
  } else if (!(
    has('\nSIP/2.0 180 Ringing\n') &&
    has('\nSIP/2.0 200 OK\n') &&
    has('\nACK ') &&
    has('\nBYE ') &&
    has('BYE\nReason: Q.850')
  )) {
    out.push('answered trace has 180, 200, ACK, BYE, 200');
  }
  return out;
}

describe('call generator', () => {
  it('gives the same records for the same seed, and different ones for another seed', () => {
    const first = calls({ count: 2_000 });
    expect(calls({ count: 2_000 })).toEqual(first);
    const other = calls({ count: 2_000, seed: 43 });
    expect(other.filter((call, i) => call.id === first[i].id || call.sip_trace === first[i].sip_trace)).toHaveLength(0);
  });

  it('makes record i independent of where the run starts, so runs can be sharded', () => {
    const whole = calls({ count: 600 });
    expect(calls({ count: 100, startIndex: 500 })).toEqual(whole.slice(500));
  });

  it('gives 100,000 records 100,000 distinct ids, and another seed none of them', () => {
    const ids = new Set<string>();
    for (const call of generateCalls(options({ count: 100_000 }))) ids.add(call.id);
    expect(ids.size).toBe(100_000);
    const clashes = calls({ count: 10_000, seed: 7 }).filter((call) => ids.has(call.id));
    expect(clashes).toHaveLength(0);
  });

  it('keeps every invariant on each of 100,000 records', () => {
    const broken = new Map<string, string>();
    for (const call of generateCalls(options({ count: 100_000 }))) {
      for (const rule of problems(call)) if (!broken.has(rule)) broken.set(rule, JSON.stringify(call).slice(0, 400));
    }
    expect(Object.fromEntries(broken)).toEqual({});
  });

  it('produces only records that the ingestion validator accepts', () => {
    const refused = calls({ count: 20_000, seed: 11 })
      .map((call) => JSON.parse(JSON.stringify(call)) as unknown)
      .map(validateCallRecord)
      .filter((v) => !v.ok);
    expect(refused.slice(0, 3)).toEqual([]);
  });

  it('keeps invariants when the range is shorter than a long call', () => {
    const to = new Date(FROM.getTime() + 60_000);
    const broken = calls({ count: 2_000, to }).flatMap((call) => problems(call, FROM, to));
    expect(broken).toEqual([]);
  });

  it('matches the target status, codec and direction mix over 100,000 records', () => {
    const status: Record<string, number> = {};
    const codec: Record<string, number> = {};
    let withCodec = 0;
    let inbound = 0;
    for (const call of generateCalls(options({ count: 100_000, seed: 1 }))) {
      status[call.status] = (status[call.status] ?? 0) + 1;
      if (call.direction === 'inbound') inbound++;
      if (call.codec_used !== undefined) {
        codec[call.codec_used] = (codec[call.codec_used] ?? 0) + 1;
        withCodec++;
      }
    }
    for (const [name, target] of STATUS_MIX) expect(Math.abs(share(status[name], 100_000) - target)).toBeLessThan(0.01);
    for (const [name, target] of CODEC_MIX) expect(Math.abs(share(codec[name], withCodec) - target)).toBeLessThan(0.01);
    expect(Math.abs(share(inbound, 100_000) - 0.7)).toBeLessThan(0.01);
  });

  it('draws long-tailed latencies and durations around the documented medians, busier in business hours', () => {
    const sample = calls({ count: 50_000, seed: 3 });
    const answered = sample.filter((c) => c.status === 'connected' && c.duration_seconds !== undefined);
    const metered = sample.filter((c) => c.ai_latency_ms !== undefined);
    expect(median(answered.map((c) => c.duration_seconds as number))).toBeGreaterThan(75);
    expect(median(answered.map((c) => c.duration_seconds as number))).toBeLessThan(105);
    expect(Math.max(...answered.map((c) => c.duration_seconds as number))).toBeGreaterThan(1_200);
    expect(median(metered.map((c) => c.carrier_lag_ms as number))).toBeGreaterThanOrEqual(20);
    expect(median(metered.map((c) => c.carrier_lag_ms as number))).toBeLessThanOrEqual(80);
    expect(median(metered.map((c) => c.ai_latency_ms as number))).toBeGreaterThanOrEqual(300);
    expect(median(metered.map((c) => c.ai_latency_ms as number))).toBeLessThanOrEqual(900);
    expect(metered.filter((c) => (c.ai_latency_ms as number) > 3_000).length).toBeGreaterThan(50);
    expect(median(metered.map((c) => c.gateway_processing_ms as number))).toBeGreaterThanOrEqual(2);
    expect(median(metered.map((c) => c.gateway_processing_ms as number))).toBeLessThanOrEqual(15);
    expect(share(metered.filter((c) => (c.packet_loss_percent as number) < 1).length, metered.length)).toBeGreaterThan(
      0.8,
    );
    const hour = (c: CallRecordInput) => Number(c.start_time.slice(11, 13));
    const business = sample.filter((c) => hour(c) >= 9 && hour(c) < 17).length;
    const night = sample.filter((c) => hour(c) < 5).length;
    expect(business).toBeGreaterThan(5 * night);
  });

  it('grows the number of turns with the duration of the call', () => {
    const answered = calls({ count: 20_000 }).filter((c) => c.turns && c.duration_seconds !== undefined);
    const turnsOf = (min: number, max: number) =>
      median(
        answered
          .filter((c) => (c.duration_seconds as number) >= min && (c.duration_seconds as number) < max)
          .map((c) => c.turns!.length),
      );
    expect(turnsOf(0, 30)).toBeLessThan(turnsOf(60, 120));
    expect(turnsOf(60, 120)).toBeLessThan(turnsOf(300, 3_600));
  });

  it('streams lazily: a billion-record run yields its records one by one, without building them first', () => {
    const huge = generateCalls(options({ count: 1_000_000_000 }));
    expect(Array.isArray(huge)).toBe(false);
    const iterator = huge[Symbol.iterator]();
    const first = Array.from({ length: 1000 }, () => iterator.next().value);
    // Had the billion records been built first, this line would never be reached.
    expect(first).toEqual(calls({ count: 1000 }));
  });

  it('checks its options before the first record', () => {
    expect(() => generateCalls(options({ trunkIds: [] }))).toThrow(RangeError);
    expect(() => generateCalls(options({ to: FROM }))).toThrow(RangeError);
    expect(() => generateCalls(options({ count: -1 }))).toThrow(RangeError);
    expect(() => generateCalls(options({ count: 1.5 }))).toThrow(RangeError);
    expect(() => generateCalls(options({ startIndex: 2 ** 48 }))).toThrow(RangeError);
  });
});

describe('toNdjson', () => {
  it('cuts the records into bodies of batchSize lines, each line one record', () => {
    const records = calls({ count: 2_500 });
    const bodies = [...toNdjson(records, 1_000)];
    expect(bodies.map((b) => b.split('\n').length - 1)).toEqual([1_000, 1_000, 500]);
    expect(bodies.every((b) => b.endsWith('\n') && !b.includes('\n\n'))).toBe(true);
    const parsed = bodies.flatMap((b) =>
      b
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as CallRecordInput),
    );
    expect(parsed).toEqual(JSON.parse(JSON.stringify(records)));
  });

  it('leaves absent optional fields out of the JSON lines', () => {
    const line = [
      ...toNdjson(
        calls({ count: 5_000 })
          .filter((c) => c.end_time === undefined)
          .slice(0, 1),
        10,
      ),
    ][0];
    expect(line).not.toContain('end_time');
    expect(line).not.toContain('undefined');
  });

  it('starts a new body before one would pass maxBytes, and reports counts and sizes', () => {
    const records = calls({ count: 300 });
    const batches = [...ndjsonBatches(records, 1_000, 64 * 1024)];
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.every((b) => b.bytes <= 64 * 1024 && b.bytes === Buffer.byteLength(b.body))).toBe(true);
    expect(batches.reduce((sum, b) => sum + b.count, 0)).toBe(300);
  });

  it('rejects a batch size below one', () => {
    expect(() => [...toNdjson([], 0)]).toThrow(RangeError);
  });
});
