import { createSocket } from 'node:dgram';
import { join } from 'node:path';
import { GATEWAY_DIR } from './paths';
import { ProcessGroup, Spawned } from './processes';

export interface GatewaySettings {
  sipPort: number;
  sipDomain: string;
  trunklineUrl: string;
  gatewayKey: string;
  caFile: string;
  /** More of the configuration's environment (the bench's GATEWAY_STATIC_TRUNK, GATEWAY_LOOKUP_CACHE). */
  env?: Record<string, string>;
}

/** The reference gateway (deploy/kamailio/run.sh) on 127.0.0.1, answering OPTIONS before this resolves. */
export async function startGateway(group: ProcessGroup, settings: GatewaySettings): Promise<Spawned> {
  const gateway = group.spawn('kamailio', join(GATEWAY_DIR, 'run.sh'), ['-m', '64', '-M', '8'], {
    env: {
      PATH: process.env.PATH ?? '',
      SIP_LISTEN: `udp:127.0.0.1:${settings.sipPort}`,
      SIP_DOMAIN: settings.sipDomain,
      TRUNKLINE_URL: settings.trunklineUrl,
      TRUNKLINE_GATEWAY_KEY: settings.gatewayKey,
      TRUNKLINE_CA_FILE: settings.caFile,
      MAX_CALLS_PER_TRUNK: '200',
      ...settings.env,
    },
    urgent: true,
  });
  // The config is only known to work once Kamailio answers: `kamailio -c` accepts configurations that fail at start.
  // A busy machine starts it slowly: the tests' start deadline (test/support/deadlines.ts) applies.
  const limitMs = Number(process.env.TEST_START_DEADLINE_MS ?? 180_000);
  const deadline = Date.now() + limitMs;
  while ((await options(settings.sipPort)) !== 200) {
    if (gateway.child.exitCode !== null) throw new Error(`Kamailio exited:\n${gateway.output()}`);
    if (Date.now() > deadline)
      throw new Error(`Kamailio did not answer OPTIONS in ${limitMs} ms:\n${gateway.output()}`);
  }
  return gateway;
}

/** The status of one OPTIONS sent to 127.0.0.1:port (0 without an answer in 500 ms). */
function options(port: number): Promise<number> {
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
      const local = socket.address().port;
      const tag = Math.random().toString(36).slice(2);
      const request = [
        `OPTIONS sip:ping@127.0.0.1:${port} SIP/2.0`,
        `Via: SIP/2.0/UDP 127.0.0.1:${local};branch=z9hG4bK${tag}`,
        'Max-Forwards: 70',
        `From: <sip:probe@127.0.0.1>;tag=${tag}`,
        `To: <sip:ping@127.0.0.1:${port}>`,
        `Call-ID: ${tag}@127.0.0.1`,
        'CSeq: 1 OPTIONS',
        'Content-Length: 0',
        '',
        '',
      ].join('\r\n');
      socket.send(request, port, '127.0.0.1');
    });
  });
}
