import { progress, runBench } from '../lib/bench-main';
import { describeMachine, type Machine, machineLine } from '../lib/machine';
import { parseBenchArgs, storeUrls } from '../lib/options';
import { ratioLine } from '../lib/report';
import {
  type AppendBenchResult,
  type BaselineResult,
  benchBaselineInserts,
  benchEventStoreAppends,
} from './event-store-appends';

/*
 * The PostgreSQL event store's append rate under concurrent writers, against the same writers
 * committing plain single-row INSERTs in the same run (api.bench.ts runs the appends too).
 */
interface Report {
  machine: Machine;
  writers: number;
  seconds: number;
  baselinePlainInsert: BaselineResult;
  eventStoreAppends: AppendBenchResult;
  ratio: number;
}

const COMMAND = {
  script: 'event-store/event-store.bench.js',
  options: {
    writers: { type: 'integer', default: 16, help: 'concurrent writers' },
    seconds: { type: 'integer', default: 10, help: 'measured seconds of each side' },
  },
  notes: ['env: BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres)'],
} as const;

const parse = (argv: string[]) => ({ ...parseBenchArgs(argv, COMMAND), ...storeUrls() });

async function run(options: ReturnType<typeof parse>): Promise<Report> {
  const machine = await describeMachine(options.databaseUrl, options.redisUrl);
  const settings = { url: options.databaseUrl, writers: options.writers, seconds: options.seconds };
  progress(`plain INSERT commits: ${options.writers} writers, ${options.seconds} s`);
  const baseline = await benchBaselineInserts(settings);
  progress(`event-store appends: ${options.writers} writers, ${options.seconds} s`);
  const store = await benchEventStoreAppends(settings);
  return {
    machine,
    writers: options.writers,
    seconds: options.seconds,
    baselinePlainInsert: baseline,
    eventStoreAppends: store,
    ratio: store.appendsPerSecond / baseline.commitsPerSecond,
  };
}

function format(r: Report): string {
  const { baselinePlainInsert: b, eventStoreAppends: s } = r;
  return [
    machineLine(r.machine),
    `${r.writers} concurrent writers, ${r.seconds} s each, same run`,
    `plain single-row INSERT commits: ${b.commitsPerSecond} commits/s, p50 ${b.p50Ms.toFixed(2)} ms, p99 ${b.p99Ms.toFixed(2)} ms`,
    `event-store appends: ${s.appendsPerSecond} appends/s, p50 ${s.p50Ms.toFixed(2)} ms, p99 ${s.p99Ms.toFixed(2)} ms` +
      ` (${s.appends} appends, ${s.conflicts} conflicts retried)`,
    ratioLine('appends/plain inserts', r.ratio, null),
    '',
  ].join('\n');
}

runBench({ parse, run, format });
