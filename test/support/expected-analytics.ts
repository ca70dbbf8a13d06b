import type { CallRecordInput } from '../../bench/lib/calls/call-generator';

/**
 * The analytics overview computed from the records themselves, the plain way (no histogram,
 * no aggregates), to hold the service's answer against.
 */
export interface Trunk {
  id: string;
  name: string;
  provider: string;
}

const HOUR = 3_600_000;
const DAY = 86_400_000;
const r2 = (x: number) => Math.round(x * 100) / 100;
const pct = (a: number, b: number) => (b === 0 ? 0 : r2((100 * a) / b));
const avg = (sum: number, n: number) => (n === 0 ? 0 : Math.round(sum / n));
const G711 = new Set(['G711', 'G711U', 'G711A', 'PCMU', 'PCMA']);

export function total(r: CallRecordInput): number | null {
  return r.carrier_lag_ms === undefined || r.ai_latency_ms === undefined || r.gateway_processing_ms === undefined
    ? null
    : r.carrier_lag_ms + r.ai_latency_ms + r.gateway_processing_ms;
}

export function nearestRank(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(p * sorted.length) - 1];
}

function duration(r: CallRecordInput): number {
  if (r.duration_seconds !== undefined) return r.duration_seconds;
  return r.end_time ? Math.floor((Date.parse(r.end_time) - Date.parse(r.start_time)) / 1000) : 0;
}

/** Answered and billable seconds by the rule of docs/analytics.md (only failed records carry a sip_code here). */
function talk(r: CallRecordInput): { answered: boolean; billable: number } {
  const answered = r.answered_at !== undefined || r.status !== 'failed';
  if (!answered) return { answered, billable: 0 };
  if (r.answered_at === undefined || !r.end_time) return { answered, billable: duration(r) };
  const talked = Math.floor((Date.parse(r.end_time) - Date.parse(r.answered_at)) / 1000);
  return { answered, billable: Math.min(duration(r), Math.max(0, talked)) };
}

function codecOf(codec: string | undefined): string | null {
  if (!codec) return null;
  const upper = codec.toUpperCase();
  if (G711.has(upper)) return 'G711';
  if (upper === 'G722' || upper === 'G.722') return 'G722';
  return upper;
}

function group(records: CallRecordInput[]) {
  const latencies = records.map(total).filter((t): t is number => t !== null);
  const connected = records.filter((r) => r.status === 'connected').length;
  return {
    calls: records.length,
    connected,
    latencies,
    avgLatency: avg(
      latencies.reduce((a, b) => a + b, 0),
      latencies.length,
    ),
  };
}

/** The exact nearest-rank p50/p95/p99 (the service's are within max(1%, 1 ms) of them). */
export const percentiles = (latencies: number[]) => ({
  p50_latency_ms: nearestRank(latencies, 0.5),
  p95_latency_ms: nearestRank(latencies, 0.95),
  p99_latency_ms: nearestRank(latencies, 0.99),
});

/** Failed calls by sip_code (null without one), the most frequent first, ties by code, null last. */
export function failuresBySipCode(records: CallRecordInput[]): { sip_code: number | null; count: number }[] {
  const counts = new Map<number | null, number>();
  for (const r of records)
    if (r.status === 'failed') counts.set(r.sip_code ?? null, (counts.get(r.sip_code ?? null) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] ?? 1000) - (b[0] ?? 1000))
    .map(([sip_code, count]) => ({ sip_code, count }));
}

export function expectedOverview(
  all: CallRecordInput[],
  trunks: Trunk[],
  start: Date,
  end: Date,
  hourly: boolean,
  trunkId?: string,
) {
  const records = all.filter(
    (r) =>
      Date.parse(r.start_time) >= start.getTime() &&
      Date.parse(r.start_time) <= end.getTime() &&
      (!trunkId || r.trunk_id === trunkId),
  );
  const withLatency = records.filter((r) => total(r) !== null);
  const sum = (rs: CallRecordInput[], f: (r: CallRecordInput) => number) => rs.reduce((a, r) => a + f(r), 0);
  const codecs = new Map<string, number>();
  for (const r of records) {
    const c = codecOf(r.codec_used);
    if (c) codecs.set(c, (codecs.get(c) ?? 0) + 1);
  }
  const codecTotal = [...codecs.values()].reduce((a, b) => a + b, 0);
  const distribution: Record<string, number> = { G711: 0, G722: 0 };
  for (const [c, n] of codecs) distribution[c] = pct(n, codecTotal);
  const loss = records.filter((r) => r.packet_loss_percent !== undefined);
  const jitter = records.filter((r) => r.jitter_ms !== undefined);
  const g = group(records);
  const answered = records.filter((r) => talk(r).answered);
  const billable = sum(records, (r) => talk(r).billable);
  const mos = records.filter((r) => r.mos !== undefined);
  const byTrunk = trunks
    .map((t) => ({ t, g: group(records.filter((r) => r.trunk_id === t.id)) }))
    .filter((x) => x.g.calls > 0)
    .map(({ t, g: tg }) => ({
      trunk_id: t.id,
      trunk_name: t.name,
      call_count: tg.calls,
      success_rate: pct(tg.connected, tg.calls),
    }));
  const providers = [...new Set(trunks.map((t) => t.provider))];
  const byProvider = providers
    .map((p) => ({ p, g: group(records.filter((r) => trunks.find((t) => t.id === r.trunk_id)?.provider === p)) }))
    .filter((x) => x.g.calls > 0)
    .map(({ p, g: pg }) => ({
      provider: p,
      call_count: pg.calls,
      success_rate: pct(pg.connected, pg.calls),
      avg_latency_ms: pg.avgLatency,
    }));
  const step = hourly ? HOUR : DAY;
  const timeseries = [];
  for (let at = Math.floor(start.getTime() / step) * step; at <= end.getTime(); at += step) {
    const bg = group(records.filter((r) => Date.parse(r.start_time) >= at && Date.parse(r.start_time) < at + step));
    timeseries.push({
      timestamp: new Date(at).toISOString(),
      calls: bg.calls,
      avg_latency_ms: bg.avgLatency,
      success_rate: pct(bg.connected, bg.calls),
      ...percentiles(bg.latencies),
    });
  }
  return {
    period: { start_date: start.toISOString(), end_date: end.toISOString() },
    summary: {
      total_calls: g.calls,
      connected_calls: g.connected,
      failed_calls: records.filter((r) => r.status === 'failed').length,
      success_rate: pct(g.connected, g.calls),
      total_duration_seconds: sum(records, duration),
      avg_duration_seconds: g.calls === 0 ? 0 : r2(sum(records, duration) / g.calls),
      answered_calls: answered.length,
      total_billable_seconds: billable,
      avg_billable_seconds: answered.length === 0 ? 0 : r2(billable / answered.length),
    },
    performance: {
      avg_carrier_lag_ms: avg(
        sum(withLatency, (r) => r.carrier_lag_ms!),
        withLatency.length,
      ),
      avg_ai_latency_ms: avg(
        sum(withLatency, (r) => r.ai_latency_ms!),
        withLatency.length,
      ),
      avg_gateway_processing_ms: avg(
        sum(withLatency, (r) => r.gateway_processing_ms!),
        withLatency.length,
      ),
      avg_total_latency_ms: g.avgLatency,
      ...percentiles(g.latencies),
    },
    quality: {
      avg_packet_loss_percent: loss.length === 0 ? 0 : r2(sum(loss, (r) => r.packet_loss_percent!) / loss.length),
      avg_jitter_ms: avg(
        sum(jitter, (r) => r.jitter_ms!),
        jitter.length,
      ),
      avg_mos: mos.length === 0 ? null : r2(sum(mos, (r) => Math.round(r.mos! * 100)) / mos.length / 100),
      codec_distribution: distribution,
    },
    by_provider: byProvider.sort((a, b) => b.call_count - a.call_count || a.provider.localeCompare(b.provider)),
    by_trunk: byTrunk.sort((a, b) => b.call_count - a.call_count || a.trunk_id.localeCompare(b.trunk_id)),
    timeseries,
    failures: { by_sip_code: failuresBySipCode(records) },
  };
}
