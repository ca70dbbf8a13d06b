import { AggregateRow } from './analytics.sql';

/** Sums of one group (whole range, one trunk or one time bucket), mergeable across sources. */
export interface Totals {
  calls: number;
  connected: number;
  failed: number;
  durationSum: number;
  latencyCalls: number;
  carrierSum: number;
  aiSum: number;
  gatewaySum: number;
  totalLatencySum: number;
  lossCalls: number;
  lossSum: number;
  jitterCalls: number;
  jitterSum: number;
  hist: Map<number, number>;
  codecs: Map<string, number>;
}

export const emptyTotals = (): Totals => ({
  calls: 0,
  connected: 0,
  failed: 0,
  durationSum: 0,
  latencyCalls: 0,
  carrierSum: 0,
  aiSum: 0,
  gatewaySum: 0,
  totalLatencySum: 0,
  lossCalls: 0,
  lossSum: 0,
  jitterCalls: 0,
  jitterSum: 0,
  hist: new Map(),
  codecs: new Map(),
});

export function addRow(into: Totals, row: AggregateRow): void {
  into.calls += Number(row.calls);
  into.connected += Number(row.connected);
  into.failed += Number(row.failed);
  into.durationSum += Number(row.duration_sum);
  into.latencyCalls += Number(row.latency_calls);
  into.carrierSum += Number(row.carrier_sum);
  into.aiSum += Number(row.ai_sum);
  into.gatewaySum += Number(row.gateway_sum);
  into.totalLatencySum += Number(row.total_latency_sum);
  into.lossCalls += Number(row.loss_calls);
  into.lossSum += Number(row.loss_sum);
  into.jitterCalls += Number(row.jitter_calls);
  into.jitterSum += Number(row.jitter_sum);
  mergeMap(into.codecs, row.codecs[0], row.codecs[1]);
}

function mergeMap<K>(into: Map<K, number>, keys: K[], counts: (number | string)[]): void {
  keys.forEach((key, i) => into.set(key, (into.get(key) ?? 0) + Number(counts[i])));
}

export const round2 = (value: number): number => Math.round(value * 100) / 100;
export const ratio = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);
export const percent = (part: number, whole: number): number => round2(100 * ratio(part, whole));
export const avgInt = (sum: number, count: number): number => (count === 0 ? 0 : Math.round(sum / count));

/**
 * Nearest-rank percentile over the latency histogram: the smallest bin whose cumulative count
 * reaches ceil(p × n). Bins are exact below 256 ms and within 0.8% above.
 */
export function percentile(hist: Map<number, number>, p: number): number {
  const bins = [...hist.entries()].filter(([, count]) => count > 0).sort((a, b) => a[0] - b[0]);
  const n = bins.reduce((sum, [, count]) => sum + count, 0);
  if (n === 0) return 0;
  const rank = Math.ceil(p * n);
  let seen = 0;
  for (const [bin, count] of bins) {
    seen += count;
    if (seen >= rank) return bin;
  }
  return bins[bins.length - 1][0];
}

/** G711 and G722 always present; other codecs under their own name; percent of calls reporting a codec. */
export function codecDistribution(codecs: Map<string, number>): Record<string, number> {
  const total = [...codecs.values()].reduce((sum, count) => sum + Math.max(0, count), 0);
  const out: Record<string, number> = { G711: 0, G722: 0 };
  for (const [codec, count] of codecs) if (count > 0) out[codec] = percent(count, total);
  return out;
}
