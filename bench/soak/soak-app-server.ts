import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Percentiles } from '../lib/percentiles';
import { serveApp } from '../lib/serve-app';
import type { SoakOps, SoakStats } from './soak-messages';

/*
 * The app child of the soak, which also reports its own memory and event-loop delay on request:
 * measured here, inside the server, because the load generator's event loop says nothing about
 * the server's. The bench's first request restarts both, so start-up is not measured.
 */
serveApp<object, SoakOps>(() => {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let rss = new Percentiles(1);
  let heap = new Percentiles(1);
  const sampleMemory = () => {
    const memory = process.memoryUsage();
    rss.record(memory.rss);
    heap.record(memory.heapUsed);
  };
  setInterval(sampleMemory, 1000).unref();
  const stats = (): SoakStats => {
    sampleMemory();
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const reply: SoakStats = {
      rssBytes: rss.at(50),
      rssMaxBytes: rss.max,
      heapUsedBytes: heap.at(50),
      loopDelayP50Ms: ms(loop.percentile(50)),
      loopDelayP99Ms: ms(loop.percentile(99)),
      loopDelayMaxMs: ms(loop.max),
    };
    loop.reset();
    rss = new Percentiles(1);
    heap = new Percentiles(1);
    return reply;
  };
  return { handlers: { 'soak-stats': stats } };
});
