import { type Machine, machineLine } from '../lib/machine';
import { median } from '../lib/percentiles';
import { ratioLine, table } from '../lib/report';
import type { AppendComparison } from './audit-appends';
import type { SeedFigures } from './audit-seed';
import type { ExportFigures, VerifyFigures } from './audit-stream';

export interface AuditReport {
  machine: Machine;
  appends: AppendComparison;
  seed: SeedFigures;
  exported: ExportFigures;
  serverVerify: VerifyFigures;
  offlineVerify: VerifyFigures;
}

const RSS_GROWTH_TARGET_MIB = 50;
const RATIO_TARGET = 0.9;

export function formatReport(r: AuditReport): string {
  const a = r.appends;
  const rate = (sides: AppendComparison['chained']) => median(sides.map((s) => s.appendsPerSecond)).toFixed(0);
  const p = (sides: AppendComparison['chained'], key: 'p50Ms' | 'p99Ms') => median(sides.map((s) => s[key])).toFixed(2);
  const e = r.exported;
  return [
    machineLine(r.machine),
    `appends: ${a.writers} writers, one event per append, ${a.rounds} alternating rounds of ${a.seconds} s (medians)`,
    ...table([
      ['side', 'appends/s', 'p50 ms', 'p99 ms', 'runs, appends/s'],
      [
        'before the chain (same SQL, no links)',
        rate(a.unchained),
        p(a.unchained, 'p50Ms'),
        p(a.unchained, 'p99Ms'),
        a.unchained.map((s) => s.appendsPerSecond).join(', '),
      ],
      [
        'with the hash chain',
        rate(a.chained),
        p(a.chained, 'p50Ms'),
        p(a.chained, 'p99Ms'),
        a.chained.map((s) => s.appendsPerSecond).join(', '),
      ],
    ]),
    ratioLine('chained/unchained appends', a.ratio, RATIO_TARGET),
    `seeded: ${r.seed.events} events over ${r.seed.streams} streams in ${r.seed.seconds.toFixed(1)} s (${r.seed.eventsPerSecond} events/s, batches through the chained store)`,
    `export (NDJSON over HTTPS): ${e.events} events, ${(e.bytes / 2 ** 20).toFixed(1)} MiB in ${e.seconds} s: ${e.eventsPerSecond} events/s`,
    `app RSS during the export: ${e.rssStartMiB} MiB at start, ${e.rssPeakMiB} MiB peak: growth ${e.rssGrowthMiB} MiB` +
      (e.rssGrowthMiB === null
        ? ''
        : ` (target <= ${RSS_GROWTH_TARGET_MIB}: ${e.rssGrowthMiB <= RSS_GROWTH_TARGET_MIB ? 'meets target' : 'ABOVE target'})`),
    `verify (GET /v1/audit-events/verify): ${r.serverVerify.events} events in ${r.serverVerify.seconds} s: ${r.serverVerify.eventsPerSecond} events/s`,
    `verify (offline, audit:verify of the file): ${r.offlineVerify.events} events in ${r.offlineVerify.seconds} s: ${r.offlineVerify.eventsPerSecond} events/s, ${r.offlineVerify.verdict}`,
    '',
  ].join('\n');
}
