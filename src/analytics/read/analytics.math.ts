import { type OverviewRow, type SumColumn, sumOf } from './analytics.sql';

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
  answered: number;
  billableSum: number;
  mosCalls: number;
  mosCentiSum: number;
  /** p50, p95, p99 of per-call total latency (nearest rank over the histogram, ranked by the engine). */
  pct: [number, number, number];
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
  answered: 0,
  billableSum: 0,
  mosCalls: 0,
  mosCentiSum: 0,
  pct: [0, 0, 0],
  codecs: new Map(),
});

/** Which sum of an overview row adds to which field of the totals. */
const FIELDS: [Exclude<keyof Totals, 'pct' | 'codecs'>, SumColumn][] = [
  ['calls', 'calls'],
  ['connected', 'connected'],
  ['failed', 'failed'],
  ['durationSum', 'duration_sum'],
  ['latencyCalls', 'latency_calls'],
  ['carrierSum', 'carrier_sum'],
  ['aiSum', 'ai_sum'],
  ['gatewaySum', 'gateway_sum'],
  ['totalLatencySum', 'total_latency_sum'],
  ['lossCalls', 'loss_calls'],
  ['lossSum', 'loss_sum'],
  ['jitterCalls', 'jitter_calls'],
  ['jitterSum', 'jitter_sum'],
  ['answered', 'answered'],
  ['billableSum', 'billable_sum'],
  ['mosCalls', 'mos_calls'],
  ['mosCentiSum', 'mos_centi_sum'],
];

export function addRow(into: Totals, row: OverviewRow): void {
  for (const [field, column] of FIELDS) into[field] += sumOf(row, column);
  mergeMap(into.codecs, row.codecs[0], row.codecs[1]);
}

function mergeMap<K>(into: Map<K, number>, keys: K[], counts: (number | string)[]): void {
  keys.forEach((key, i) => into.set(key, (into.get(key) ?? 0) + Number(counts[i])));
}

export const round2 = (value: number): number => Math.round(value * 100) / 100;
export const ratio = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);
export const percent = (part: number, whole: number): number => round2(100 * ratio(part, whole));
export const avgInt = (sum: number, count: number): number => (count === 0 ? 0 : Math.round(sum / count));

/** G711 and G722 always present; other codecs under their own name; percent of calls reporting a codec. */
export function codecDistribution(codecs: Map<string, number>): Record<string, number> {
  const total = [...codecs.values()].reduce((sum, count) => sum + Math.max(0, count), 0);
  const out: Record<string, number> = { G711: 0, G722: 0 };
  for (const [codec, count] of codecs) if (count > 0) out[codec] = percent(count, total);
  return out;
}
