import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import { progress, runBench } from './support/bench-main';
import { describeMachine } from './support/machine';
import { startSoakApp } from './support/soak-app';
import { runSoakLoad } from './support/soak-load';
import { formatSoakReport, judgeRss, type SoakReport } from './support/soak-report';
import { SoakTraffic } from './support/soak-traffic';

interface SoakOptions {
  minutes: number;
  rate: number;
  json: boolean;
  databaseUrl: string;
  redisUrl: string;
}

const USAGE = `usage: npm run bench:soak -- [--minutes N] [--rate R] [--json]
  --minutes N   how long to run (10); RSS is judged from minute 3 to the last
  --rate R      requests per second, sent on schedule (50)
  --json        machine-readable output
env: BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_REDIS_URL (redis://127.0.0.1:6379)`;

function parse(argv: string[]): SoakOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      minutes: { type: 'string' },
      rate: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const positive = (name: string, raw: string | undefined, fallback: number) => {
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
    return value;
  };
  return {
    minutes: positive('minutes', values.minutes, 10),
    rate: positive('rate', values.rate, 50),
    json: values.json ?? false,
    databaseUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
}

/**
 * Mixed traffic at a fixed rate against the real app (PostgreSQL event store, Redis, embedded
 * chDB), with per-minute RSS, event-loop delay, latency and errors: whether memory levels off.
 */
runBench<SoakOptions, SoakReport>({
  parse,
  async run(options, cleanups) {
    const machine = await describeMachine(options.databaseUrl, options.redisUrl);
    progress('starting the app');
    const app = await startSoakApp(options.databaseUrl, options.redisUrl, cleanups);
    const agent = new Agent({ connect: { ca: app.ready.cert }, connections: 64 });
    cleanups.add('close the HTTP agent', () => agent.close());
    const traffic = new SoakTraffic(agent, `https://127.0.0.1:${app.ready.port}`, {
      account: app.ready.accountKey,
      ingest: app.ready.ingestKey,
    });
    await traffic.setup();
    progress(`soaking at ${options.rate} requests/s for ${options.minutes} min`);
    const figures = await runSoakLoad(traffic, options.rate, options.minutes, () => app.stats());
    return { machine, rate: options.rate, minutes: options.minutes, figures, ...judgeRss(figures) };
  },
  format: (report) => formatSoakReport(report),
});
