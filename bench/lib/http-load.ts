import autocannon from 'autocannon';
import { LatencyHistogram } from './latency-histogram';

export interface LoadTarget {
  url: string;
  /** The server's certificate (PEM). */
  ca: string;
  headers: Record<string, string>;
  /** The server process's CPU time so far, in µs: sampled around the measured run. */
  cpuMicros: () => Promise<number>;
}

export interface LoadSettings {
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

export interface LoadRun {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Server CPU time per response: less sensitive than requests/s to other work on the machine. */
  cpuMicrosPerRequest: number;
}

/**
 * One warm-up (discarded) then one measured autocannon run: HTTPS, keep-alive, pipelining 1.
 * autocannon always connects with rejectUnauthorized: false (lib/httpClient.js overrides any
 * tlsOptions), so the certificate is not verified; this is a load client on loopback against a
 * server it just started, so nothing is lost. The CA is passed anyway for when that changes.
 */
export async function measure(target: LoadTarget, settings: LoadSettings): Promise<LoadRun> {
  const base = {
    url: target.url,
    headers: target.headers,
    pipelining: 1,
    connections: settings.connections,
    tlsOptions: { ca: target.ca },
  };
  if (settings.warmupSeconds > 0) await autocannon({ ...base, duration: settings.warmupSeconds });
  const latencies = new LatencyHistogram();
  const cpuBefore = await target.cpuMicros();
  const result = await autocannon({ ...base, duration: settings.seconds }).on(
    'response',
    (_client, _status, _bytes, ms) => latencies.record(ms),
  );
  const cpuMicros = (await target.cpuMicros()) - cpuBefore;
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: latencies.percentile(50),
    p99Ms: latencies.percentile(99),
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuMicrosPerRequest: result.requests.total > 0 ? cpuMicros / result.requests.total : 0,
  };
}

/** Median of each figure over the runs (mean of the middle two for an even count); counts are summed. */
export function medianOf(runs: LoadRun[]): LoadRun {
  if (runs.length === 0) throw new Error('no runs');
  const sum = (pick: (run: LoadRun) => number) => runs.reduce((total, run) => total + pick(run), 0);
  return {
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    requests: sum((run) => run.requests),
    non2xx: sum((run) => run.non2xx),
    errors: sum((run) => run.errors),
    cpuMicrosPerRequest: median(runs.map((run) => run.cpuMicrosPerRequest)),
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
