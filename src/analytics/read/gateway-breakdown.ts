import { bySipCode, RejectionCounts, rejectionCounts, SipCodeCount } from '../../rejections/read/rejection-counts';
import { FAILURE_CLASSES } from '../../shared/failure-taxonomy';
import { type OverviewRow, type SumColumn, sumOf } from './analytics.sql';

export interface GatewayBreakdown {
  failures: { by_class: Record<string, number>; by_sip_code: SipCodeCount[] };
  signalling: {
    calls_with_setup_time: number;
    avg_post_dial_delay_ms: number;
    avg_ring_time_ms: number;
    avg_setup_time_ms: number;
  };
  rejections: RejectionCounts;
}

/**
 * Failed calls by class and by final SIP code, the signalling spans and the rejections, from the
 * overview statement's `class` and `code` rows (whole hours and raw edges, to be added up) and
 * `reason` rows (one per reason and SIP code).
 */
export function gatewayBreakdown(rows: OverviewRow[]): GatewayBreakdown {
  const classes = rows.filter((row) => row.kind === 'class');
  const total = (column: SumColumn) => classes.reduce((sum, row) => sum + sumOf(row, column), 0);
  const avg = (name: 'pdd' | 'ring' | 'setup') => {
    const calls = total(`${name}_calls`);
    return calls === 0 ? 0 : Math.round(total(`${name}_sum_ms`) / calls);
  };
  const by_class: Record<string, number> = Object.fromEntries([...FAILURE_CLASSES, 'unclassified'].map((c) => [c, 0]));
  for (const row of classes) by_class[row.key || 'unclassified'] += sumOf(row, 'failed');
  // Code 0 is a failed record without a sip_code (migration 7).
  const codes = new Map<number | null, number>();
  for (const row of rows.filter((r) => r.kind === 'code')) {
    const code = Number(row.key) || null;
    codes.set(code, (codes.get(code) ?? 0) + sumOf(row, 'failed'));
  }
  const reasons = rows
    .filter((row) => row.kind === 'reason')
    .map((row) => ({ reason: row.key, sip_code: row.pos, n: sumOf(row, 'calls') }));
  return {
    failures: { by_class, by_sip_code: bySipCode(codes) },
    signalling: {
      calls_with_setup_time: total('setup_calls'),
      avg_post_dial_delay_ms: avg('pdd'),
      avg_ring_time_ms: avg('ring'),
      avg_setup_time_ms: avg('setup'),
    },
    rejections: rejectionCounts(reasons),
  };
}
