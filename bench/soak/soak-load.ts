import { progress } from '../lib/bench-main';
import { Percentiles } from '../lib/percentiles';
import type { SoakStats } from './soak-messages';
import type { SoakRequest, SoakTraffic } from './soak-traffic';

export interface MinuteFigures {
  minute: number;
  requests: number;
  /** Answers other than 2xx, and requests without an answer. */
  errors: number;
  /** Requests not sent because too many were still waiting (the server fell behind the rate). */
  skipped: number;
  /** Non-2xx answers by status (0: no answer). */
  failures: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  byKind: Record<SoakRequest['kind'], number>;
  server: SoakStats;
}

const TICK_MS = 20;
/** Beyond this many unanswered requests the generator skips sends instead of queueing without bound. */
const MAX_IN_FLIGHT = 256;

/**
 * Open-loop load at a fixed rate (requests are sent on schedule whether or not earlier ones have
 * answered), so a slowing server shows as latency and skips, not as a lower request count.
 */
export async function runSoakLoad(
  traffic: SoakTraffic,
  rate: number,
  minutes: number,
  serverStats: () => Promise<SoakStats>,
): Promise<MinuteFigures[]> {
  const figures: MinuteFigures[] = [];
  const started = Date.now();
  let sent = 0;
  let inFlight = 0;
  let minute = fresh();
  await serverStats(); // restarts the server's event-loop histogram: start-up is not measured
  const pending = new Set<Promise<void>>();
  for (let m = 1; m <= minutes; m++) {
    const end = started + m * 60_000;
    while (Date.now() < end) {
      const due = Math.floor(((Date.now() - started) / 1000) * rate);
      for (; sent < due; sent++) {
        if (inFlight >= MAX_IN_FLIGHT) {
          minute.skipped++;
          continue;
        }
        const req = traffic.next();
        const current = minute;
        const t0 = performance.now();
        inFlight++;
        const done = traffic.send(req).then((status) => {
          inFlight--;
          current.latencies.record(performance.now() - t0);
          current.requests++;
          current.byKind[req.kind]++;
          if (status < 200 || status >= 300) {
            current.errors++;
            current.failures[status] = (current.failures[status] ?? 0) + 1;
          }
        });
        pending.add(done);
        void done.finally(() => pending.delete(done));
      }
      await new Promise((resolve) => setTimeout(resolve, TICK_MS));
    }
    const server = await serverStats();
    const { latencies, ...counts } = minute;
    figures.push({ minute: m, ...counts, p50Ms: latencies.at(50), p99Ms: latencies.at(99), server });
    progress(
      `minute ${m}: ${counts.requests} requests, ${counts.errors} errors ${JSON.stringify(counts.failures)}, p50 ${latencies.at(50).toFixed(1)} ms, RSS ${Math.round(server.rssBytes / 1048576)} MiB, loop p99 ${server.loopDelayP99Ms} ms`,
    );
    minute = fresh();
  }
  await Promise.all(pending);
  return figures;
}

function fresh() {
  return {
    requests: 0,
    errors: 0,
    skipped: 0,
    failures: {} as Record<string, number>,
    byKind: { ingest: 0, read: 0, write: 0, analytics: 0 },
    latencies: new Percentiles(),
  };
}
