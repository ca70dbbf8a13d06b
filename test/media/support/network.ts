import { createSocket, Socket } from 'node:dgram';

/**
 * The carrier's side of the media path in the test:
 * - a counter per call, the port the carrier's SDP names: it counts the RTP packets the caller is sent;
 * - a relay standing for the network between carrier and gateway: the gateway advertises
 *   RELAY_ADDRESS in its SDP (ADVERTISE_RTP_ADDRESS), and each of its RTP/RTCP ports is mirrored there; what
 *   arrives is forwarded to the gateway's real port from 127.0.0.1 (the carrier's negotiated address),
 *   dropping every `dropEvery`-th RTP packet when loss is on (5 %: every 20th, exactly).
 */
export const RELAY_ADDRESS = '127.0.0.3';

export class RtpCounter {
  packets = 0;
  readonly ssrcs = new Set<number>();
  private constructor(
    private readonly socket: Socket,
    readonly port: number,
  ) {
    socket.on('message', (packet) => {
      if (packet.length < 12 || packet[0] >> 6 !== 2) return;
      const payloadType = packet[1] & 0x7f;
      if (payloadType >= 72 && payloadType <= 76) return; // RTCP on this port (rtcp-mux style), not audio
      this.packets++;
      this.ssrcs.add(packet.readUInt32BE(8));
    });
  }

  static async open(): Promise<RtpCounter> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
    return new RtpCounter(socket, socket.address().port);
  }

  close(): void {
    this.socket.close();
  }
}

export class LossyRelay {
  /** Drop every n-th RTP packet (0: none). */
  dropEvery = 0;
  forwarded = 0;
  dropped = 0;
  private readonly sockets: Socket[] = [];

  /** Mirrors gateway ports [min, max] on RELAY_ADDRESS. */
  static async open(min: number, max: number): Promise<LossyRelay> {
    const relay = new LossyRelay();
    for (let port = min; port <= max; port++) await relay.mirror(port);
    return relay;
  }

  private async mirror(port: number): Promise<void> {
    const inbound = createSocket('udp4');
    const outbound = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      inbound.once('error', reject);
      inbound.bind(port, RELAY_ADDRESS, () => resolve());
    });
    await new Promise<void>((resolve) => outbound.bind(0, '127.0.0.1', () => resolve()));
    let count = 0;
    const rtcp = port % 2 === 1;
    inbound.on('message', (packet) => {
      if (!rtcp && this.dropEvery > 0 && ++count % this.dropEvery === 0) {
        this.dropped++;
        return;
      }
      this.forwarded++;
      outbound.send(packet, port, '127.0.0.1');
    });
    this.sockets.push(inbound, outbound);
  }

  close(): void {
    for (const socket of this.sockets) socket.close();
  }
}
