import { createSocket, Socket } from 'node:dgram';

export interface RtpPair {
  port: number;
  rtp: Socket;
  rtcp: Socket;
}

/**
 * RTP ports from a range: an even port for RTP and the next one for RTCP (RFC 3550 §11), bound
 * before the answer names them. A port another process holds is skipped.
 */
export class RtpPorts {
  private next: number;
  private readonly used = new Set<number>();

  constructor(
    private readonly host: string,
    private readonly min: number,
    private readonly max: number,
  ) {
    this.next = min + (min % 2);
  }

  async take(): Promise<RtpPair | null> {
    const slots = Math.floor((this.max - this.min) / 2);
    for (let tries = 0; tries < slots; tries++) {
      const port = this.next;
      this.next += 2;
      if (this.next + 1 > this.max) this.next = this.min + (this.min % 2);
      if (this.used.has(port)) continue;
      this.used.add(port);
      const rtp = await this.bind(port);
      const rtcp = rtp ? await this.bind(port + 1) : null;
      if (rtp && rtcp) return { port, rtp, rtcp };
      rtp?.close();
      this.used.delete(port);
    }
    return null;
  }

  release(pair: RtpPair): void {
    for (const socket of [pair.rtp, pair.rtcp]) {
      try {
        socket.close();
      } catch {
        // already closed
      }
    }
    this.used.delete(pair.port);
  }

  inUse(): number {
    return this.used.size;
  }

  private bind(port: number): Promise<Socket | null> {
    return new Promise((resolve) => {
      const socket = createSocket('udp4');
      socket.once('error', () => {
        socket.close();
        resolve(null);
      });
      socket.bind(port, this.host, () => {
        socket.removeAllListeners('error');
        socket.on('error', () => undefined);
        resolve(socket);
      });
    });
  }
}
