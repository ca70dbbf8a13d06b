import { createSocket } from 'node:dgram';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GATEWAY_DIR } from './paths';
import { ProcessGroup, sleep, Spawned } from './processes';

export interface GatewaySettings {
  /** The UDP port OPTIONS probes go to (and the only socket, unless `listen` says otherwise). */
  sipPort: number;
  sipDomain: string;
  trunklineUrl: string;
  gatewayKey: string;
  caFile: string;
  /** SIP_LISTEN (default udp:127.0.0.1:<sipPort>); must include udp:127.0.0.1:<sipPort>. */
  listen?: string;
  /** GATEWAY_STATE_DIR: the same directory brings a restarted gateway's dialogs and spool back. */
  stateDir?: string;
  /** Resolve once OPTIONS answers 200 (default), or once it answers at all (Trunkline down). */
  ready?: 'ok' | 'answering';
  /** More of the configuration's environment (the bench's GATEWAY_STATIC_TRUNK, GATEWAY_LOOKUP_CACHE). */
  env?: Record<string, string>;
}

/** The reference gateway (deploy/kamailio/run.sh) on 127.0.0.1, answering OPTIONS before this resolves. */
export async function startGateway(group: ProcessGroup, settings: GatewaySettings): Promise<Spawned> {
  const gateway = group.spawn('kamailio', join(GATEWAY_DIR, 'run.sh'), ['-m', '64', '-M', '8'], {
    env: {
      PATH: process.env.PATH ?? '',
      SIP_LISTEN: settings.listen ?? `udp:127.0.0.1:${settings.sipPort}`,
      SIP_DOMAIN: settings.sipDomain,
      TRUNKLINE_URL: settings.trunklineUrl,
      TRUNKLINE_GATEWAY_KEY: settings.gatewayKey,
      TRUNKLINE_CA_FILE: settings.caFile,
      GATEWAY_STATE_DIR: settings.stateDir ?? mkdtempSync(join(tmpdir(), 'trunkline-gateway-')),
      MAX_CALLS_PER_TRUNK: '200',
      ...settings.env,
    },
    urgent: true,
  });
  // The config is only known to work once Kamailio answers: `kamailio -c` accepts configurations that fail at start.
  // A busy machine starts it slowly: the tests' start deadline (test/support/deadlines.ts) applies.
  const limitMs = Number(process.env.TEST_START_DEADLINE_MS ?? 180_000);
  const deadline = Date.now() + limitMs;
  for (;;) {
    const status = await optionsStatus(settings.sipPort);
    if (status === 200 || (settings.ready === 'answering' && status !== 0)) break;
    if (gateway.child.exitCode !== null) throw new Error(`Kamailio exited:\n${gateway.output()}`);
    if (Date.now() > deadline)
      throw new Error(`Kamailio did not answer OPTIONS in ${limitMs} ms:\n${gateway.output()}`);
    if (status !== 0) await sleep(100);
  }
  return gateway;
}

/** The status of one OPTIONS sent to 127.0.0.1:port over UDP (0 without an answer in 500 ms). */
export function optionsStatus(port: number): Promise<number> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const done = (status: number) => {
      clearTimeout(timer);
      socket.close();
      resolve(status);
    };
    const timer = setTimeout(() => done(0), 500);
    socket.on('message', (message) => done(Number(/^SIP\/2\.0 (\d{3})/.exec(message.toString())?.[1] ?? 0)));
    socket.bind(0, '127.0.0.1', () => {
      const request = optionsRequest('127.0.0.1', socket.address().port, port, Math.random().toString(36).slice(2));
      socket.send(request, port, '127.0.0.1');
    });
  });
}

/** An OPTIONS from `localIp`:`local` to the gateway on 127.0.0.1:port, `tag` making it a request of its own. */
export function optionsRequest(localIp: string, local: number, port: number, tag: string): string {
  return [
    `OPTIONS sip:ping@127.0.0.1:${port} SIP/2.0`,
    `Via: SIP/2.0/UDP ${localIp}:${local};branch=z9hG4bK${tag}`,
    'Max-Forwards: 70',
    `From: <sip:probe@${localIp}>;tag=${tag}`,
    `To: <sip:ping@127.0.0.1:${port}>`,
    `Call-ID: ${tag}@${localIp}`,
    'CSeq: 1 OPTIONS',
    'Content-Length: 0',
    '',
    '',
  ].join('\r\n');
}
