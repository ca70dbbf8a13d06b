import { WebhookDeliveryWorker } from '../../src/webhooks/delivery/delivery.worker';
import { serveApp } from '../lib/serve-app';
import type { WebhooksOps } from './webhooks-messages';

/*
 * The app child of webhooks.bench.ts (embedded chDB and PGlite in the bench's temp DATA_DIR, read
 * models in memory, webhooks allowed to the bench's loopback receiver, its certificate in
 * WEBHOOK_CA_FILE). The bench pauses the delivery worker to build a backlog, then measures how
 * fast it drains.
 */
serveApp<object, WebhooksOps>((running) => {
  const worker = running.app.get(WebhookDeliveryWorker);
  return { handlers: { 'webhooks-pause': () => worker.pause(), 'webhooks-resume': () => worker.resume() } };
});
