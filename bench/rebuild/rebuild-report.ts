import { formatProfiledRun, type ProfiledRun } from '../lib/cpu-profile';
import { machineLine, type Machine } from '../lib/machine';
import { meets, ratioLine, table } from '../lib/report';
import type { Check } from './rebuild-checks';
import type { Timed } from './rebuild-measure';
import type { SeedFigures } from './rebuild-seed';

export interface RebuildReport {
  machine: Machine;
  loadAverageAtEnd: number;
  page: number;
  seed: SeedFigures;
  /** The plain paged read, before and after the rebuild: the faster one is the baseline. */
  reads: Timed[];
  rebuild: Timed;
  /** Where the read-model runner replayed: a worker thread, or the main one with the others. */
  readModels: 'worker' | 'main';
  checks: Check[];
  /** The profile's file, for DevTools. */
  profile: string | null;
  /** With --cpu-prof: the rebuild's profile (this thread: the read, the other runners, and the read models unless in a worker). */
  cpuProfile?: ProfiledRun;
}

export const TARGET_EVENTS_PER_SECOND = 20_000;
export const TARGET_RATIO = 0.5;

export const baselineOf = (report: RebuildReport): Timed =>
  report.reads.reduce((best, read) => (read.eventsPerSecond > best.eventsPerSecond ? read : best));

export function formatReport(report: RebuildReport): string {
  const baseline = baselineOf(report);
  const ratio = report.rebuild.eventsPerSecond / baseline.eventsPerSecond;
  const types = Object.entries(report.seed.byType)
    .sort(([, a], [, b]) => b - a)
    .map(([type, n]) => `${type} ${n}`)
    .join(', ');
  const row = (name: string, t: Timed) => [
    name,
    String(t.events),
    t.seconds.toFixed(1),
    String(t.eventsPerSecond),
    t.cpuSeconds.toFixed(1),
  ];
  const allGood = report.checks.every((c) => c.expected === c.found);
  return [
    machineLine(report.machine, report.loadAverageAtEnd),
    `seeded ${report.seed.events} events in ${report.seed.seconds.toFixed(1)} s (${report.seed.eventsPerSecond}/s): ${types}`,
    '',
    ...table([
      ['run', 'events', 'seconds', 'events/s', 'CPU s (all threads)'],
      ...report.reads.map((read, i) => row(`paged read ${i + 1} (readAll, pages of ${report.page})`, read)),
      row(`rebuild of all projections (read models in the ${report.readModels} thread)`, report.rebuild),
    ]),
    '',
    `rebuild: ${report.rebuild.eventsPerSecond} events/s (target >= ${TARGET_EVENTS_PER_SECOND}: ${meets(report.rebuild.eventsPerSecond >= TARGET_EVENTS_PER_SECOND)})`,
    ratioLine('rebuild/paged read', ratio, TARGET_RATIO),
    `checks: ${report.checks.map((c) => `${c.what} ${c.found}/${c.expected}`).join(', ')}${allGood ? '' : ' MISMATCH'}`,
    ...(report.cpuProfile
      ? ['', ...formatProfiledRun(report.cpuProfile, "where the rebuild's CPU time went, in the main thread")]
      : []),
    '',
  ].join('\n');
}
