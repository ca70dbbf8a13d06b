import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SETTLE_DEADLINE_MS, START_DEADLINE_MS } from '../support/deadlines';
import { freePort, until } from '../support/free-port';
import { ApiClient } from '../support/http-client';
import { ServiceProcess } from '../support/service-process';
import { customBody, trunkBody } from '../support/trunk-requests';
import { GatewaySettings, optionsRequest, optionsStatus, startGateway } from '../../bench/lib/sip/gateway';
import { freeUdpPort, ProcessGroup, sleep, Spawned } from '../../bench/lib/sip/processes';
import { CallRun, recordIdOf, runCalls, startAgent } from '../../bench/lib/sip/sipp';
import { gatewayReport, listedCalls, logged, succeeded, trunkRejections } from './support/records';
import { startHoldingProxy } from './support/holding-proxy';
import { caFileOf, provision, SIP_DOMAIN, startTrunkline, TrunklineSettings } from './support/trunkline';

/**
 * The gateway's edges (issue 25): restarts with calls up and records queued, a rotation seen at
 * once, the agent's refusals, health and the transports, defences, REGISTER. One Trunkline, one
 * gateway on UDP, TCP and TLS with short settings (ban after 5 failures, floods of 40 requests).
 */
const PASSWORD = 'correct-horse-battery';
const BAN_FAILURES = 5;
const FLOOD_REQUESTS = 40;

describe('the reference SIP gateway at its edges', () => {
  const group = new ProcessGroup();
  const dir = mkdtempSync(join(tmpdir(), 'trunkline-sip-edge-'));
  const stateDir = join(dir, 'gateway-state');
  let settings: TrunklineSettings;
  let service: ServiceProcess;
  let client: ApiClient;
  let gatewayKey: string;
  let gateway: Spawned;
  let gatewaySettings: GatewaySettings;
  let udpPort: number;
  let agentPort: number;
  let tcpPort: number;
  let tlsPort: number;

  const trunk = async (body: Record<string, unknown> = customBody({ sip_password: PASSWORD })) => {
    const created = await client.post('/v1/trunks', body);
    if (created.status !== 201) throw new Error(`trunk: ${created.text}`);
    return created.body as { id: string; sip_username: string };
  };
  type Run = Omit<CallRun, 'gatewayPort' | 'scenario'> & Partial<Pick<CallRun, 'gatewayPort' | 'scenario'>>;
  const calls = (run: Run) => runCalls(group, dir, { scenario: 'carrier-call', gatewayPort: udpPort, ...run });
  const refused = (run: Omit<Run, 'calls'>) =>
    runCalls(group, dir, { scenario: 'carrier-refused', gatewayPort: udpPort, calls: 1, ...run });
  const listed = (trunkId: string) => listedCalls(client, trunkId);
  const rejections = (trunkId: string) => trunkRejections(client, trunkId);
  /** The gateway's rejections of requests from `source`, as its key lists them. */
  const gatewayRejections = async (source: string) =>
    (await client.withKey(gatewayKey).get(`/v1/gateway/rejections?source_address=${source}&limit=100`)).body
      .rejections as any[];
  /** SIGTERM, then the same gateway again on the same sockets and state directory. */
  const restartGateway = async (ready: GatewaySettings['ready']) => {
    await gateway.stop(20_000);
    gateway = await startGateway(group, { ...gatewaySettings, ready });
  };
  /** The gateway's log lines since its last start that match `pattern`. */
  const gatewayLog = (pattern: RegExp) =>
    gateway
      .output()
      .split('\n')
      .filter((line) => pattern.test(line));

  beforeAll(async () => {
    agentPort = await freeUdpPort();
    const refuserPort = await freeUdpPort();
    udpPort = await freeUdpPort();
    tcpPort = await freePort();
    tlsPort = await freePort();
    settings = {
      dataDir: join(dir, 'trunkline'),
      port: await freePort(),
      agentPort,
      silentPort: await freeUdpPort(),
      refuserPort,
    };
    startAgent(group, agentPort, dir);
    startAgent(group, refuserPort, dir, 'agent-refuses');
    service = await startTrunkline(group, settings);
    const provisioned = await provision(service);
    client = provisioned.client;
    gatewayKey = provisioned.gatewayKey;
    mkdirSync(stateDir);
    gatewaySettings = {
      sipPort: udpPort,
      listen: `udp:127.0.0.1:${udpPort} tcp:127.0.0.1:${tcpPort} tls:127.0.0.1:${tlsPort}`,
      stateDir,
      sipDomain: SIP_DOMAIN,
      trunklineUrl: `${service.origin}/v1`,
      gatewayKey,
      caFile: caFileOf(settings.dataDir),
      env: {
        // Trunkline's own certificate and key serve the gateway's TLS socket in this test.
        TLS_CERTIFICATE_FILE: caFileOf(settings.dataDir),
        TLS_PRIVATE_KEY_FILE: join(settings.dataDir, 'tls', 'key.pem'),
        GATEWAY_BAN_FAILURES: String(BAN_FAILURES),
        GATEWAY_FLOOD_REQUESTS: String(FLOOD_REQUESTS),
        REGISTER_MIN_EXPIRES: '1',
      },
    };
    gateway = await startGateway(group, gatewaySettings);
  });

  // A case that fails while Trunkline is stopped leaves it stopped: the next case gets it back. So
  // does a case that leaves the gateway gone or not answering (no answer to five OPTIONS in a row):
  // the next case gets a gateway restarted on the same state, and the log says why.
  afterEach(async () => {
    if (service.child.exitCode !== null || service.child.signalCode !== null) {
      service = await startTrunkline(group, settings);
    }
    for (let attempt = 0; attempt < 5; attempt++) if ((await optionsStatus(udpPort)) !== 0) return;
    console.warn(`no answer to OPTIONS after the case: restarting ${gatewayReport(gateway)}`);
    await restartGateway('ok');
  });

  afterAll(async () => {
    await group.stopAll();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A trunk whose lookups Trunkline is slow to answer (a relay holds them until `release()`), and a
   * gateway of its own (UDP only, lookup timeout 25 s: above how long a test holds them) asking
   * Trunkline through that relay.
   */
  async function slowLookups(state: string, env: Record<string, string>) {
    const slow = await trunk();
    const proxy = await startHoldingProxy({
      target: service.origin,
      cert: service.ca,
      key: readFileSync(join(settings.dataDir, 'tls', 'key.pem'), 'utf8'),
      ca: service.ca,
      holds: (path) => path === `/v1/gateway/trunks/${slow.sip_username.toLowerCase()}`,
    });
    const slowPort = await freeUdpPort();
    const slowGateway = await startGateway(group, {
      ...gatewaySettings,
      sipPort: slowPort,
      listen: `udp:127.0.0.1:${slowPort}`,
      stateDir: join(dir, state),
      trunklineUrl: `${proxy.origin}/v1`,
      env: { GATEWAY_LOOKUP_TIMEOUT: '25', ...env },
    });
    return { slow, proxy, slowPort, slowGateway };
  }

  /** Exactly these SIPp calls are listed, once each, answered and hung up by the caller. */
  async function expectRecordedOnce(trunkId: string, callIds: string[], minTalkS: number) {
    try {
      await until(
        'the call records in GET /v1/calls',
        async () => (await listed(trunkId)).length >= callIds.length,
        SETTLE_DEADLINE_MS,
      );
    } catch (error) {
      throw new Error(
        `${(error as Error).message}; the gateway's log:\n${gatewayLog(/WARN|ERR|NOTICE/)
          .slice(-40)
          .join('\n')}`,
        { cause: error },
      );
    }
    // Anything posted twice would show up as a second row a moment later.
    await sleep(1000);
    const records = await listed(trunkId);
    expect(records.map((r) => r.id).sort()).toEqual(callIds.map(recordIdOf).sort());
    for (const { id } of records) {
      const record = (await client.get(`/v1/calls/${id}`)).body;
      expect(record).toMatchObject({ status: 'connected', sip_code: 200, disconnect_reason: 'caller_hangup' });
      expect(record.billable_seconds).toBe(
        Math.floor((Date.parse(record.end_time) - Date.parse(record.answered_at)) / 1000),
      );
      expect(record.billable_seconds).toBeGreaterThanOrEqual(minTalkS);
    }
  }

  it('records calls that are up across a gateway restart exactly once', async () => {
    const line = await trunk();
    const up = calls({ user: line.sip_username, password: PASSWORD, calls: 5, rate: 10, pauseMs: 5000 });
    await sleep(2000);
    await restartGateway('ok');
    // The restarted gateway found the calls' dialogs in its state database.
    const run = await up;
    succeeded(run, gateway);
    await expectRecordedOnce(
      line.id,
      run.calls.map((c) => c.callId),
      5,
    );
  });

  it('keeps records queued and calls up across a restart while Trunkline is down, skips a corrupt spool entry, and answers OPTIONS 503 meanwhile', async () => {
    const line = await trunk();
    // Both batches are up when Trunkline stops; the first ends while it is away (its records wait
    // in the queue), the second after the gateway restarted.
    const short = calls({ user: line.sip_username, password: PASSWORD, calls: 5, rate: 10, pauseMs: 3000 });
    const long = calls({ user: line.sip_username, password: PASSWORD, calls: 5, rate: 10, pauseMs: 9000 });
    await sleep(1500);
    service.child.kill('SIGTERM');
    await service.exited;
    const shortRun = await short;
    succeeded(shortRun, gateway);
    await gateway.stop(20_000);
    // A damaged row in the spool (a record cut short): skipped with a log line at the next start.
    execFileSync('sqlite3', [
      join(stateDir, 'spool.sqlite'),
      `INSERT INTO calls (key, val) VALUES ('call_damaged', '{"id":"call_damaged","trunk_id":')`,
    ]);
    // The 5 records (in the queue, or in flight if the stop came during a POST) and the damaged row.
    const spooled = execFileSync('sqlite3', [
      join(stateDir, 'spool.sqlite'),
      'SELECT (SELECT count(*) FROM calls) + (SELECT count(*) FROM calls_inflight)',
    ]);
    expect(Number(spooled.toString())).toBe(6);
    gateway = await startGateway(group, { ...gatewaySettings, ready: 'answering' });
    // Trunkline cannot be reached: the gateway cannot look trunks up and says so.
    expect(await optionsStatus(udpPort)).toBe(503);
    const longRun = await long;
    succeeded(longRun, gateway);
    service = await startTrunkline(group, settings);
    await until(
      'OPTIONS 200 once Trunkline is back',
      async () => (await optionsStatus(udpPort)) === 200,
      SETTLE_DEADLINE_MS,
    );
    await expectRecordedOnce(
      line.id,
      [...shortRun.calls, ...longRun.calls].map((c) => c.callId),
      3,
    );
    expect(gatewayLog(/corrupt spool entry skipped \(key call_damaged/)).toHaveLength(1);
  });

  it('refuses the old password, a deactivated and a deleted trunk as soon as the API call returns, and takes the new password', async () => {
    const line = await trunk();
    let password = PASSWORD;
    succeeded(await calls({ user: line.sip_username, password, calls: 1, pauseMs: 0 }), gateway);
    const trials = 20;
    let oldAccepted = 0;
    let newRefused = 0;
    for (let trial = 0; trial < trials; trial++) {
      const rotated = await client.post(`/v1/trunks/${line.id}/rotate-password`);
      expect(rotated.status).toBe(200);
      const [old, fresh] = await Promise.all([
        refused({ user: line.sip_username, password }),
        calls({ user: line.sip_username, password: rotated.body.sip_password, calls: 1, pauseMs: 0 }),
      ]);
      if (old.exitCode !== 0) oldAccepted++;
      if (fresh.exitCode !== 0) newRefused++;
      password = rotated.body.sip_password;
    }
    expect({ oldAccepted, newRefused }).toEqual({ oldAccepted: 0, newRefused: 0 });
    await until(
      'the rejections of the old passwords',
      async () => (await rejections(line.id)).length === trials,
      SETTLE_DEADLINE_MS,
    );
    expect(new Set((await rejections(line.id)).map((r) => r.reason))).toEqual(new Set(['auth_failed']));

    for (let trial = 0; trial < 3; trial++) {
      const inactive = await trunk();
      succeeded(await calls({ user: inactive.sip_username, password: PASSWORD, calls: 1, pauseMs: 0 }), gateway);
      expect((await client.patch(`/v1/trunks/${inactive.id}`, { status: 'inactive' })).status).toBe(200);
      const run = await refused({ user: inactive.sip_username, password: PASSWORD });
      succeeded(run, gateway);
      expect(logged(run, 'REFUSED')[0][2]).toBe('403');

      const deleted = await trunk();
      succeeded(await calls({ user: deleted.sip_username, password: PASSWORD, calls: 1, pauseMs: 0 }), gateway);
      expect((await client.delete(`/v1/trunks/${deleted.id}`)).status).toBe(204);
      succeeded(await refused({ user: deleted.sip_username, password: PASSWORD }), gateway);
    }
  });

  it("records the code the carrier got: an agent's 486 as agent_busy, its 503 as 500 agent_unavailable", async () => {
    const body = (name: string) =>
      trunkBody({ sip_username: `${name}-${Date.now().toString(36)}`, sip_password: PASSWORD });
    const busy = await trunk(body('busy'));
    const down = await trunk(body('down'));
    const [busyRun, downRun] = await Promise.all([
      refused({ user: busy.sip_username, password: PASSWORD }),
      refused({ user: down.sip_username, password: PASSWORD }),
    ]);
    succeeded(busyRun, gateway);
    succeeded(downRun, gateway);
    // What the carrier got (SIPp logs the final code).
    expect(logged(busyRun, 'REFUSED')[0][2]).toBe('486');
    expect(logged(downRun, 'REFUSED')[0][2]).toBe('500');
    await until(
      'the calls and rejections',
      async () =>
        (await listed(busy.id)).length === 1 &&
        (await listed(down.id)).length === 1 &&
        (await rejections(busy.id)).length === 1 &&
        (await rejections(down.id)).length === 1,
      SETTLE_DEADLINE_MS,
    );
    expect((await listed(busy.id))[0]).toMatchObject({ status: 'failed', sip_code: 486, billable_seconds: 0 });
    expect((await rejections(busy.id))[0]).toMatchObject({ reason: 'agent_busy', sip_code: 486 });
    const unavailable = (await client.get(`/v1/calls/${(await listed(down.id))[0].id}`)).body;
    expect(unavailable).toMatchObject({
      status: 'failed',
      sip_code: 500,
      sip_reason: 'Agent Unavailable',
      billable_seconds: 0,
    });
    expect((await rejections(down.id))[0]).toMatchObject({ reason: 'agent_unavailable', sip_code: 500 });
  });

  it('logs each record it drops with its id when a queue is full', async () => {
    // A gateway of its own: a queue of 2 records, its trunk given statically (calls go through),
    // and a Trunkline address nobody answers on (records stay queued).
    const port = await freeUdpPort();
    const user = 'spool-full';
    const ha1 = createHash('md5').update(`${user}:${SIP_DOMAIN}:${PASSWORD}`).digest('hex');
    const small = await startGateway(group, {
      ...gatewaySettings,
      sipPort: port,
      listen: `udp:127.0.0.1:${port}`,
      stateDir: join(dir, 'small-spool-state'),
      trunklineUrl: `https://127.0.0.1:${await freePort()}/v1`,
      env: {
        GATEWAY_SPOOL_SIZE: '2',
        GATEWAY_STATIC_TRUNK: `active|${ha1}|conn_spoolfull|*|sip:${user}@127.0.0.1:${agentPort}`,
      },
    });
    const run = await calls({ user, password: PASSWORD, calls: 4, rate: 10, pauseMs: 100, gatewayPort: port });
    succeeded(run, small);
    const dropped = () =>
      small
        .output()
        .split('\n')
        .map((line) => /call record (call_[0-9a-f]{32}) dropped: queue full/.exec(line)?.[1])
        .filter((id): id is string => id !== undefined);
    await until('two records dropped', async () => dropped().length >= 2, SETTLE_DEADLINE_MS);
    // 4 records, room for 2: the 2 others are logged once each, by the id of their call.
    const ids = run.calls.map((c) => recordIdOf(c.callId));
    expect(new Set(dropped()).size).toBe(2);
    expect(dropped().every((id) => ids.includes(id))).toBe(true);
    await small.stop();
  });

  it('takes calls over UDP, TCP and TLS, and over TCP alone (agents still reached over UDP)', async () => {
    const line = await trunk();
    // SIPp as packaged has no TLS: its TCP connection goes through a TLS tunnel (socat) that
    // checks the gateway's certificate against Trunkline's CA.
    const tunnelPort = await freePort();
    const tunnel = group.spawn('socat', 'socat', [
      `TCP-LISTEN:${tunnelPort},bind=127.0.0.1,reuseaddr,fork`,
      `OPENSSL:127.0.0.1:${tlsPort},cafile=${caFileOf(settings.dataDir)},commonname=localhost`,
    ]);
    const tcpOnlyPort = await freePort();
    // A gateway given only a TCP socket (it adds UDP on the same address and port for agents).
    const tcpOnly = await startGateway(group, {
      ...gatewaySettings,
      // OPTIONS probes reach it on the UDP socket run.sh adds beside the TCP one.
      sipPort: tcpOnlyPort,
      listen: `tcp:127.0.0.1:${tcpOnlyPort}`,
      stateDir: join(dir, 'tcp-only-state'),
      env: {},
    });
    await until('the TLS tunnel', () => accepts(tunnelPort), START_DEADLINE_MS);
    const runs = await Promise.all([
      calls({ user: line.sip_username, password: PASSWORD, calls: 2, pauseMs: 200 }),
      calls({
        user: line.sip_username,
        password: PASSWORD,
        calls: 2,
        pauseMs: 200,
        transport: 't1',
        gatewayPort: tcpPort,
      }),
      calls({
        user: line.sip_username,
        password: PASSWORD,
        calls: 2,
        pauseMs: 200,
        transport: 't1',
        gatewayPort: tunnelPort,
      }),
    ]);
    for (const run of runs) succeeded(run, gateway);
    const alone = await calls({
      user: line.sip_username,
      password: PASSWORD,
      calls: 2,
      pauseMs: 200,
      transport: 't1',
      gatewayPort: tcpOnlyPort,
    });
    succeeded(alone, tcpOnly);
    await tunnel.stop();
    await until('the 8 records', async () => (await listed(line.id)).length === 8, SETTLE_DEADLINE_MS);
  });

  it("answers other trunks and OPTIONS while Trunkline is slow to look one trunk up, and that trunk's calls once it answers", async () => {
    const other = await trunk();
    // Two SIP workers and four INVITEs whose lookups wait: a gateway whose workers waited for
    // Trunkline would have none left for anything else. The lookup timeout is far above how long
    // the lookups are held (under the 30 s a digest nonce lives).
    const { slow, proxy, slowPort, slowGateway } = await slowLookups('slow-lookup-state', { GATEWAY_SIP_WORKERS: '2' });
    try {
      let slowDone = false;
      const slowCalls = calls({
        user: slow.sip_username,
        password: PASSWORD,
        calls: 4,
        rate: 20,
        pauseMs: 200,
        gatewayPort: slowPort,
      }).finally(() => {
        slowDone = true;
      });
      await until('the four lookups held', async () => proxy.held() === 4, SETTLE_DEADLINE_MS);
      // Meanwhile the gateway answers OPTIONS and completes another trunk's calls.
      expect(await optionsStatus(slowPort)).toBe(200);
      succeeded(
        await calls({ user: other.sip_username, password: PASSWORD, calls: 2, pauseMs: 200, gatewayPort: slowPort }),
        slowGateway,
      );
      expect(await optionsStatus(slowPort)).toBe(200);
      expect(proxy.held()).toBe(4);
      expect(slowDone).toBe(false);
      // Trunkline answers: the held INVITEs go on to their agent.
      proxy.release();
      const run = await slowCalls;
      succeeded(run, slowGateway);
      expect(run.calls).toHaveLength(4);
      await until(
        'the records of both trunks',
        async () => (await listed(slow.id)).length === 4 && (await listed(other.id)).length === 2,
        SETTLE_DEADLINE_MS,
      );
    } finally {
      proxy.release();
      await slowGateway.stop(20_000);
      await proxy.close();
    }
  });

  it('queues lookups past its lookup workers up to GATEWAY_LOOKUP_QUEUE, and answers 503 Over capacity past that', async () => {
    // Two lookup workers and two places in their queue: four lookups admitted, two of them asked.
    const {
      slow,
      proxy,
      slowPort: port,
      slowGateway: queueing,
    } = await slowLookups('lookup-queue-state', { GATEWAY_LOOKUP_CONCURRENCY: '2', GATEWAY_LOOKUP_QUEUE: '2' });
    try {
      let done = false;
      const admitted = calls({
        user: slow.sip_username,
        password: PASSWORD,
        calls: 4,
        rate: 20,
        pauseMs: 200,
        gatewayPort: port,
      }).finally(() => {
        done = true;
      });
      await until('two lookups held, one per worker', async () => proxy.held() === 2, SETTLE_DEADLINE_MS);
      // The other two wait in the workers' queue (asked of no one yet); a fifth finds it full.
      const waiting = () =>
        queueing
          .output()
          .split('\n')
          .filter((l) => l.includes('waits for a lookup worker'));
      await until('two lookups waiting for a worker', async () => waiting().length === 2, SETTLE_DEADLINE_MS);
      const fifth = await refused({ user: slow.sip_username, password: PASSWORD, gatewayPort: port });
      expect(logged(fifth, 'REFUSED')[0][2]).toBe('503');
      expect(proxy.held()).toBe(2);
      expect(done).toBe(false);
      // Trunkline answers: the held lookups and then the queued ones go on to their agent.
      proxy.release();
      const run = await admitted;
      succeeded(run, queueing);
      expect(run.calls).toHaveLength(4);
    } finally {
      proxy.release();
      await queueing.stop(20_000);
      await proxy.close();
    }
  });

  it("bans a scanner's burst of made-up names while a real carrier keeps calling, and a flood of requests", async () => {
    const line = await trunk();
    const names = Array.from({ length: 40 }, (_, i) => `scan-${i}-${Date.now().toString(36)};100`);
    const [scan, carrier] = await Promise.all([
      runCalls(group, dir, {
        scenario: 'scanner',
        gatewayPort: udpPort,
        localIp: '127.0.0.3',
        user: 'x',
        password: 'x',
        calls: names.length,
        rate: 20,
        moreLines: names.slice(1),
        caller: names[0].split(';')[0],
        called: '100',
        vars: { realm: SIP_DOMAIN },
      }),
      calls({ user: line.sip_username, password: PASSWORD, calls: 10, rate: 10, pauseMs: 500 }),
    ]);
    succeeded(scan, gateway);
    succeeded(carrier, gateway);
    // The first BAN_FAILURES made-up names were refused; the last of them banned the source,
    // whose later INVITEs were dropped without an answer (and never looked up). INVITEs already
    // being looked up when the ban began are refused as before: a few at most, at 20 a second.
    const answered = logged(scan, 'ANSWERED').length;
    expect(answered).toBeGreaterThanOrEqual(BAN_FAILURES);
    expect(logged(scan, 'UNANSWERED').length).toBe(names.length - answered);
    expect(answered).toBeLessThanOrEqual(names.length / 2);
    await until(
      "the scanner's rejections",
      async () => (await gatewayRejections('127.0.0.3')).length === answered + 1,
      SETTLE_DEADLINE_MS,
    );
    // Each refused name once (unknown_user), and the ban once (source_banned).
    const reasons = (await gatewayRejections('127.0.0.3')).map((r) => r.reason).sort();
    expect(reasons).toEqual([...Array(answered).fill('unknown_user'), 'source_banned'].sort());
    await until('the carrier records', async () => (await listed(line.id)).length === 10, SETTLE_DEADLINE_MS);

    // A flood of OPTIONS from one more address: pike bans a source past FLOOD_REQUESTS to three
    // times that in its 2 s sampling (its documented precision), then nothing is answered.
    const flooded = await floodOptions('127.0.0.4', udpPort, 400);
    expect(flooded).toBeGreaterThan(0);
    expect(flooded).toBeLessThanOrEqual(3 * FLOOD_REQUESTS + 1);
    await until(
      "the flood's ban",
      async () => (await gatewayRejections('127.0.0.4')).some((r) => r.reason === 'source_banned'),
      SETTLE_DEADLINE_MS,
    );
  });

  it("counts neither a request's retransmissions nor, after a restart, a source it trusted before toward a flood", async () => {
    // From an address of its own, an INVITE with credentials for a name no trunk has, then the very
    // same datagram again, 4 × FLOOD_REQUESTS copies in all within one 2 s sample (a carrier
    // retransmitting through a slow moment): its transaction answers every copy, none counts toward
    // a flood (pike alone would ban the source by 3 × FLOOD_REQUESTS + 1), and its one refusal is
    // reported once.
    const retransmitter = '127.0.0.5';
    const user = `nosuch-${Date.now().toString(36)}`;
    const copies = 4 * FLOOD_REQUESTS;
    const answers = await udpBurst(
      retransmitter,
      udpPort,
      (local) => Array<string>(copies).fill(inviteRequest(retransmitter, local, udpPort, user)),
      5,
    );
    expect(answers.length).toBeGreaterThan(3 * FLOOD_REQUESTS + 1);
    expect(answers).toContain('SIP/2.0 403 Forbidden');
    expect(answers.filter((a) => !/^SIP\/2\.0 (100 Trying|403 Forbidden)$/.test(a))).toEqual([]);
    expect(await floodOptions(retransmitter, udpPort, 1)).toBe(1);
    await until(
      "the retransmitted INVITE's rejection",
      async () => (await gatewayRejections(retransmitter)).length > 0,
      SETTLE_DEADLINE_MS,
    );
    await sleep(1000);
    expect((await gatewayRejections(retransmitter)).map((r) => r.reason)).toEqual(['unknown_user']);

    // A source whose credentials were accepted stays trusted across a restart: a burst of 4 ×
    // FLOOD_REQUESTS requests right after it is answered in full, and nothing is banned.
    const line = await trunk();
    const carrier = '127.0.0.6';
    succeeded(
      await calls({ user: line.sip_username, password: PASSWORD, calls: 1, pauseMs: 0, localIp: carrier }),
      gateway,
    );
    await restartGateway('ok');
    expect(await floodOptions(carrier, udpPort, 4 * FLOOD_REQUESTS, 5)).toBeGreaterThan(3 * FLOOD_REQUESTS + 1);
    expect(await floodOptions(carrier, udpPort, 1)).toBe(1);
    expect(gatewayLog(/banned/)).toEqual([]);
    expect((await gatewayRejections(carrier)).map((r) => r.reason)).toEqual([]);
  });

  it('registers a trunk with its digest credentials, keeps the registration with its expiry, and takes only the new password after a rotation', async () => {
    const line = await trunk();
    const register = (password: string, scenario: CallRun['scenario'] = 'carrier-register') =>
      runCalls(group, dir, {
        scenario,
        gatewayPort: udpPort,
        user: line.sip_username,
        password,
        calls: 1,
        service: line.sip_username,
        vars: { expires: '30' },
      });
    succeeded(await register(PASSWORD), gateway);
    const stored = () =>
      execFileSync('sqlite3', [
        join(stateDir, 'registrations.sqlite'),
        // db_sqlite keeps times as Julian day numbers: strftime gives Unix seconds.
        `SELECT username, strftime('%s', expires) FROM location WHERE username = '${line.sip_username.toLowerCase()}'`,
      ])
        .toString()
        .trim();
    await until('the registration in the state database', async () => stored() !== '', SETTLE_DEADLINE_MS);
    const [, expires] = stored().split('|');
    // Registered for the 30 s asked (the row is written by the usrloc timer within 2 s).
    const left = Number(expires) * 1000 - Date.now();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(31_000);

    const rotated = await client.post(`/v1/trunks/${line.id}/rotate-password`);
    expect(rotated.status).toBe(200);
    succeeded(await register(PASSWORD, 'carrier-register-refused'), gateway);
    succeeded(await register(rotated.body.sip_password), gateway);
  });
});

/** True once something listens on 127.0.0.1:port (TCP). */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** An INVITE from `localIp`:`local` with digest credentials for `user` (a made-up response: refused once looked up). */
function inviteRequest(localIp: string, local: number, port: number, user: string): string {
  const tag = Math.random().toString(36).slice(2);
  return [
    `INVITE sip:100@127.0.0.1:${port} SIP/2.0`,
    `Via: SIP/2.0/UDP ${localIp}:${local};branch=z9hG4bK${tag}`,
    'Max-Forwards: 70',
    `From: <sip:${user}@${SIP_DOMAIN}>;tag=${tag}`,
    `To: <sip:100@${SIP_DOMAIN}>`,
    `Call-ID: ${tag}@${localIp}`,
    'CSeq: 2 INVITE',
    `Contact: <sip:${user}@${localIp}:${local}>`,
    `Proxy-Authorization: Digest username="${user}", realm="${SIP_DOMAIN}", nonce="0", uri="sip:100@127.0.0.1:${port}", response="${'0'.repeat(32)}"`,
    'Content-Length: 0',
    '',
    '',
  ].join('\r\n');
}

/**
 * Sends the requests `build` makes (given the local UDP port) from `localIp` to the gateway, one
 * every `gapMs` (0: all at once); resolves with the status line of every answer received within
 * 2 s of the last.
 */
function udpBurst(localIp: string, port: number, build: (local: number) => string[], gapMs = 0): Promise<string[]> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const answers: string[] = [];
    socket.on('message', (message) => answers.push(message.toString().split('\r\n')[0]));
    socket.bind(0, localIp, async () => {
      for (const request of build(socket.address().port)) {
        socket.send(request, port, '127.0.0.1');
        if (gapMs > 0) await sleep(gapMs);
      }
      setTimeout(() => {
        socket.close();
        resolve(answers);
      }, 2000);
    });
  });
}

/** Sends `count` OPTIONS from `localIp`, `gapMs` apart (0: as fast as it can); resolves with how many were answered. */
async function floodOptions(localIp: string, port: number, count: number, gapMs = 0): Promise<number> {
  const answers = await udpBurst(
    localIp,
    port,
    (local) =>
      Array.from({ length: count }, (_, i) =>
        optionsRequest(localIp, local, port, `${i}x${Math.random().toString(36).slice(2)}`),
      ),
    gapMs,
  );
  return answers.length;
}
