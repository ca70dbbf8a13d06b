/**
 * `npm run bench:media`: how many concurrent bridged calls the media gateway holds on this machine
 * with p99 frame processing ≤ 5 ms and no frame sent more than 20 ms after its slot
 * (docs/benchmarks.md). Each call streams both ways: this process is the carrier (a 20 ms G.711
 * packet per call), a mock Media Streams agent echoes every frame back, the gateway paces it out.
 * Steps up the number of calls until a step fails; prints the figure, the gateway's CPU per call,
 * and a bare Node UDP echo at the same packet rate (the baseline) and the ratio of their CPU.
 */
import { fork } from 'node:child_process';
import { createSocket, Socket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeUdpPort, ProcessGroup, sleep } from '../lib/sip/processes';
import { freePort } from '../../test/support/free-port';
import { testCertificate } from '../../test/support/provider-stubs';
import { customBody } from '../../test/support/trunk-requests';
import { startMediaGateway } from '../../test/media/support/media-gateway';
import { startMockAgent } from '../../test/media/support/mock-agent';
import { startTrunkline } from '../../test/media/support/trunkline';
import { freeUdpRange } from '../../test/media/support/udp-range';
import { caFileOf, provision } from '../../test/sip/support/trunkline';
import { parseMessage, SipResponse } from '../../media-gateway/src/sip/message';

const STEPS = (process.env.MEDIA_BENCH_STEPS ?? '25,50,100,150,200,250,300').split(',').map(Number);
const WINDOW_MS = Number(process.env.MEDIA_BENCH_WINDOW_MS ?? 10_000);
const MAX_P99_MS = 5;
const MAX_LATE_MS = 20;
const CLK_TCK = 100;

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** A tone, so the gateway's VAD and the agent see speech: 160 µ-law bytes. */
const PAYLOAD = Buffer.from(Array.from({ length: 160 }, (_, i) => (i % 2 ? 0x1f : 0x9f)));

interface BenchCall {
  callId: string;
  socket: Socket;
  remotePort: number;
  seq: number;
  ts: number;
  received: number;
  invite: string;
  toTag: string;
}

class Carrier {
  private readonly pending = new Map<string, (response: SipResponse) => void>();
  private constructor(
    private readonly sip: Socket,
    private readonly localPort: number,
    private readonly gatewayPort: number,
  ) {
    sip.on('message', (data) => {
      const message = parseMessage(data);
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
    const call: BenchCall = { callId, socket, remotePort, seq: 0, ts: 0, received: 0, invite, toTag };
    socket.on('message', () => call.received++);
    (call as BenchCall & { bye: () => Promise<SipResponse> }).bye = () =>
      this.request(`${head('BYE', 2, toTag)}\r\nContent-Length: 0\r\n\r\n`, `${callId}|2 BYE`);
    return call;
  }

  close(): void {
    this.sip.close();
  }
}

function sendFrame(call: BenchCall): void {
  const packet = Buffer.alloc(172);
  packet[0] = 0x80;
  packet[1] = 0;
  packet.writeUInt16BE(call.seq++ & 0xffff, 2);
  packet.writeUInt32BE((call.ts += 160) >>> 0, 4);
  packet.writeUInt32BE(0x1234, 8);
  PAYLOAD.copy(packet, 12);
  call.socket.send(packet, call.remotePort, '127.0.0.1');
}

/** A bare Node UDP echo (a child process) fed the same packet rate: the baseline CPU. */
async function baseline(packetsPerSecond: number, dir: string): Promise<number> {
  const script = join(dir, 'echo.js');
  writeFileSync(
    script,
    `const s=require('dgram').createSocket('udp4');s.on('message',(m,r)=>s.send(m,r.port,r.address));s.bind(0,'127.0.0.1',()=>process.send(s.address().port));`,
  );
  const child = fork(script, [], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  const port = await new Promise<number>((resolve) => child.once('message', (p) => resolve(Number(p))));
  const sockets = await Promise.all(
    Array.from({ length: Math.ceil(packetsPerSecond / 50) }, async () => {
      const s = createSocket('udp4');
      await new Promise<void>((resolve) => s.bind(0, '127.0.0.1', () => resolve()));
      return s;
    }),
  );
  const packet = Buffer.alloc(172, 0x80);
  const before = cpuSeconds(child.pid!);
  const timer = setInterval(() => sockets.forEach((s) => s.send(packet, port, '127.0.0.1')), 20);
  await sleep(WINDOW_MS);
  clearInterval(timer);
  const used = cpuSeconds(child.pid!) - before;
  sockets.forEach((s) => s.close());
  child.kill();
  return used / (WINDOW_MS / 1000);
}

async function main(): Promise<void> {
  const group = new ProcessGroup();
  const dir = mkdtempSync(join(tmpdir(), 'trunkline-media-bench-'));
  try {
    const certificate = await testCertificate();
    const agent = await startMockAgent({ certificate, echo: true });
    writeFileSync(join(dir, 'ca.pem'), certificate.cert);
    const mediaPort = await freeUdpPort();
    const settings = { dataDir: join(dir, 'trunkline'), port: await freePort(), mediaGatewayPort: mediaPort };
    const service = await startTrunkline(group, settings);
    const { client, gatewayKey } = await provision(service);
    const trunk = (
      await client.post('/v1/trunks', customBody({ sip_password: 'bench-password-1', custom_endpoint: agent.url }))
    ).body as { sip_username: string };
    const maxCalls = Math.max(...STEPS);
    const rtpMin = await freeUdpRange(2 * maxCalls + 20, ['127.0.0.1']);
    const gateway = await startMediaGateway(group, {
      sipPort: mediaPort,
      trunklineUrl: `${service.origin}/v1`,
      gatewayKey,
      trunklineCaFile: caFileOf(settings.dataDir),
      agentCaFile: join(dir, 'ca.pem'),
      spoolDir: join(dir, 'spool'),
      rtpPortMin: rtpMin,
      rtpPortMax: rtpMin + 2 * maxCalls + 19,
      env: { MAX_CALLS: String(maxCalls + 10), MEDIA_TIMEOUT_MS: '30000' },
    });
    const carrier = await Carrier.open(mediaPort);
    let held = 0;
    let heldCpu = 0;
    let first: { calls: number; cpu: number } | null = null;
    let n = 0;
    console.log('calls  p99 held (ms)  worst lateness (ms)  late frames  gateway CPU/call (%)  echo received');
    for (const calls of STEPS) {
      const logFrom = gateway.output().length;
      const up: BenchCall[] = [];
      for (let i = 0; i < calls; i++) up.push(await carrier.call(trunk.sip_username, n++));
      const timer = setInterval(() => up.forEach(sendFrame), 20);
      await sleep(1_000);
      const before = cpuSeconds(gateway.child.pid!);
      await sleep(WINDOW_MS);
      const cpu = (cpuSeconds(gateway.child.pid!) - before) / (WINDOW_MS / 1000);
      clearInterval(timer);
      // The echoes in flight drain before the hang-ups, so teardown is not measured as lateness.
      await sleep(300);
      await Promise.all(up.map((c) => (c as BenchCall & { bye: () => Promise<SipResponse> }).bye()));
      up.forEach((c) => c.socket.close());
      await sleep(500);
      const ended = gateway
        .output()
        .slice(logFrom)
        .split('\n')
        .filter((l) => l.includes('"call ended"'))
        .map(
          (l) => JSON.parse(l) as { processing_p99_ms: number | null; max_lateness_ms: number; late_frames: number },
        );
      const p99 = Math.max(...ended.map((e) => e.processing_p99_ms ?? 0));
      const late = Math.max(...ended.map((e) => e.max_lateness_ms));
      const lateFrames = ended.reduce((sum, e) => sum + e.late_frames, 0);
      const echoed =
        up.reduce((sum, c) => sum + c.received, 0) /
        Math.max(
          1,
          up.reduce((sum, c) => sum + c.seq, 0),
        );
      const ok = ended.length === calls && p99 <= MAX_P99_MS && late <= MAX_LATE_MS;
      console.log(
        `${String(calls).padStart(5)}  ${p99.toFixed(2).padStart(13)}  ${late.toFixed(1).padStart(19)}  ${String(lateFrames).padStart(11)}  ${((cpu / calls) * 100).toFixed(3).padStart(20)}  ${(echoed * 100).toFixed(1)} %${ok ? '' : '  ← over the bound'}`,
      );
      first ??= { calls, cpu };
      if (!ok) break;
      held = calls;
      heldCpu = cpu;
    }
    carrier.close();
    await agent.close();
    // The CPU comparison at the largest step held (or the first step when none held).
    const at = held > 0 ? { calls: held, cpu: heldCpu } : first!;
    const echoCpu = await baseline(at.calls * 50, dir);
    console.log(
      `\nheld: ${held} concurrent bridged calls (p99 frame processing ≤ ${MAX_P99_MS} ms, no frame > ${MAX_LATE_MS} ms late)`,
    );
    console.log(
      `media gateway: ${(at.cpu * 100).toFixed(1)} % of a core at ${at.calls} calls = ${((at.cpu / at.calls) * 100).toFixed(3)} % per call`,
    );
    console.log(
      `baseline, a bare Node UDP echo at the same ${at.calls * 50} packets/s: ${(echoCpu * 100).toFixed(1)} % of a core`,
    );
    console.log(
      `ratio: the media gateway uses ${(at.cpu / Math.max(echoCpu, 1e-6)).toFixed(1)}× the echo's CPU for the same packet rate`,
    );
  } finally {
    await group.stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
