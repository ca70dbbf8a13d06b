import { createServer as createHttpServer, IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { createServer as createHttpsServer, Server as HttpsServer } from 'node:https';
import { createServer as createNetServer, Server as NetServer, Socket } from 'node:net';
import { envelope } from './error-envelope';

const TLS_HANDSHAKE = 0x16;
const HTTPS_REQUIRED = 'HTTPS is required: this port speaks TLS only; use https://';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * One port, two protocols: the first byte of a connection says whether it is a TLS handshake
 * (handed to the HTTPS server) or plain HTTP (answered 400 in the error envelope, as the spec
 * wants, instead of a TLS alert the client cannot read).
 */
export class FrontDoor {
  readonly listener: NetServer;
  private readonly plain: HttpServer;
  private readonly sockets = new Set<Socket>();

  /** `firstByteMs`: a connection that sends nothing at all is closed after this long. */
  constructor(
    readonly tlsServer: HttpsServer,
    private readonly firstByteMs = 10_000,
  ) {
    this.plain = createHttpServer({ maxHeaderSize: 16 * 1024 }, rejectPlainHttp);
    this.plain.keepAliveTimeout = 1;
    // noDelay: what an https.Server listening by itself sets on every connection it accepts (Node's
    // http servers default to it); the sockets handed over from here would otherwise keep Nagle.
    this.listener = createNetServer({ pauseOnConnect: false, noDelay: true }, (socket) => this.route(socket));
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.listener.once('error', reject);
      this.listener.listen(port, host, () => {
        this.listener.off('error', reject);
        // The HTTP servers never listen themselves; 'listening' starts their connection tracking,
        // which enforces headersTimeout/requestTimeout and lets closeIdleConnections work.
        this.tlsServer.emit('listening');
        this.plain.emit('listening');
        const address = this.listener.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  /**
   * Stops accepting connections; in-flight requests finish, keep-alive sockets close as soon as
   * they are idle, and whatever is still open after `graceMs` is cut.
   */
  async close(graceMs = 10_000): Promise<void> {
    const drained = new Promise<void>((resolve) => this.listener.close(() => resolve()));
    this.tlsServer.close();
    this.plain.close();
    const sweep = setInterval(() => this.closeIdle(), 25);
    this.closeIdle();
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([drained, deadline]);
    clearInterval(sweep);
    for (const socket of this.sockets) socket.destroy();
    await drained;
  }

  private closeIdle(): void {
    this.tlsServer.closeIdleConnections();
    this.plain.closeIdleConnections();
  }

  private route(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.once('error', () => socket.destroy());
    socket.setTimeout(this.firstByteMs, () => socket.destroy());
    socket.once('data', (first: Buffer) => {
      socket.setTimeout(0);
      socket.pause();
      socket.unshift(first);
      const target = first[0] === TLS_HANDSHAKE ? this.tlsServer : this.plain;
      target.emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  }
}

function rejectPlainHttp(_req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify(envelope('missing_required_field', HTTPS_REQUIRED, { reason: 'https_required' }));
  res.writeHead(400, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.end(body);
}

export interface SlowClientLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

/**
 * Node enforces headersTimeout/requestTimeout only when it sweeps its connections
 * (connectionsCheckingInterval, 30 s by default): sweeping at a quarter of the header timeout
 * cuts a client that trickles its headers byte by byte within 1.25 × the timeout.
 */
export function slowClientOptions(limits: SlowClientLimits = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 }) {
  return {
    maxHeaderSize: 16 * 1024,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(5000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

export function createTlsServer(
  material: { cert: string; key: string },
  handler: RequestHandler,
  limits?: SlowClientLimits,
): HttpsServer {
  const server = createHttpsServer(
    { cert: material.cert, key: material.key, minVersion: 'TLSv1.2', ...slowClientOptions(limits) },
    handler,
  );
  server.keepAliveTimeout = 65_000;
  return server;
}

export const HTTPS_REQUIRED_MESSAGE = HTTPS_REQUIRED;
