import { laterTracked } from './timer-lateness';
import { createServer as createHttpsServer } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** Every message a mock provider received and sent on one connection, for the tests' assertions. */
export interface ProviderConnection {
  /** The upgrade's path and query (model, agent_id). */
  url: string;
  headers: IncomingMessage['headers'];
  received: Record<string, unknown>[];
  sent: Record<string, unknown>[];
  /** Caller audio frames received. */
  audioFrames: number;
  closed: boolean;
  send(message: Record<string, unknown>): void;
  socket: WebSocket;
}

export interface MockProvider {
  /** wss://127.0.0.1:<port><path>: the MEDIA_GATEWAY_*_URL the media gateway is given. */
  url: string;
  connections: ProviderConnection[];
  close(): Promise<void>;
}

/**
 * The scaffold both mock providers share: a wss:// server on a free loopback port that asks
 * `refuse` whether to answer the upgrade with an HTTP status, and hands each accepted connection to
 * `serve` with a timer helper that `close()` cancels.
 */
export async function startMockProvider(
  certificate: { key: string; cert: string },
  path: string,
  refuse: (request: IncomingMessage) => number | null,
  serve: (connection: ProviderConnection, later: (fn: () => void, ms: number) => void) => void,
): Promise<MockProvider> {
  const server = createHttpsServer({ key: certificate.key, cert: certificate.cert });
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const connections: ProviderConnection[] = [];
  const later = (fn: () => void, ms: number): void => laterTracked(timers, fn, ms);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (request, socket, head) => {
    const status = refuse(request);
    if (status !== null) {
      socket.end(`HTTP/1.1 ${status} Refused\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const connection: ProviderConnection = {
        url: request.url ?? '',
        headers: request.headers,
        received: [],
        sent: [],
        audioFrames: 0,
        closed: false,
        socket: ws,
        send: (message) => {
          if (ws.readyState !== ws.OPEN) return;
          connection.sent.push(message);
          ws.send(JSON.stringify(message));
        },
      };
      ws.on('close', () => (connection.closed = true));
      connections.push(connection);
      serve(connection, later);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `wss://127.0.0.1:${port}${path}`,
    connections,
    async close() {
      timers.forEach((t) => clearTimeout(t));
      for (const ws of wss.clients) ws.terminate();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A JSON text message as an object, or null (the mocks count what they cannot read). */
export function parsed(data: unknown, isBinary: boolean): Record<string, unknown> | null {
  if (isBinary) return null;
  try {
    const value = JSON.parse(String(data)) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
