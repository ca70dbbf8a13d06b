import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';

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
 * bases below the kernel's ephemeral range, so suites running beside this one and the ports the
 * kernel picks for port 0 do not collide.
 */
export async function freeUdpRange(count: number, hosts: string[]): Promise<number> {
  // Below the ephemeral range: a port the kernel hands out for port 0 (freeUdpPort's SIP ports,
  // any client's socket) is never one of these. Bases up to 50,000 put ranges inside it, and in CI
  // (session 11) the media gateway's bind found one of its ports taken (EADDRINUSE 127.0.0.1:39864).
  const [lowest, highest] = [10_000, ephemeralLow() - count];
  if (highest <= lowest) throw new Error(`no room for ${count} UDP ports below the ephemeral range`);
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = lowest + 2 * Math.floor(Math.random() * ((highest - lowest) / 2));
    let free = true;
    for (let port = base; port < base + count && free; port++) {
      for (const host of hosts) if (!(await canBind(port, host))) free = false;
    }
    if (free) return base;
  }
  throw new Error(`no ${count} consecutive free UDP ports`);
}

/** The first port of the kernel's ephemeral range (Linux: ip_local_port_range; 32768 elsewhere). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 1024 ? low : 32_768;
  } catch {
    return 32_768;
  }
}
