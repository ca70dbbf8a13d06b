import { createSocket } from 'node:dgram';

const canBind = (port: number, host: string) =>
  new Promise<boolean>((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => {
      socket.close();
      resolve(false);
    });
    socket.bind(port, host, () => socket.close(() => resolve(true)));
  });

/**
 * A run of `count` consecutive UDP ports (starting even) free on every one of `hosts` right now:
 * the media gateway's RTP range. Probed like freeUdpPort (bench/lib/sip/processes.ts), from random
 * bases outside the kernel's ephemeral range, so suites running beside this one do not collide.
 */
export async function freeUdpRange(count: number, hosts: string[]): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + 2 * Math.floor(Math.random() * ((30_000 - count) / 2));
    let free = true;
    for (let port = base; port < base + count && free; port++) {
      for (const host of hosts) if (!(await canBind(port, host))) free = false;
    }
    if (free) return base;
  }
  throw new Error(`no ${count} consecutive free UDP ports`);
}
