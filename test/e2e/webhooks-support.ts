import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { mkdtempSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTlsMaterial } from '../../src/platform/http/tls-material';
import { observeWebhookDelivery } from '../support/openapi-conformance';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  json: { id: string; type: string; created_at: string; data: any };
  reply: Reply;
}

/** What the receiver answers on a path: a status, or 'hang' (never answers: a timeout). */
export type Reply = number | 'hang';

/**
 * A local HTTPS receiver with its own self-signed certificate (the app trusts it through
 * WEBHOOK_CA_FILE = caFile). Each path answers from its script of replies, the last one repeated.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly scripts = new Map<string, Reply[]>();
  private server: Server | null = null;
  private readonly hanging = new Set<import('node:http').ServerResponse>();
  origin = '';
  caFile = '';

  async start(): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'webhook-receiver-'));
    const tls = await loadTlsMaterial({ certFile: null, keyFile: null, dataDir: dir });
    this.caFile = tls.certPath!;
    this.server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '/';
        const script = this.scripts.get(path) ?? [200];
        const reply = script.length > 1 ? script.shift()! : script[0];
        const json = JSON.parse(body);
        // Every delivery must be what the document's x-webhooks says (checked in the file's afterAll).
        observeWebhookDelivery(json);
        this.received.push({ path, headers: req.headers as Record<string, string>, body, json, reply });
        if (reply === 'hang') return void this.hanging.add(res);
        res.writeHead(reply, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Replies in order for this path; the last one repeats. */
  script(path: string, replies: Reply[]): string {
    this.scripts.set(path, [...replies]);
    return `${this.origin}${path}`;
  }

  on(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  async waitFor(
    predicate: (all: ReceivedWebhook[]) => boolean,
    timeoutMs = SETTLE_DEADLINE_MS,
    what = 'webhooks',
  ): Promise<void> {
    const started = Date.now();
    while (!predicate(this.received)) {
      if (Date.now() - started > timeoutMs)
        throw new Error(
          `timed out waiting for ${what}; received: ${this.received.map((r) => `${r.path} ${r.json.type}`).join(', ')}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

export { verifyStandardWebhook } from '../unit/webhooks/standard-webhooks.verifier';

/** Reads until `done` holds (every 50 ms), or fails after timeoutMs showing the last value. */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = SETTLE_DEADLINE_MS,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs)
      throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
