import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { ndjsonBatches } from '../src/tools/call-generator';
import { CALLS_PER_EVENT } from '../src/webhooks/domain/calls-completed.event';
import { progress, runBench } from './support/bench-main';
import { Cleanups } from './support/cleanups';
import { recordsOf } from './support/ingest-records';
import { NdjsonBody, sendAll, SendFigures } from './support/ingest-senders';
import { RecordSpec } from './support/ingest-messages';
import { WebhooksChild } from './support/webhooks-child';
import type { WebhooksAppReady } from './support/webhooks-app-server';
import { BenchReceiver } from './support/webhooks-receiver';

/*
 * Webhook delivery and its cost to ingestion, in one run on one machine. The real app (child
 * process, embedded chDB + PGlite, memory read models) ingests N records per phase:
 *   1. without a call.completed endpoint;
 *   2. with one, the delivery worker paused: ingestion's own cost (one CallsCompleted append per
 *      batch) and a backlog of N/100 deliveries;
 *   3. the worker resumed: deliveries/s to a local HTTPS receiver while it drains the backlog;
 *   4. with the endpoint, the worker delivering while ingestion goes on;
 *   5. without again (endpoint disabled), so that drift of the machine shows.
 */
interface Options {
  records: number;
  batch: number;
  senders: number;
  concurrency: number;
  json: boolean;
}
interface Drain {
  count: number;
  calls: number;
  seconds: number;
  perSecond: number;
}
interface Report {
  settings: Options & { callsPerEvent: number };
  without: SendFigures[];
  withPaused: SendFigures;
  withDelivering: SendFigures;
  ratioPaused: number;
  ratioDelivering: number;
  drain: Drain;
  alongside: Drain & { lastAfterIngestSeconds: number };
}

function parse(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      records: { type: 'string' },
      batch: { type: 'string' },
      senders: { type: 'string' },
      concurrency: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(
      'usage: node dist/bench/webhooks.bench.js [--records N (20000 per phase)] [--batch N (1000)] [--senders N (4)] [--concurrency N (32): WEBHOOK_CONCURRENCY] [--json]\n',
    );
    process.exit(0);
  }
  const int = (v: string | undefined, d: number) => (v === undefined ? d : Math.max(1, Number.parseInt(v, 10) || d));
  return {
    records: int(values.records, 20_000),
    batch: int(values.batch, 1000),
    senders: int(values.senders, 4),
    concurrency: int(values.concurrency, 32),
    json: !!values.json,
  };
}

async function run(options: Options, cleanups: Cleanups): Promise<Report> {
  const dir = mkdtempSync(join(tmpdir(), 'trunkline-bench-webhooks-'));
  cleanups.add(`remove ${dir}`, async () => rmSync(dir, { recursive: true, force: true }));
  const receiver = new BenchReceiver();
  await receiver.start(join(dir, 'receiver'));
  cleanups.add('stop the receiver', () => receiver.stop());
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: join(dir, 'app'),
    MASTER_KEY: randomBytes(32).toString('base64'),
    PROVIDER_VALIDATION: 'format',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_CA_FILE: receiver.caFile,
    WEBHOOK_POLL_INTERVAL_MS: '20',
    WEBHOOK_CONCURRENCY: String(options.concurrency),
  };
  const app = await WebhooksChild.start<WebhooksAppReady>(
    join(__dirname, 'support', 'webhooks-app-server.js'),
    env,
    cleanups,
  );
  const origin = `https://127.0.0.1:${app.ready.port}`;
  const target = { origin, ca: app.ready.cert, key: app.ready.ingestKey };
  const toMs = Date.now();
  const spec: RecordSpec = {
    seed: 42,
    fromMs: toMs - 7 * 86_400_000,
    toMs,
    trunks: app.ready.trunks,
    accountId: app.ready.accountId,
  };
  const bodies = (phase: number, count = options.records) =>
    [...ndjsonBatches(recordsOf(spec, phase * options.records, count), options.batch)].map((b): NdjsonBody => ({
      body: Buffer.from(b.body),
      count: b.count,
    }));
  const deliveriesOf = (list: NdjsonBody[]) => list.reduce((sum, b) => sum + Math.ceil(b.count / CALLS_PER_EVENT), 0);
  const agent = new Agent({ connect: { ca: app.ready.cert } });
  cleanups.add('close the API client', () => agent.close());
  const api = (method: 'POST' | 'PATCH', path: string, body: object) =>
    request(`${origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${app.ready.fullKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      dispatcher: agent,
    }).then(async (r) => ({ status: r.statusCode, body: (await r.body.json()) as { id: string } }));
  const ingest = (label: string, list: NdjsonBody[]) => (
    progress(`${label}: ${list.reduce((n, b) => n + b.count, 0)} records`),
    sendAll(target, list, options.senders)
  );

  await ingest('warm-up', bodies(10, 5000));
  const before = await ingest('1. without a call.completed endpoint', bodies(0));
  const endpoint = await api('POST', '/v1/webhook-endpoints', {
    url: `${receiver.origin}/bench`,
    event_types: ['call.completed'],
  });
  if (endpoint.status !== 201) throw new Error(`endpoint: HTTP ${endpoint.status}`);

  await app.control('webhooks-pause');
  const pausedBodies = bodies(1);
  const withPaused = await ingest('2. with call.completed subscribed, worker paused', pausedBodies);
  receiver.reset();
  progress(`3. draining ${deliveriesOf(pausedBodies)} deliveries`);
  await app.control('webhooks-resume');
  await until(() => receiver.deliveries >= deliveriesOf(pausedBodies));
  const drain = drainOf(receiver);

  receiver.reset();
  const deliveringBodies = bodies(2);
  const withDelivering = await ingest('4. with call.completed subscribed, worker delivering', deliveringBodies);
  const ingestEnded = performance.now();
  await until(() => receiver.deliveries >= deliveriesOf(deliveringBodies));
  const alongside = { ...drainOf(receiver), lastAfterIngestSeconds: Math.max(0, receiver.lastAt - ingestEnded) / 1000 };

  await api('PATCH', `/v1/webhook-endpoints/${endpoint.body.id}`, { enabled: false });
  const after = await ingest('5. without (endpoint disabled)', bodies(3));
  await app.stop();
  const baseline = (rate(before) + rate(after)) / 2;
  return {
    settings: { ...options, callsPerEvent: CALLS_PER_EVENT },
    without: [before, after],
    withPaused,
    withDelivering,
    ratioPaused: rate(withPaused) / baseline,
    ratioDelivering: rate(withDelivering) / baseline,
    drain,
    alongside,
  };
}

async function until(done: () => boolean): Promise<void> {
  for (const started = Date.now(); !done();) {
    if (Date.now() - started > 600_000) throw new Error('deliveries did not all arrive within 10 minutes');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function drainOf(r: BenchReceiver): Drain {
  const seconds = Math.max(0.001, (r.lastAt - r.firstAt) / 1000);
  return { count: r.deliveries, calls: r.calls, seconds, perSecond: r.deliveries / seconds };
}

const rate = (f: SendFigures) => f.records / f.seconds;

function format(r: Report): string {
  const drain = (d: Drain) =>
    `${d.count} deliveries (${d.calls} calls) in ${d.seconds.toFixed(2)} s = ${d.perSecond.toFixed(0)} deliveries/s (${(d.calls / d.seconds).toFixed(0)} calls/s)`;
  const row = (label: string, f: SendFigures) =>
    `| ${label} | ${rate(f).toFixed(0)} | ${f.p50Ms.toFixed(1)} | ${f.p99Ms.toFixed(1)} |`;
  return [
    `Webhooks bench: ${r.settings.records} records per phase, ${r.settings.batch} per request, ${r.settings.senders} senders, WEBHOOK_CONCURRENCY=${r.settings.concurrency}, ${r.settings.callsPerEvent} calls per call.completed event`,
    '',
    '| ingestion | records/s | p50 ms/request | p99 ms/request |',
    '|---|---:|---:|---:|',
    row('1. without a call.completed endpoint', r.without[0]),
    row('2. with call.completed subscribed, worker paused', r.withPaused),
    row('4. with call.completed subscribed, worker delivering', r.withDelivering),
    row('5. without (endpoint disabled)', r.without[1]),
    '',
    `ingestion with/without (without = mean of 1 and 5): ${r.ratioPaused.toFixed(2)} worker paused, ${r.ratioDelivering.toFixed(2)} worker delivering`,
    `3. backlog drained to the local HTTPS receiver: ${drain(r.drain)}`,
    `4. delivered during ingestion: ${drain(r.alongside)}; the last ${r.alongside.lastAfterIngestSeconds.toFixed(2)} s after the last ingest 200`,
    '',
  ].join('\n');
}

runBench({ parse, run, format });
