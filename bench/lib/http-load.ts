import autocannon from 'autocannon';
import { progress } from './bench-main';
import { median, Percentiles } from './percentiles';

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
  /** Responses by status code. */
  statuses: Record<string, number>;
}

export interface MeasuredRuns {
  median: LoadRun;
  runs: LoadRun[];
}

/** A write whose path and body are built afresh for every request (so each records an event). */
export interface WriteRequest {
  method: 'POST' | 'PATCH';
  expectedStatus: number;
  next(): { path: string; body: string };
}

type AutocannonOptions = Parameters<typeof autocannon>[0];

/**
 * One warm-up (discarded) then one measured autocannon run: HTTPS, keep-alive, pipelining 1, so
 * connections = clients; GETs of the target's URL, or `write`'s requests. autocannon always
 * connects with rejectUnauthorized: false (lib/httpClient.js overrides any tlsOptions), so the
 * certificate is not verified; this is a load client on loopback against a server it just started,
 * so nothing is lost. The CA is passed anyway for when that changes.
 */
export async function measure(target: LoadTarget, settings: LoadSettings, write?: WriteRequest): Promise<LoadRun> {
  if (settings.warmupSeconds > 0)
    await autocannon(optionsFor(target, settings.connections, { duration: settings.warmupSeconds }, write));
  const latencies = new Percentiles();
  const statuses: Record<string, number> = {};
  const cpuBefore = await target.cpuMicros();
  const result = await autocannon(optionsFor(target, settings.connections, { duration: settings.seconds }, write)).on(
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
    p50Ms: latencies.at(50),
    p99Ms: latencies.at(99),
    requests,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuMicrosPerRequest: requests > 0 ? cpuMicros / requests : 0,
    statuses,
  };
}

/** Exactly `amount` writes as fast as `connections` clients go: for setting data up. */
export async function sendWrites(
  target: LoadTarget,
  write: WriteRequest,
  connections: number,
  amount: number,
): Promise<{ seconds: number; statuses: Record<string, number>; errors: number }> {
  const statuses: Record<string, number> = {};
  const started = process.hrtime.bigint();
  const result = await autocannon(optionsFor(target, Math.min(connections, amount), { amount }, write)).on(
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

/**
 * The same load on each target in turn, `rounds` times over (the baselines first in each round):
 * the machine's drift during the run falls on all of them alike. The median of each is reported.
 */
export async function alternateRounds<N extends string>(
  targets: Record<N, LoadTarget>,
  settings: LoadSettings,
  rounds: number,
  label = '',
): Promise<Record<N, MeasuredRuns>> {
  const names = Object.keys(targets) as N[];
  const width = Math.max(...names.map((name) => name.length));
  const runs = new Map<N, LoadRun[]>(names.map((name) => [name, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const name of names) {
      const run = await measure(targets[name], settings);
      runs.get(name)?.push(run);
      progress(
        `${label}round ${round}/${rounds}: ${name.padEnd(width)} ${run.requestsPerSecond.toFixed(0)} requests/s`,
      );
    }
  }
  const measured = names.map((name) => {
    const of = runs.get(name) ?? [];
    return [name, { median: medianOf(of), runs: of }];
  });
  return Object.fromEntries(measured) as Record<N, MeasuredRuns>;
}

/** Median of each figure over the runs (mean of the middle two for an even count); counts are summed. */
export function medianOf(runs: LoadRun[]): LoadRun {
  if (runs.length === 0) throw new Error('no runs');
  const sum = (pick: (run: LoadRun) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const statuses: Record<string, number> = {};
  for (const run of runs)
    for (const [status, count] of Object.entries(run.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  return {
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    requests: sum((run) => run.requests),
    non2xx: sum((run) => run.non2xx),
    errors: sum((run) => run.errors),
    cpuMicrosPerRequest: median(runs.map((run) => run.cpuMicrosPerRequest)),
    statuses,
  };
}

function optionsFor(
  target: LoadTarget,
  connections: number,
  length: { duration?: number; amount?: number },
  write?: WriteRequest,
): AutocannonOptions {
  const base = { url: target.url, connections, pipelining: 1, tlsOptions: { ca: target.ca }, ...length };
  if (!write) return { ...base, headers: target.headers };
  return {
    ...base,
    headers: { ...target.headers, 'content-type': 'application/json' },
    requests: [{ setupRequest: (request) => ({ ...request, method: write.method, ...write.next() }) }],
  };
}
