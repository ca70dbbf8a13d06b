import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, until } from '../support/free-port';
import { ApiClient } from '../support/http-client';
import { ServiceProcess } from '../support/service-process';
import { customBody, elevenlabsBody } from '../support/trunk-requests';
import { startGateway } from '../../bench/lib/sip/gateway';
import { freeUdpPort, ProcessGroup, sleep } from '../../bench/lib/sip/processes';
import { CallRun, recordIdOf, runCalls, SippCall, startAgent } from '../../bench/lib/sip/sipp';
import { listedCalls, succeeded, trunkRejections } from './support/records';
import { caFileOf, provision, startTrunkline, TrunklineSettings } from './support/trunkline';

/**
 * Real SIP through the reference gateway (deploy/kamailio): SIPp as the carrier and as the agent,
 * Kamailio in between, Trunkline on its embedded defaults; loopback only (docs/sip-gateway.md).
 */
const PASSWORD = 'correct-horse-battery';
/** Record times are whole milliseconds; SIPp's are microseconds. */
const ROUNDING_MS = 1;

describe('the reference SIP gateway under real SIP traffic', () => {
  const group = new ProcessGroup();
  const dir = mkdtempSync(join(tmpdir(), 'trunkline-sip-'));
  let settings: TrunklineSettings;
  let service: ServiceProcess;
  let client: ApiClient;
  let gatewayPort: number;
  /** Created first: by the last case, its creation has left the change feed's 10 s overlap. */
  let spooled: { id: string; sip_username: string };
  let spooledAt: number;

  const trunk = async (overrides: Record<string, unknown> = {}) => {
    const created = await client.post('/v1/trunks', customBody({ sip_password: PASSWORD, ...overrides }));
    if (created.status !== 201) throw new Error(`trunk: ${created.text}`);
    return created.body as { id: string; sip_username: string };
  };
  const calls = (run: Omit<CallRun, 'gatewayPort' | 'scenario'> & { scenario?: CallRun['scenario'] }) =>
    runCalls(group, dir, { scenario: 'carrier-call', gatewayPort, ...run });
  const refused = (run: Omit<CallRun, 'gatewayPort' | 'scenario' | 'calls'>) =>
    runCalls(group, dir, { scenario: 'carrier-refused', gatewayPort, calls: 1, ...run });
  const listed = (trunkId: string) => listedCalls(client, trunkId);
  const rejections = (trunkId: string) => trunkRejections(client, trunkId);

  beforeAll(async () => {
    const agentPort = await freeUdpPort();
    gatewayPort = await freeUdpPort();
    settings = { dataDir: join(dir, 'trunkline'), port: await freePort(), agentPort, silentPort: await freeUdpPort() };
    startAgent(group, agentPort, dir);
    service = await startTrunkline(group, settings);
    const provisioned = await provision(service);
    client = provisioned.client;
    await startGateway(group, {
      sipPort: gatewayPort,
      sipDomain: 'sip.trunkline.test',
      trunklineUrl: `${service.origin}/v1`,
      gatewayKey: provisioned.gatewayKey,
      caFile: caFileOf(settings.dataDir),
    });
    spooled = await trunk();
    spooledAt = Date.now();
  });

  afterAll(async () => {
    await group.stopAll();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every SIPp call has its record, with the setup and talk time SIPp measured. */
  async function expectRecorded(trunkId: string, sipp: SippCall[]): Promise<any[]> {
    await until(
      'the call records in GET /v1/calls',
      async () => (await listed(trunkId)).length >= sipp.length,
      SETTLE_DEADLINE_MS,
    );
    const records = await listed(trunkId);
    expect(records).toHaveLength(sipp.length);
    const byId = new Map(records.map((r) => [r.id, r]));
    const off: object[] = [];
    for (const call of sipp) {
      const record = byId.get(recordIdOf(call.callId));
      expect(record).toMatchObject({ status: 'connected', failure_class: 'normal', sip_code: 200 });
      // billable_seconds: answer to end, as the gateway sent it and Trunkline derives it.
      expect(record.billable_seconds).toBe(
        Math.floor((Date.parse(record.end_time) - Date.parse(record.answered_at)) / 1000),
      );
      // Each moment the gateway stamped lies between what SIPp saw around it: the INVITE sent and
      // its 200 received; the 200 received (answer relayed before); the BYE sent and its 200
      // received. Brackets, not a tolerance: a busy machine delays delivery, not the order.
      const at = {
        invite: Date.parse(record.invite_at),
        answered: Date.parse(record.answered_at),
        end: Date.parse(record.end_time),
      };
      const inside = (low: number, stamp: number, high: number) =>
        low - ROUNDING_MS <= stamp && stamp <= high + ROUNDING_MS;
      const placed = {
        invite: inside(call.inviteSentMs, at.invite, call.answeredMs),
        answered: inside(at.invite, at.answered, call.answeredMs),
        end: inside(call.byeSentMs, at.end, call.byeAnsweredMs),
      };
      if (!placed.invite || !placed.answered || !placed.end) off.push({ id: record.id, placed, at, sipp: call });
    }
    // Setup (INVITE to 200 OK), talk time (200 OK to BYE) and the start, as SIPp bracketed them.
    expect(off).toEqual([]);
    return records;
  }

  it('completes 50 calls and reports each with the setup and duration SIPp saw', async () => {
    const line = await trunk();
    const run = await calls({ user: line.sip_username, password: PASSWORD, calls: 50, rate: 25, pauseMs: 1200 });
    succeeded(run);
    expect(run.calls).toHaveLength(50);
    const records = await expectRecorded(line.id, run.calls);
    const overview = (await client.get(`/v1/analytics/overview?trunk_id=${line.id}`)).body;
    expect(overview.summary).toMatchObject({ total_calls: 50, connected_calls: 50, failed_calls: 0 });
    // The overview sums the billable seconds the gateway sent (answered calls only).
    expect(overview.summary).toMatchObject({
      answered_calls: 50,
      total_billable_seconds: records.reduce((sum, r) => sum + r.billable_seconds, 0),
    });
    expect(overview.signalling.calls_with_setup_time).toBe(50);
  });

  it('refuses a wrong password with 403 and lists it among the rejections', async () => {
    const line = await trunk();
    const run = await refused({ user: line.sip_username, password: 'not-the-password' });
    succeeded(run);
    await until('the rejection', async () => (await rejections(line.id)).length === 1, SETTLE_DEADLINE_MS);
    expect((await rejections(line.id))[0]).toMatchObject({
      reason: 'auth_failed',
      sip_code: 403,
      source_address: '127.0.0.1',
      sip_username: line.sip_username.toLowerCase(),
    });
    expect(await listed(line.id)).toHaveLength(0);
  });

  it('refuses the old password within a second of a rotation, and takes the new one', async () => {
    const line = await trunk();
    // A call first, so the gateway has the trunk cached.
    succeeded(await calls({ user: line.sip_username, password: PASSWORD, calls: 1, pauseMs: 100 }));
    const rotated = await client.post(`/v1/trunks/${line.id}/rotate-password`);
    expect(rotated.status).toBe(200);
    await sleep(1000);
    succeeded(await refused({ user: line.sip_username, password: PASSWORD }));
    const fresh = await calls({ user: line.sip_username, password: rotated.body.sip_password, calls: 1, pauseMs: 100 });
    succeeded(fresh);
    await until('the rejection', async () => (await rejections(line.id)).length === 1, SETTLE_DEADLINE_MS);
    expect((await rejections(line.id))[0].reason).toBe('auth_failed');
  });

  it('refuses a deactivated trunk and a source outside the allow list with 403 and a rejection', async () => {
    const inactive = await trunk();
    succeeded(await calls({ user: inactive.sip_username, password: PASSWORD, calls: 1, pauseMs: 100 }));
    expect((await client.patch(`/v1/trunks/${inactive.id}`, { status: 'inactive' })).status).toBe(200);
    await sleep(1000);
    succeeded(await refused({ user: inactive.sip_username, password: PASSWORD }));

    const fenced = await trunk({ allowed_addresses: ['127.0.0.1/32'] });
    succeeded(await refused({ user: fenced.sip_username, password: PASSWORD, localIp: '127.0.0.2' }));
    succeeded(await calls({ user: fenced.sip_username, password: PASSWORD, calls: 1, pauseMs: 100 }));

    await until(
      'both rejections',
      async () => (await rejections(inactive.id)).length + (await rejections(fenced.id)).length === 2,
      SETTLE_DEADLINE_MS,
    );
    expect((await rejections(inactive.id))[0]).toMatchObject({ reason: 'trunk_inactive', sip_code: 403 });
    expect((await rejections(fenced.id))[0]).toMatchObject({
      reason: 'address_not_allowed',
      sip_code: 403,
      source_address: '127.0.0.2',
    });
  });

  it('reports an agent that never answers as a failed call and a rejection', async () => {
    const created = await client.post('/v1/trunks', elevenlabsBody({ sip_password: PASSWORD }));
    const line = created.body as { id: string; sip_username: string };
    succeeded(await refused({ user: line.sip_username, password: PASSWORD, timeoutS: 30 }));
    await until(
      'the rejection and the call',
      async () => (await rejections(line.id)).length === 1 && (await listed(line.id)).length === 1,
      SETTLE_DEADLINE_MS,
    );
    expect((await rejections(line.id))[0]).toMatchObject({ reason: 'agent_unreachable', sip_code: 408 });
    expect((await listed(line.id))[0]).toMatchObject({
      status: 'failed',
      failure_class: 'agent_timeout',
      sip_code: 408,
      billable_seconds: 0,
    });
  });

  it('spools the records of calls that end while Trunkline is stopped, and delivers each once', async () => {
    // Every poll of the change feed evicts names changed in the last 10 s: past that, the trunk
    // stays cached, which is what keeps its calls going while Trunkline is away.
    const line = spooled;
    await sleep(Math.max(0, spooledAt + 11_000 - Date.now()));
    const warm = await calls({ user: line.sip_username, password: PASSWORD, calls: 1, pauseMs: 100 });
    succeeded(warm);
    // Calls that are up when Trunkline stops and end while it is away.
    const during = calls({ user: line.sip_username, password: PASSWORD, calls: 10, rate: 10, pauseMs: 4000 });
    await sleep(1500);
    service.child.kill('SIGTERM');
    await service.exited;
    const stoppedAt = Date.now();
    // New calls while it is away: the gateway's cache still knows the trunk.
    const whileAway = await calls({ user: line.sip_username, password: PASSWORD, calls: 5, rate: 5, pauseMs: 500 });
    const first = await during;
    await sleep(Math.max(0, 10_000 - (Date.now() - stoppedAt)));
    service = await startTrunkline(group, settings);
    succeeded(first);
    succeeded(whileAway);
    const records = await expectRecorded(line.id, [...warm.calls, ...first.calls, ...whileAway.calls]);
    expect(new Set(records.map((r) => r.id)).size).toBe(16);
  });
});
