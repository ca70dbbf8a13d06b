import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, until } from '../support/free-port';
import { ApiClient } from '../support/http-client';
import { testCertificate } from '../support/provider-stubs';
import { customBody } from '../support/trunk-requests';
import { freeUdpPort, ProcessGroup, sleep } from '../../bench/lib/sip/processes';
import { BenchCall, Carrier, sendFrame } from '../../bench/media/bench-carrier';
import { recordIdOf } from '../../bench/lib/sip/sipp';
import { WorkerMediaLegs } from '../../media-gateway/src/call/media-workers';
import { MediaGateway } from '../../media-gateway/src/gateway';
import { gatewayLogger } from '../../media-gateway/src/logger';
import { loadSettings, Settings } from '../../media-gateway/src/settings';
import { caFileOf, provision } from '../sip/support/trunkline';
import { MockAgent, startMockAgent } from './support/mock-agent';
import { startTrunkline } from './support/trunkline';
import { freeUdpRange } from './support/udp-range';

const RTP_PORTS = 40;

/**
 * Media workers (docs/media-gateway.md, "Media workers"): the gateway in this process with two
 * worker threads, calls from a carrier straight to it, an echoing agent. A worker that dies ends
 * its own calls only, each with a BYE and a record, and the gateway keeps taking calls.
 */
describe('media workers', () => {
  const group = new ProcessGroup();
  const dir = mkdtempSync(join(tmpdir(), 'trunkline-media-workers-'));
  let agent: MockAgent;
  let client: ApiClient;
  let settings: Settings;
  let legs: WorkerMediaLegs;
  let gateway: MediaGateway;
  let carrier: Carrier;
  let user: string;

  beforeAll(async () => {
    const certificate = await testCertificate();
    agent = await startMockAgent({ certificate, echo: true });
    writeFileSync(join(dir, 'ca.pem'), certificate.cert);
    const sipPort = await freeUdpPort();
    const trunkline = { dataDir: join(dir, 'trunkline'), port: await freePort(), mediaGatewayPort: sipPort };
    const service = await startTrunkline(group, trunkline);
    const provisioned = await provision(service);
    client = provisioned.client;
    const trunk = await client.post(
      '/v1/trunks',
      customBody({ sip_password: 'workers-pass-1', custom_endpoint: agent.url }),
    );
    if (trunk.status !== 201) throw new Error(`trunk: ${trunk.text}`);
    user = trunk.body.sip_username;
    const rtpMin = await freeUdpRange(RTP_PORTS, ['127.0.0.1']);
    settings = loadSettings({
      TRUNKLINE_URL: `${service.origin}/v1`,
      TRUNKLINE_GATEWAY_KEY: provisioned.gatewayKey,
      TRUNKLINE_CA_FILE: caFileOf(trunkline.dataDir),
      AGENT_CA_FILE: join(dir, 'ca.pem'),
      SIP_HOST: '127.0.0.1',
      SIP_PORT: String(sipPort),
      RTP_PORT_MIN: String(rtpMin),
      RTP_PORT_MAX: String(rtpMin + RTP_PORTS - 1),
      TRUSTED_SOURCES: '127.0.0.1',
      SPOOL_DIR: join(dir, 'spool'),
      MEDIA_WORKERS: '2',
      MEDIA_TIMEOUT_MS: '60000',
      LOG_LEVEL: 'warn',
    });
    const log = gatewayLogger(settings);
    legs = new WorkerMediaLegs(settings, log);
    gateway = new MediaGateway(settings, log, legs);
    await gateway.start();
    carrier = await Carrier.open(sipPort);
  });

  afterAll(async () => {
    carrier?.close();
    await gateway?.stop();
    await legs?.stop();
    await agent?.close();
    await group.stopAll();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The stored record of a call, once it has arrived. */
  const record = async (call: BenchCall): Promise<any> => {
    let found: any = null;
    await until(
      `the record of ${call.callId}`,
      async () => {
        const got = await client.get(`/v1/calls/${recordIdOf(call.callId)}`);
        found = got.body;
        return got.status === 200;
      },
      120_000,
    );
    return found;
  };

  it('ends only the calls of a worker that dies, each with a BYE and a record, and keeps taking calls', async () => {
    const calls: BenchCall[] = [];
    for (let i = 0; i < 4; i++) calls.push(await carrier.call(user, i));
    const streaming = setInterval(() => calls.forEach(sendFrame), 20);
    try {
      // Worker 0 holds the first half of the RTP port range.
      const span = Math.floor((settings.rtpPortMax - settings.rtpPortMin + 1) / 2);
      const onFirst = calls.filter((c) => c.remotePort < settings.rtpPortMin + span);
      const onSecond = calls.filter((c) => !onFirst.includes(c));
      expect(onFirst.length).toBeGreaterThan(0);
      expect(onSecond.length).toBeGreaterThan(0);
      await until('every call hears its echo', async () => calls.every((c) => c.received > 10), 60_000);

      await legs.terminateWorker(0);

      await until(
        'a BYE for each call of the dead worker',
        async () => onFirst.every((c) => carrier.byes.has(c.callId)),
        60_000,
      );
      const heard = onSecond.map((c) => c.received);
      await until(
        "the other worker's calls still hear their echo",
        async () => onSecond.every((c, i) => c.received > heard[i] + 25),
        60_000,
      );
      expect(onSecond.filter((c) => carrier.byes.has(c.callId))).toEqual([]);

      // The gateway keeps serving: a new call is answered and echoed (the dead worker was started again).
      const next = await carrier.call(user, 10);
      calls.push(next);
      await until('the new call hears its echo', async () => next.received > 10, 60_000);

      for (const c of onFirst) {
        const stored = await record(c);
        expect(stored.disconnect_reason).toBe('agent_error');
        expect(stored.sip_code).toBe(200);
      }
    } finally {
      clearInterval(streaming);
    }
    const hungUp = calls.filter((c) => !carrier.byes.has(c.callId));
    for (const c of hungUp) expect((await c.bye()).status).toBe(200);
    await sleep(200);
    calls.forEach((c) => c.socket.close());
    for (const c of hungUp) expect((await record(c)).disconnect_reason).toBe('caller_hangup');
  });
});
