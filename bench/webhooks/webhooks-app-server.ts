import { CommandBus } from '@nestjs/cqrs';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/platform/config/app-config';
import { CreateAccount } from '../../src/write/accounts/create-account.handler';
import { IssueApiKey } from '../../src/write/api-keys/api-key.handlers';
import { CreateTrunk } from '../../src/write/trunks/create-trunk.handler';
import { WebhookDeliveryWorker } from '../../src/webhooks/delivery/delivery.worker';
import { failStartup, serveControl } from './child-control';

/*
 * The real app in its own process for webhooks.bench.ts: embedded chDB and PGlite in the bench's
 * temp DATA_DIR, read models in memory, webhooks allowed to the bench's loopback receiver (its
 * certificate in WEBHOOK_CA_FILE). Provisions an account, a full and an ingest key and custom
 * trunks through the command bus and reports them over IPC.
 */
export interface WebhooksAppReady {
  type: 'ready';
  port: number;
  cert: string;
  fullKey: string;
  ingestKey: string;
  accountId: string;
  trunks: { id: string; provider: string }[];
  pid: number;
}

async function main(): Promise<void> {
  const running = await createApp(loadConfig(process.env));
  serveControl(() => running.close());
  // The bench pauses the worker to build a backlog, then measures how fast it drains.
  const worker = running.app.get(WebhookDeliveryWorker);
  process.on('message', (message: { type?: string }) => {
    if (message?.type === 'webhooks-pause') worker.pause();
    else if (message?.type === 'webhooks-resume') worker.resume();
    else return;
    process.send?.({ type: 'webhooks-ack' });
  });
  if (!running.tls) throw new Error('the bench needs TLS_MODE=native');
  const bus = running.app.get(CommandBus);
  const metadata = { actor: 'bench', correlation_id: 'bench-setup' };
  const account = await bus.execute(new CreateAccount('Webhooks Bench', metadata));
  const full = await bus.execute(
    new IssueApiKey({ accountId: account.id, name: 'bench full key', scopes: ['full'], expiresAt: null }, metadata),
  );
  const ingest = await bus.execute(
    new IssueApiKey({ accountId: account.id, name: 'bench ingest key', scopes: ['ingest'], expiresAt: null }, metadata),
  );
  const trunks: WebhooksAppReady['trunks'] = [];
  for (let i = 0; i < 10; i++) {
    const body = {
      name: `Bench trunk ${i + 1}`,
      ai_provider: 'custom' as const,
      sip_username: `bench-hook-${i + 1}`,
      sip_password: 'bench-password-0123456789',
      custom_endpoint: `wss://agent.example.com/bench-${i + 1}`,
    };
    const trunk = await bus.execute(new CreateTrunk(account.id, body, metadata));
    trunks.push({ id: trunk.id, provider: 'custom' });
  }
  const ready: WebhooksAppReady = {
    type: 'ready',
    port: running.port,
    cert: running.tls.cert,
    fullKey: full.key,
    ingestKey: ingest.key,
    accountId: account.id,
    trunks,
    pid: process.pid,
  };
  process.send?.(ready);
}

main().catch(failStartup);
