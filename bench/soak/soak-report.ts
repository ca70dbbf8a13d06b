import { type Machine, machineLine } from '../lib/machine';
import type { MinuteFigures } from './soak-load';

export interface SoakReport {
  machine: Machine;
  rate: number;
  minutes: number;
  figures: MinuteFigures[];
  /** RSS of the last minute against minute 3 (null when the run is shorter than 3 minutes). */
  rssChangePercent: number | null;
  rssLevelled: boolean | null;
}

/** RSS at the end against minute 3, when start-up allocation and JIT warm-up are over. */
export function judgeRss(figures: MinuteFigures[]): Pick<SoakReport, 'rssChangePercent' | 'rssLevelled'> {
  if (figures.length < 3) return { rssChangePercent: null, rssLevelled: null };
  const third = figures[2].server.rssBytes;
  const last = figures[figures.length - 1].server.rssBytes;
  const change = Math.round(((last - third) / third) * 1000) / 10;
  return { rssChangePercent: change, rssLevelled: Math.abs(change) <= 10 };
}

const mib = (bytes: number) => (bytes / 1048576).toFixed(1);

export function formatSoakReport(report: SoakReport): string {
  const lines = [
    `Soak: ${report.rate} requests/s for ${report.minutes} min (15% ingestion of 20-record batches, 45% reads, 25% writes, 15% analytics)`,
    machineLine(report.machine),
    '',
    '| minute | requests | errors | skipped | p50 ms | p99 ms | RSS MiB (median) | RSS MiB (max) | heap MiB (median) | loop p50 ms | loop p99 ms | loop max ms |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.figures.map(
      (f) =>
        `| ${f.minute} | ${f.requests} | ${f.errors} | ${f.skipped} | ${f.p50Ms.toFixed(2)} | ${f.p99Ms.toFixed(2)} | ${mib(f.server.rssBytes)} | ${mib(f.server.rssMaxBytes)} | ${mib(f.server.heapUsedBytes)} | ${f.server.loopDelayP50Ms} | ${f.server.loopDelayP99Ms} | ${f.server.loopDelayMaxMs} |`,
    ),
    '',
    `Errors by status: ${JSON.stringify(
      report.figures.reduce<Record<string, number>>((all, f) => {
        for (const [status, n] of Object.entries(f.failures)) all[status] = (all[status] ?? 0) + n;
        return all;
      }, {}),
    )}`,
    report.rssChangePercent === null
      ? 'RSS level: not judged (run at least 3 minutes)'
      : `RSS (median of the minute) at minute ${report.minutes} vs minute 3: ${report.rssChangePercent > 0 ? '+' : ''}${report.rssChangePercent}% → ${report.rssLevelled ? 'levels off (within 10%)' : 'DOES NOT level off (beyond 10%)'}`,
  ];
  return `${lines.join('\n')}\n`;
}
