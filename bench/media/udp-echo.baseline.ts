import { createSocket, Socket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ProcessGroup, sleep } from '../lib/sip/processes';
import { cpuSeconds } from './machine';

export interface EchoStep {
  streams: number;
  /** p99 of the echo's round trip (ms), as the sender sees it. */
  p99Ms: number;
  /** Share of the packets that came back. */
  returned: number;
  /** The echo process's CPU, in cores. */
  cpu: number;
}

/**
 * The baseline: a bare Node UDP echo (its own process) fed `streams` × 50 packets/s of 172 bytes,
 * as the gateway is fed by `streams` calls; its round trip p99 and CPU over `windowMs`. It runs at
 * the media gateway's priority (both `urgent` in the ProcessGroup), so the two compare fairly.
 */
export async function echoStep(group: ProcessGroup, streams: number, windowMs: number, dir: string): Promise<EchoStep> {
  const script = join(dir, 'echo.js');
  writeFileSync(
    script,
    `const s=require('dgram').createSocket('udp4');s.on('message',(m,r)=>s.send(m,r.port,r.address));s.bind(0,'127.0.0.1',()=>console.log('port '+s.address().port));`,
  );
  const echo = group.spawn('udp-echo', process.execPath, [script], { urgent: true });
  const child = echo.child;
  try {
    while (!/port (\d+)/.test(echo.output())) await sleep(20);
    const port = Number(/port (\d+)/.exec(echo.output())![1]);
    const rtts: number[] = [];
    let sent = 0;
    let measuring = false;
    const sockets: Socket[] = await Promise.all(
      Array.from({ length: streams }, async () => {
        const s = createSocket('udp4');
        s.on('message', (m) => {
          if (measuring) rtts.push(performance.now() - m.readDoubleBE(12));
        });
        await new Promise<void>((resolve) => s.bind(0, '127.0.0.1', () => resolve()));
        return s;
      }),
    );
    const timer = setInterval(() => {
      for (const s of sockets) {
        const packet = Buffer.alloc(172, 0x80);
        packet.writeDoubleBE(performance.now(), 12);
        s.send(packet, port, '127.0.0.1');
        if (measuring) sent++;
      }
    }, 20);
    await sleep(1_000);
    measuring = true;
    const before = cpuSeconds(child.pid!);
    await sleep(windowMs);
    const cpu = (cpuSeconds(child.pid!) - before) / (windowMs / 1000);
    measuring = false;
    clearInterval(timer);
    await sleep(200);
    sockets.forEach((s) => s.close());
    rtts.sort((a, b) => a - b);
    const p99Ms = rtts.length ? rtts[Math.min(rtts.length - 1, Math.ceil(0.99 * rtts.length) - 1)] : Infinity;
    return { streams, p99Ms, returned: rtts.length / Math.max(1, sent), cpu };
  } finally {
    await echo.stop();
  }
}
