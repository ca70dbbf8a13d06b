import { createServer, request } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Trunkline behind an HTTPS relay that holds some requests: a Trunkline that is slow for them.
 * Every request is passed on to Trunkline as it came; those for which `holds(path)` is true wait
 * until `release()` (then go on, like every request after it).
 */
export interface HoldingProxy {
  origin: string;
  /** Requests waiting now. */
  held(): number;
  /** Sends the waiting requests on, and every later one at once. */
  release(): void;
  close(): Promise<void>;
}

export async function startHoldingProxy(options: {
  /** Trunkline's origin (https://127.0.0.1:port). */
  target: string;
  /** The certificate and key the relay serves (Trunkline's own: the gateway trusts its CA) and that CA. */
  cert: string;
  key: string;
  ca: string;
  holds: (path: string) => boolean;
}): Promise<HoldingProxy> {
  const target = new URL(options.target);
  let released = false;
  const waiting: (() => void)[] = [];
  const forward = (incoming: IncomingMessage, body: Buffer, response: ServerResponse) => {
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
        ca: options.ca,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    outgoing.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    outgoing.end(body);
  };
  const server = createServer({ cert: options.cert, key: options.key }, (incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const send = () => forward(incoming, Buffer.concat(chunks), response);
      if (!released && options.holds(incoming.url ?? '')) waiting.push(send);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => waiting.length,
    release() {
      released = true;
      for (const send of waiting.splice(0)) send();
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
