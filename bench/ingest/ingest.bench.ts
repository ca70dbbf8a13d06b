import { progress, runBench } from '../lib/bench-main';
import { Cleanups } from '../lib/cleanups';
import { formatProfiledRun, summarizeProfileFiles } from '../lib/cpu-profile';
import { median } from '../lib/percentiles';
import type { TreeRssFigures } from '../lib/process-tree';
import { type IdleRss, memoryLines } from '../lib/rss';
import { DAYS, LOG_LEVEL, measureApp, measureDirect } from './ingest-measure';
import { type IngestBenchOptions, parseIngestOptions } from './ingest-options';
import {
  describeIngestMachine,
  formatIngestReport,
  type IngestReport,
  RATIO_TARGET,
  RECORDS_PER_SECOND_TARGET,
} from './ingest-report';

/*
 * Call-record ingestion against its own floor, in one run on one machine: the real app (child
 * process, embedded chDB) takes N generated records as NDJSON over HTTPS from concurrent senders;
 * then a second child inserts the same records, as the same rows, straight into a fresh chDB
 * through the same executor. Temp data dirs and children are removed at the end, whatever happens.
 */

/** The chDB process the app forks is not profiled: its CPU is in the report's per-process line. */
const PROFILE_TITLE = "where the app's Node process spent its CPU time during the measured sends";

/**
 * Rounds of (app, then direct insert), each app with a fresh data dir: the machine's load drifts
 * between the two phases, so the headline takes the median of each side over the rounds.
 */
async function run(options: IngestBenchOptions, cleanups: Cleanups): Promise<IngestReport & { idle: IdleRss | null }> {
  const machine = describeIngestMachine();
  const rounds: { app: Awaited<ReturnType<typeof measureApp>>; direct: Awaited<ReturnType<typeof measureDirect>> }[] =
    [];
  for (let round = 1; round <= options.rounds; round++) {
    const app = await measureApp(options, cleanups);
    progress(
      `round ${round}/${options.rounds}: app ${app.figures.recordsPerSecond.toFixed(0)} records/s; direct insert, ${app.rowsPerInsert} rows per INSERT`,
    );
    const direct = await measureDirect(options, cleanups, app.records, app.rowsPerInsert);
    progress(`round ${round}/${options.rounds}: direct ${direct.figures.recordsPerSecond.toFixed(0)} records/s`);
    rounds.push({ app, direct });
  }
  const byAppRate = [...rounds].sort((a, b) => a.app.figures.recordsPerSecond - b.app.figures.recordsPerSecond);
  const middle = byAppRate[Math.floor((byAppRate.length - 1) / 2)];
  const appRate = median(rounds.map((r) => r.app.figures.recordsPerSecond));
  const directRate = median(rounds.map((r) => r.direct.figures.recordsPerSecond));
  const { records, batchSize, senders, trunks, seed, warmupRecords } = options;
  const profiles = rounds.flatMap((r) => (r.app.profile ? [r.app.profile] : []));
  return {
    machine: { ...machine, engine: middle.direct.engine },
    settings: {
      records,
      batchSize,
      senders,
      trunks,
      seed,
      days: DAYS,
      warmupRecords,
      rounds: options.rounds,
      meanRecordBytes: middle.app.meanRecordBytes,
      logLevel: LOG_LEVEL,
    },
    app: { ...middle.app.figures, recordsPerSecond: appRate, memory: highest(rounds.map((r) => r.app.figures.memory)) },
    direct: {
      ...middle.direct.figures,
      recordsPerSecond: directRate,
      memory: highest(rounds.map((r) => r.direct.figures.memory)),
    },
    runs: rounds.map((r) => ({ app: r.app.figures.recordsPerSecond, direct: r.direct.figures.recordsPerSecond })),
    idle: highestIdle(rounds.map((r) => r.app.idle)),
    ratio: appRate / directRate,
    ratioTarget: RATIO_TARGET,
    recordsPerSecondTarget: RECORDS_PER_SECOND_TARGET,
    ...(profiles.length > 0 && { cpuProfile: summarizeProfileFiles(profiles) }),
  };
}

/** Memory is reported at its worst over the rounds. */
function highest(figures: (TreeRssFigures | null)[]): TreeRssFigures | null {
  return figures.reduce<TreeRssFigures | null>(
    (worst, f) => (f && (!worst || f.peakBytes > worst.peakBytes) ? f : worst),
    null,
  );
}

function highestIdle(figures: (IdleRss | null)[]): IdleRss | null {
  return figures.reduce<IdleRss | null>(
    (worst, f) => (f && (!worst || f.totalBytes > worst.totalBytes) ? f : worst),
    null,
  );
}

runBench({
  parse: parseIngestOptions,
  run,
  format: (r) =>
    [
      formatIngestReport(r) + memoryLines(r.idle, r.app.memory, r.direct.memory).join('\n'),
      ...(r.cpuProfile ? ['', ...formatProfiledRun(r.cpuProfile, PROFILE_TITLE)] : []),
    ].join('\n') + '\n',
});
