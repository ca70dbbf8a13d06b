import { createSocket, Socket as UdpSocket } from 'node:dgram';
import { createServer, createConnection, Server, Socket } from 'node:net';
import { frameLength, MAX_MESSAGE, parseMessage, serialize, SipMessage } from './message';

/** Where a message came from, and how to answer it (RFC 3261 §18.2.2: on the connection it came on, or to its source). */
export interface Peer {
  transport: 'UDP' | 'TCP';
  address: string;
  port: number;
  /** The TCP connection, while it is open. */
  connection?: Socket;
}

export interface TransportEvents {
  message(message: SipMessage, peer: Peer): void;
  /** A datagram or frame that does not parse: counted and logged by the caller, never answered. */
  garbage(peer: Peer, bytes: number): void;
}

const MAX_TCP_CONNECTIONS = 1024;
const TCP_IDLE_MS = 5 * 60_000;

/** SIP over UDP and TCP on one address and port (§18). */
export class SipTransport {
  private udp: UdpSocket | null = null;
  private tcp: Server | null = null;
  private readonly connections = new Set<Socket>();

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly events: TransportEvents,
  ) {}

  async start(): Promise<void> {
    const udp = createSocket({ type: this.host.includes(':') ? 'udp6' : 'udp4' });
    udp.on('message', (data, rinfo) =>
      this.receive(data, { transport: 'UDP', address: rinfo.address, port: rinfo.port }),
    );
    udp.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(this.port, this.host, () => {
        udp.off('error', reject);
        resolve();
      });
    });
    this.udp = udp;
    const tcp = createServer((socket) => this.accept(socket));
    tcp.maxConnections = MAX_TCP_CONNECTIONS;
    await new Promise<void>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(this.udpPort(), this.host, () => {
        tcp.off('error', reject);
        resolve();
      });
    });
    this.tcp = tcp;
  }

  /** The bound port (the setting may be 0 in tests: TCP then listens on the port UDP got). */
  udpPort(): number {
    return this.udp?.address().port ?? this.port;
  }

  send(message: SipMessage, peer: Peer): void {
    const data = serialize(message);
    if (peer.transport === 'TCP') {
      const connection = peer.connection && !peer.connection.destroyed ? peer.connection : this.connect(peer);
      peer.connection = connection;
      connection.write(data);
      return;
    }
    this.udp?.send(data, peer.port, peer.address);
  }

  async stop(): Promise<void> {
    for (const connection of this.connections) connection.destroy();
    // Retransmission timers that outlive their calls (a BYE's Timer E) then send nothing instead of throwing.
    const udp = this.udp;
    this.udp = null;
    await Promise.all([
      new Promise<void>((resolve) => (udp ? udp.close(() => resolve()) : resolve())),
      new Promise<void>((resolve) => (this.tcp ? this.tcp.close(() => resolve()) : resolve())),
    ]);
  }

  private receive(data: Buffer, peer: Peer): void {
    // RFC 5626 §3.5.1 keep-alives (CRLF) are not messages.
    if (data.length <= 4 && /^[\r\n]*$/.test(data.toString('latin1'))) return;
    const message = parseMessage(data);
    if (!message) {
      this.events.garbage(peer, data.length);
      return;
    }
    this.events.message(message, peer);
  }

  private connect(peer: Peer): Socket {
    const socket = createConnection({ host: peer.address, port: peer.port });
    this.accept(socket);
    return socket;
  }

  /** A stream is cut into messages by Content-Length (§18.3); garbage closes the connection. */
  private accept(socket: Socket): void {
    this.connections.add(socket);
    socket.setTimeout(TCP_IDLE_MS, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.connections.delete(socket));
    let buffered: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      const peer: Peer = {
        transport: 'TCP',
        address: socket.remoteAddress ?? '',
        port: socket.remotePort ?? 0,
        connection: socket,
      };
      for (;;) {
        let skip = 0;
        while (skip < buffered.length && (buffered[skip] === 0x0d || buffered[skip] === 0x0a)) skip++;
        if (skip > 0) buffered = buffered.subarray(skip);
        if (buffered.length === 0) break;
        const length = frameLength(buffered);
        if (length < 0 || (length === 0 && buffered.length > MAX_MESSAGE)) {
          this.events.garbage(peer, buffered.length);
          socket.destroy();
          return;
        }
        if (length === 0) break;
        const frame = buffered.subarray(0, length);
        buffered = buffered.subarray(length);
        this.receive(Buffer.from(frame), peer);
      }
    });
  }
}
