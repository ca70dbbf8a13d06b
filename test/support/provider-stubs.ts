import { createHash } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { generate } from 'selfsigned';

/** Local stand-ins for OpenAI, ElevenLabs and a customer's WebSocket agent (loopback only). */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export interface HttpStub {
  /** http://127.0.0.1:<port> */
  url: string;
  requests: SeenRequest[];
  /** Requests left hanging ('hang') whose client closed the connection: it gave up by itself. */
  abandoned(): number;
  close(): Promise<void>;
}

/** `answer` returns the status; `'hang'` keeps the request open until the stub closes. */
export type StubAnswer = (request: SeenRequest) => number | 'hang';

export async function startHttpStub(answer: StubAnswer, extraHeaders: Record<string, string> = {}): Promise<HttpStub> {
  const requests: SeenRequest[] = [];
  let abandoned = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const seen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers };
    requests.push(seen);
    const status = answer(seen);
    if (status === 'hang') {
      req.socket.once('close', () => (abandoned += 1));
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json', ...extraHeaders });
    res.end(JSON.stringify({ error: { message: 'stub answer' } }));
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, requests, abandoned: () => abandoned, close: closer(server) };
}

/** A port nothing listens on: connecting is refused. */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  const close = closer(server);
  const port = await listen(server);
  await close();
  return port;
}

/** Accepts TCP connections and never says a word: a TLS handshake with it never completes. */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const server = createTcpServer();
  const close = closer(server);
  return { port: await listen(server), close };
}

/** A self-signed certificate, its own CA; by default for localhost and 127.0.0.1. */
export async function testCertificate(dnsNames?: string[]): Promise<{ key: string; cert: string }> {
  const altNames = dnsNames?.map((value) => ({ type: 2, value })) ?? [
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
  ];
  const generated = await generate([{ name: 'commonName', value: dnsNames?.[0] ?? 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames }],
  } as Parameters<typeof generate>[1]);
  return { key: generated.private, cert: generated.cert };
}

export type UpgradeBehaviour = 'accept' | 'wrong-accept' | 'not-found' | 'unavailable' | 'hang' | 'drop';

export interface SeenUpgrade {
  path: string;
  headers: IncomingHttpHeaders;
  /** Bytes the client sent after the handshake (a close frame, if it was polite). */
  after: Buffer[];
}

export interface WebSocketStub {
  port: number;
  upgrades: SeenUpgrade[];
  /** TCP connections accepted, whether or not any TLS or HTTP followed. */
  connections(): number;
  /** Upgrades left hanging ('hang') whose client closed the connection: it gave up by itself. */
  abandoned(): number;
  close(): Promise<void>;
}

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export async function startWebSocketStub(
  tls: { key: string; cert: string },
  behaviour: UpgradeBehaviour,
): Promise<WebSocketStub> {
  const upgrades: SeenUpgrade[] = [];
  let connections = 0;
  let abandoned = 0;
  const server = createHttpsServer(tls);
  const close = closer(server);
  server.on('connection', () => connections++);
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    const seen: SeenUpgrade = { path: req.url ?? '', headers: req.headers, after: [] };
    upgrades.push(seen);
    socket.on('data', (chunk: Buffer) => seen.after.push(chunk));
    socket.on('error', () => undefined);
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}${GUID}`).digest('base64');
    const head = (statusLine: string, headers: string[]) => [statusLine, ...headers, '', ''].join('\r\n');
    switch (behaviour) {
      case 'accept':
        return socket.write(
          head('HTTP/1.1 101 Switching Protocols', [
            'Upgrade: websocket',
            'Connection: Upgrade',
            `Sec-WebSocket-Accept: ${accept}`,
          ]),
        );
      case 'wrong-accept':
        return socket.write(
          head('HTTP/1.1 101 Switching Protocols', [
            'Upgrade: websocket',
            'Connection: Upgrade',
            'Sec-WebSocket-Accept: bm90IHRoZSByaWdodCBvbmU=',
          ]),
        );
      case 'not-found':
        return socket.end(head('HTTP/1.1 404 Not Found', ['Content-Length: 0', 'Connection: close']));
      case 'unavailable':
        return socket.end(head('HTTP/1.1 503 Service Unavailable', ['Content-Length: 0', 'Connection: close']));
      case 'drop':
        return socket.destroy();
      case 'hang':
        socket.once('close', () => (abandoned += 1));
        return undefined;
    }
  });
  const port = await listen(server);
  return { port, upgrades, connections: () => connections, abandoned: () => abandoned, close };
}

async function listen(server: Server | ReturnType<typeof createTcpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Upgraded and hanging sockets are no longer the HTTP server's to close: track them all. */
function closer(server: Server | ReturnType<typeof createTcpServer>): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
}
