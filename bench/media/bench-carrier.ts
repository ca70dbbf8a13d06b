import { createSocket, Socket } from 'node:dgram';
import { parseMessage, responseTo, serialize, SipResponse } from '../../media-gateway/src/sip/message';

/** A tone, so the gateway's VAD and the agent see speech: 160 µ-law bytes. */
const PAYLOAD = Buffer.from(Array.from({ length: 160 }, (_, i) => (i % 2 ? 0x1f : 0x9f)));

export interface BenchCall {
  callId: string;
  socket: Socket;
  remotePort: number;
  seq: number;
  ts: number;
  received: number;
  invite: string;
  toTag: string;
  bye(): Promise<SipResponse>;
}

export class Carrier {
  private readonly pending = new Map<string, (response: SipResponse) => void>();
  /** Call-IDs the gateway sent a BYE for (each answered 200 OK). */
  readonly byes = new Set<string>();
  private constructor(
    private readonly sip: Socket,
    private readonly localPort: number,
    private readonly gatewayPort: number,
  ) {
    sip.on('message', (data) => {
      const message = parseMessage(data);
      if (message?.kind === 'request' && message.method === 'BYE') {
        this.byes.add(message.headers.get('call-id') ?? '');
        sip.send(serialize(responseTo(message, 200, 'OK', null)), this.gatewayPort, '127.0.0.1');
        return;
      }
      if (message?.kind !== 'response' || message.status < 200) return;
      const key = `${message.headers.get('call-id')}|${message.headers.get('cseq')}`;
      this.pending.get(key)?.(message);
    });
  }

  static async open(gatewayPort: number): Promise<Carrier> {
    const sip = createSocket('udp4');
    await new Promise<void>((resolve) => sip.bind(0, '127.0.0.1', () => resolve()));
    return new Carrier(sip, sip.address().port, gatewayPort);
  }

  private request(text: string, key: string): Promise<SipResponse> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${key}`)), 30_000);
      this.pending.set(key, (response) => {
        clearTimeout(timer);
        this.pending.delete(key);
        resolve(response);
      });
      this.sip.send(text, this.gatewayPort, '127.0.0.1');
    });
  }

  async call(user: string, n: number): Promise<BenchCall> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
    const media = socket.address().port;
    const callId = `bench-${n}-${Date.now()}@127.0.0.1`;
    const sdp = `v=0\r\no=b 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio ${media} RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\n`;
    const head = (method: string, seq: number, toTag = '') =>
      [
        `${method} sip:${user}@127.0.0.1:${this.gatewayPort} SIP/2.0`,
        `Via: SIP/2.0/UDP 127.0.0.1:${this.localPort};branch=z9hG4bK${n}x${seq}${method}`,
        `From: <sip:+1415555${1000 + n}@bench>;tag=b${n}`,
        `To: <sip:+442071838750@127.0.0.1>${toTag ? `;tag=${toTag}` : ''}`,
        `Call-ID: ${callId}`,
        `CSeq: ${seq} ${method}`,
        `Contact: <sip:bench@127.0.0.1:${this.localPort}>`,
        'Max-Forwards: 70',
      ].join('\r\n');
    const invite = `${head('INVITE', 1)}\r\nContent-Type: application/sdp\r\nContent-Length: ${sdp.length}\r\n\r\n${sdp}`;
    const ok = await this.request(invite, `${callId}|1 INVITE`);
    if (ok.status !== 200) throw new Error(`call ${n}: ${ok.status} ${ok.reason}`);
    const toTag = /;tag=([^;]+)/.exec(ok.headers.get('to') ?? '')?.[1] ?? '';
    const remotePort = Number(/m=audio (\d+)/.exec(ok.body.toString())?.[1]);
    this.sip.send(`${head('ACK', 1, toTag)}\r\nContent-Length: 0\r\n\r\n`, this.gatewayPort, '127.0.0.1');
    const bye = () => this.request(`${head('BYE', 2, toTag)}\r\nContent-Length: 0\r\n\r\n`, `${callId}|2 BYE`);
    const call: BenchCall = { callId, socket, remotePort, seq: 0, ts: 0, received: 0, invite, toTag, bye };
    socket.on('message', () => call.received++);
    return call;
  }

  close(): void {
    this.sip.close();
  }
}

export function sendFrame(call: BenchCall): void {
  const packet = Buffer.alloc(172);
  packet[0] = 0x80;
  packet[1] = 0;
  packet.writeUInt16BE(call.seq++ & 0xffff, 2);
  packet.writeUInt32BE((call.ts += 160) >>> 0, 4);
  packet.writeUInt32BE(0x1234, 8);
  PAYLOAD.copy(packet, 12);
  call.socket.send(packet, call.remotePort, '127.0.0.1');
}
