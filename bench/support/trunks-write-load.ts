import autocannon from 'autocannon';
import type { LoadTarget } from './http-load';
import { LatencyHistogram } from './latency-histogram';

/** A write whose path and body are built afresh for every request (so each records an event). */
export interface WriteRequest {
  method: 'POST' | 'PATCH';
  expectedStatus: number;
  next(): { path: string; body: string };
}

export interface WriteRun {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Responses by status code; anything but expectedStatus is a finding. */
  statuses: Record<string, number>;
  unexpected: number;
  errors: number;
  cpuMicrosPerRequest: number;
}

export interface WriteBatch {
  seconds: number;
  statuses: Record<string, number>;
  errors: number;
}

/** The autocannon options the harness's typings leave out: per-request setup and a request count. */
type WriteOptions = {
  url: string;
  connections: number;
  pipelining: number;
  headers: Record<string, string>;
  tlsOptions: { ca: string };
  duration?: number;
  amount?: number;
  requests: { setupRequest: (request: Record<string, unknown>) => Record<string, unknown> }[];
};
const fire = autocannon as unknown as (options: WriteOptions) => ReturnType<typeof autocannon>;

/**
 * As the harness's measure(), for writes: a discarded warm-up, then a measured run, HTTPS,
 * keep-alive, pipelining 1, one request in flight per connection (so connections = clients).
 */
export async function measureWrites(
  target: LoadTarget,
  request: WriteRequest,
  settings: { connections: number; seconds: number; warmupSeconds: number },
): Promise<WriteRun> {
  if (settings.warmupSeconds > 0)
    await fire(optionsFor(target, request, settings.connections, { duration: settings.warmupSeconds }));
  const latencies = new LatencyHistogram();
  const statuses: Record<string, number> = {};
  const cpuBefore = await target.cpuMicros();
  const result = await fire(optionsFor(target, request, settings.connections, { duration: settings.seconds })).on(
    'response',
    (_client, status, _bytes, ms) => {
      latencies.record(ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
    },
  );
  const cpuMicros = (await target.cpuMicros()) - cpuBefore;
  const requests = result.requests.total;
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: latencies.percentile(50),
    p99Ms: latencies.percentile(99),
    requests,
    statuses,
    unexpected: Object.entries(statuses).reduce(
      (sum, [status, count]) => sum + (Number(status) === request.expectedStatus ? 0 : count),
      0,
    ),
    errors: result.errors + result.timeouts,
    cpuMicrosPerRequest: requests > 0 ? cpuMicros / requests : 0,
  };
}

/** Exactly `amount` requests as fast as `connections` clients go: for setting data up. */
export async function sendWrites(
  target: LoadTarget,
  request: WriteRequest,
  connections: number,
  amount: number,
): Promise<WriteBatch> {
  const statuses: Record<string, number> = {};
  const started = process.hrtime.bigint();
  const result = await fire(optionsFor(target, request, Math.min(connections, amount), { amount })).on(
    'response',
    (_client, status) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
    },
  );
  return {
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    statuses,
    errors: result.errors + result.timeouts,
  };
}

function optionsFor(
  target: LoadTarget,
  request: WriteRequest,
  connections: number,
  length: { duration?: number; amount?: number },
): WriteOptions {
  return {
    url: target.url,
    connections,
    pipelining: 1,
    headers: { ...target.headers, 'content-type': 'application/json' },
    tlsOptions: { ca: target.ca },
    ...length,
    requests: [{ setupRequest: (base) => ({ ...base, method: request.method, ...request.next() }) }],
  };
}
