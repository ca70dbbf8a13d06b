import { join } from 'node:path';
import { Agent, request } from 'undici';
import { CALLS_PER_EVENT } from '../../src/webhooks/domain/calls-completed.event';
import { progress, runBench } from '../lib/bench-main';
import { ndjsonBodies, recordsOf, type RecordSpec } from '../lib/call-records';
import { Cleanups, tempDir } from '../lib/cleanups';
import { type NdjsonBody, sendAll } from '../lib/ndjson-load';
import { parseBenchArgs } from '../lib/options';
import { startApp } from '../lib/start-app';
import type { WebhooksOps } from './webhooks-messages';
import { BenchReceiver } from './webhooks-receiver';
import { type Drain, formatWebhooksReport, rate, type WebhooksOptions, type WebhooksReport } from './webhooks-report';

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
const COMMAND = {
  script: 'webhooks/webhooks.bench.js',
  options: {
    records: { type: 'integer', default: 20_000, help: 'records per phase' },
    batch: { type: 'integer', default: 1000, help: 'records per request' },
    senders: { type: 'integer', default: 4, help: 'concurrent HTTPS senders' },
    concurrency: { type: 'integer', default: 32, help: 'WEBHOOK_CONCURRENCY of the app' },
  },
} as const;

const parse = (argv: string[]): WebhooksOptions => parseBenchArgs(argv, COMMAND);

async function run(options: WebhooksOptions, cleanups: Cleanups): Promise<WebhooksReport> {
  const receiver = new BenchReceiver();
  await receiver.start(tempDir(cleanups, 'trunkline-bench-webhooks-'));
  cleanups.add('stop the receiver', () => receiver.stop());
  const app = await startApp<object, WebhooksOps>(cleanups, {
    script: join(__dirname, 'webhooks-app-server.js'),
    env: {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_CA_FILE: receiver.caFile,
      WEBHOOK_POLL_INTERVAL_MS: '20',
      WEBHOOK_CONCURRENCY: String(options.concurrency),
    },
    provision: { account: 'Webhooks Bench', keys: ['full', 'ingest'], trunks: 10, providers: ['custom'] },
  });
  const account = app.ready.account ?? { id: '', keys: {}, trunks: [] };
  const origin = `https://127.0.0.1:${app.ready.port}`;
  const target = { origin, ca: app.ready.cert, key: account.keys.ingest ?? '' };
  const toMs = Date.now();
  const spec: RecordSpec = {
    seed: 42,
    fromMs: toMs - 7 * 86_400_000,
    toMs,
    trunks: account.trunks,
    accountId: account.id,
  };
  const bodies = (phase: number, count = options.records) =>
    ndjsonBodies(recordsOf(spec, phase * options.records, count), options.batch);
  const deliveriesOf = (list: NdjsonBody[]) => list.reduce((sum, b) => sum + Math.ceil(b.count / CALLS_PER_EVENT), 0);
  const agent = new Agent({ connect: { ca: app.ready.cert } });
  cleanups.add('close the API client', () => agent.close());
  const api = (method: 'POST' | 'PATCH', path: string, body: object) =>
    request(`${origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${account.keys.full}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      dispatcher: agent,
    }).then(async (r) => ({ status: r.statusCode, body: (await r.body.json()) as { id: string } }));
  const ingest = (label: string, list: NdjsonBody[]) => {
    progress(`${label}: ${list.reduce((n, b) => n + b.count, 0)} records`);
    return sendAll(target, list, options.senders);
  };

  await ingest('warm-up', bodies(10, 5000));
  const before = await ingest('1. without a call.completed endpoint', bodies(0));
  const endpoint = await api('POST', '/v1/webhook-endpoints', {
    url: `${receiver.origin}/bench`,
    event_types: ['call.completed'],
  });
  if (endpoint.status !== 201) throw new Error(`endpoint: HTTP ${endpoint.status}`);

  await app.request('webhooks-pause');
  const pausedBodies = bodies(1);
  const withPaused = await ingest('2. with call.completed subscribed, worker paused', pausedBodies);
  receiver.reset();
  progress(`3. draining ${deliveriesOf(pausedBodies)} deliveries`);
  await app.request('webhooks-resume');
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

runBench({ parse, run, format: formatWebhooksReport });
