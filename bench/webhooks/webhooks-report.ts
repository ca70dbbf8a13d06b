import type { SendFigures } from '../lib/ndjson-load';

export interface WebhooksOptions {
  records: number;
  batch: number;
  senders: number;
  concurrency: number;
  json: boolean;
}

export interface Drain {
  count: number;
  calls: number;
  seconds: number;
  perSecond: number;
}

export interface WebhooksReport {
  settings: WebhooksOptions & { callsPerEvent: number };
  /** Phases 1 and 5: the same-run baseline, before and after. */
  without: SendFigures[];
  withPaused: SendFigures;
  withDelivering: SendFigures;
  ratioPaused: number;
  ratioDelivering: number;
  drain: Drain;
  alongside: Drain & { lastAfterIngestSeconds: number };
}

export const rate = (f: SendFigures): number => f.records / f.seconds;

export function formatWebhooksReport(r: WebhooksReport): string {
  const drain = (d: Drain) =>
    `${d.count} deliveries (${d.calls} calls) in ${d.seconds.toFixed(2)} s = ${d.perSecond.toFixed(0)} deliveries/s (${(d.calls / d.seconds).toFixed(0)} calls/s)`;
  const row = (label: string, f: SendFigures) =>
    `| ${label} | ${rate(f).toFixed(0)} | ${f.p50Ms.toFixed(1)} | ${f.p99Ms.toFixed(1)} |`;
  const s = r.settings;
  return [
    `Webhooks bench: ${s.records} records per phase, ${s.batch} per request, ${s.senders} senders, WEBHOOK_CONCURRENCY=${s.concurrency}, ${s.callsPerEvent} calls per call.completed event`,
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
