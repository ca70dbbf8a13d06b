import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { loadTlsMaterial } from '../../src/platform/http/tls-material';

/** The bench's receiver: HTTPS with its own self-signed certificate, answers 204 at once, counts. */
export class BenchReceiver {
  deliveries = 0;
  calls = 0;
  firstAt = 0;
  lastAt = 0;
  private server: Server | null = null;
  origin = '';
  caFile = '';

  async start(dir: string): Promise<void> {
    const tls = await loadTlsMaterial({ certFile: null, keyFile: null, dataDir: dir });
    this.caFile = tls.certPath;
    this.server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          type: string;
          data: { calls?: unknown[] };
        };
        if (event.type === 'call.completed') {
          this.deliveries++;
          this.calls += event.data.calls?.length ?? 0;
          this.lastAt = performance.now();
          if (this.firstAt === 0) this.firstAt = this.lastAt;
        }
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset(): void {
    this.deliveries = 0;
    this.calls = 0;
    this.firstAt = 0;
    this.lastAt = 0;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(undefined)));
  }
}
