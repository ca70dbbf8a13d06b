import { monitorEventLoopDelay } from 'node:perf_hooks';
import { CommandBus } from '@nestjs/cqrs';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/platform/config/app-config';
import { CreateAccount } from '../../src/write/accounts/create-account.handler';
import { IssueApiKey } from '../../src/write/api-keys/api-key.handlers';
import { failStartup, serveControl } from './child-control';
import type { SoakReady, SoakStatsReply } from './soak-messages';

/*
 * The real app for the soak (forked by soak.bench.ts): one account with a full-scope and an
 * ingest key, and its own memory and event-loop figures on request. Measured here, inside the
 * server, because the load generator's event loop says nothing about the server's.
 */
async function main(): Promise<void> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const rss: number[] = [];
  const heap: number[] = [];
  const sampleMemory = () => {
    const memory = process.memoryUsage();
    rss.push(memory.rss);
    heap.push(memory.heapUsed);
  };
  setInterval(sampleMemory, 1000).unref();
  const running = await createApp(loadConfig(process.env));
  serveControl(() => running.close());
  if (!running.tls) throw new Error('the soak needs TLS_MODE=native');
  const bus = running.app.get(CommandBus);
  const metadata = { actor: 'bench', correlation_id: 'soak-setup' };
  const account = await bus.execute(new CreateAccount('Soak Account', metadata));
  const issue = async (scopes: ('full' | 'ingest')[]) =>
    (
      await bus.execute(
        new IssueApiKey({ accountId: account.id, name: `soak ${scopes[0]}`, scopes, expiresAt: null }, metadata),
      )
    ).key as string;
  process.on('message', (message: { type?: string }) => {
    if (message?.type !== 'soak-stats') return;
    sampleMemory();
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const reply: SoakStatsReply = {
      type: 'soak-stats',
      rssBytes: median(rss),
      rssMaxBytes: Math.max(...rss),
      heapUsedBytes: median(heap),
      loopDelayP50Ms: ms(loop.percentile(50)),
      loopDelayP99Ms: ms(loop.percentile(99)),
      loopDelayMaxMs: ms(loop.max),
    };
    loop.reset();
    rss.length = 0;
    heap.length = 0;
    process.send?.(reply);
  });
  const ready: SoakReady = {
    type: 'ready',
    port: running.port,
    cert: running.tls.cert,
    accountKey: await issue(['full']),
    ingestKey: await issue(['ingest']),
  };
  process.send?.(ready);
}

main().catch(failStartup);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
