import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { progress, runBench } from '../lib/bench-main';
import { Cleanups, tempDir } from '../lib/cleanups';
import { parseBenchArgs } from '../lib/options';
import { Percentiles } from '../lib/percentiles';
import { startGateway } from '../lib/sip/gateway';
import { freeUdpPort, ProcessGroup } from '../lib/sip/processes';
import { CallRun, runCalls, startAgent } from '../lib/sip/sipp';
import { startApp } from '../lib/start-app';
import { SIP_OPTIONS, type ModeRuns, type SipOptions, type SipReport } from './sip-options';
import { formatSipReport, ratios } from './sip-report';
import { recordLag } from './sip-lag';

/*
 * Calls per second through the reference gateway (deploy/kamailio) with Trunkline lookups,
 * against the same gateway answering every lookup with a static HA1, in the same run: three
 * Kamailio instances (static, cached lookups as deployed, a lookup on every INVITE), a SIPp agent,
 * SIPp carriers, the app in a child process on its embedded stores; the modes alternate for
 * `rounds`. Then the lookup's latency (GET /v1/gateway/trunks/{user}, 8 at a time as 8 SIP
 * workers), and the lag from a call's BYE to its record in GET /v1/calls.
 */
const COMMAND = { script: 'sip/sip.bench.js', options: SIP_OPTIONS } as const;
const SIP_DOMAIN = 'sip.bench.local';
const PASSWORD = 'bench-password-0123456789';
const MODES = ['static', 'cached', 'uncached'] as const;

const parse = (argv: string[]): SipOptions => parseBenchArgs(argv, COMMAND);

async function run(options: SipOptions, cleanups: Cleanups): Promise<SipReport> {
  const dir = tempDir(cleanups, 'trunkline-bench-sip-');
  const group = new ProcessGroup();
  cleanups.add('stop Kamailio and SIPp', () => group.stopAll());
  const agentPort = await freeUdpPort();
  startAgent(group, agentPort, dir);
  const adminKey = `sk_live_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x').slice(0, 32)}`;
  const app = await startApp(cleanups, {
    env: {
      ADMIN_API_KEY: adminKey,
      SIP_DOMAIN,
      SIP_ROUTE_CUSTOM: `sip:{sip_username}@127.0.0.1:${agentPort}`,
      GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000000',
    },
    provision: { account: 'SIP Bench', keys: ['full'], trunks: 2, providers: ['custom'] },
  });
  const origin = `https://127.0.0.1:${app.ready.port}`;
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, app.ready.cert);
  const agent = new Agent({ connect: { ca: app.ready.cert }, connections: 16 });
  cleanups.add('close the API client', () => agent.close());
  const api = async <T>(method: 'GET' | 'POST', path: string, key: string, body?: object) => {
    const response = await request(`${origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      dispatcher: agent,
    });
    return { status: response.statusCode, body: (await response.body.json()) as T };
  };
  const issued = await api<{ key: string }>('POST', '/v1/api-keys', adminKey, { name: 'gateway', scopes: ['gateway'] });
  const gatewayKey = issued.body.key;
  const [measured, lagTrunk] = app.ready.account!.trunks;
  const fullKey = app.ready.account!.keys.full!;
  const ha1 = createHash('md5').update(`bench-trunk-1:${SIP_DOMAIN}:${PASSWORD}`).digest('hex');
  const ports: Record<(typeof MODES)[number], number> = { static: 0, cached: 0, uncached: 0 };
  for (const mode of MODES) {
    ports[mode] = await freeUdpPort();
    const env: Record<string, string> =
      mode === 'static'
        ? { GATEWAY_STATIC_TRUNK: `active|${ha1}|${measured.id}|*|sip:bench-trunk-1@127.0.0.1:${agentPort}` }
        : mode === 'uncached'
          ? { GATEWAY_LOOKUP_CACHE: '0' }
          : { GATEWAY_LOOKUP_CACHE: '1' };
    await startGateway(group, {
      sipPort: ports[mode],
      sipDomain: SIP_DOMAIN,
      trunklineUrl: `${origin}/v1`,
      gatewayKey,
      caFile,
      env,
    });
  }
  const calls = (mode: (typeof MODES)[number], extra: Partial<CallRun> = {}) =>
    runCalls(group, dir, {
      scenario: 'carrier-call',
      gatewayPort: ports[mode],
      user: 'bench-trunk-1',
      password: PASSWORD,
      calls: options.calls,
      rate: options.rate,
      concurrent: options.concurrent,
      pauseMs: 0,
      timeoutS: 120,
      ...extra,
    });

  for (const mode of MODES) {
    progress(`warm-up: 100 calls through the ${mode} gateway`);
    await calls(mode, { calls: 100 });
  }
  const modes: Record<(typeof MODES)[number], ModeRuns> = {
    static: { callsPerSecond: [], failedCalls: 0 },
    cached: { callsPerSecond: [], failedCalls: 0 },
    uncached: { callsPerSecond: [], failedCalls: 0 },
  };
  // Each run's records are ingested after it; the next run starts once that stopped, so no mode
  // pays for another's records. The order turns each round, so drift spreads over the modes.
  const callsOf = async () =>
    (await api<{ pagination: { total: number } }>('GET', `/v1/calls?trunk_id=${measured.id}&limit=1`, fullKey)).body
      .pagination.total;
  const settle = async () => {
    for (let before = -1, now = await callsOf(); now !== before; before = now, now = await callsOf())
      await new Promise((resolve) => setTimeout(resolve, 1000));
  };
  for (let round = 1; round <= options.rounds; round++) {
    const shift = (round - 1) % MODES.length;
    for (const mode of [...MODES.slice(shift), ...MODES.slice(0, shift)]) {
      await settle();
      const result = await calls(mode);
      const done = result.calls;
      const first = Math.min(...done.map((c) => c.inviteSentMs));
      const last = Math.max(...done.map((c) => c.byeSentMs));
      const rate = done.length / ((last - first) / 1000);
      modes[mode].callsPerSecond.push(rate);
      modes[mode].failedCalls += options.calls - done.length;
      progress(`round ${round}, ${mode}: ${rate.toFixed(0)} calls/s, ${options.calls - done.length} failed`);
      if (done.length < options.calls) progress(`SIPp said: ${result.output.slice(-600).replace(/\s+/g, ' ')}`);
    }
  }

  await settle();
  progress(`lookup latency: ${options.lookups} lookups`);
  const lookups = new Percentiles();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next++ < options.lookups) {
        const started = performance.now();
        const found = await api('GET', '/v1/gateway/trunks/bench-trunk-1', gatewayKey);
        if (found.status !== 200) throw new Error(`lookup: ${found.status}`);
        lookups.record(performance.now() - started);
      }
    }),
  );

  progress(`end-to-record lag: ${options.lagCalls} calls`);
  const lag = await recordLag({
    calls: () =>
      calls('cached', {
        user: 'bench-trunk-2',
        calls: options.lagCalls,
        rate: 20,
        concurrent: options.lagCalls,
        pauseMs: 300,
      }),
    listCalls: async () =>
      (await api<{ calls: { id: string }[] }>('GET', `/v1/calls?trunk_id=${lagTrunk.id}&limit=100`, fullKey)).body
        .calls,
  });
  return {
    calls: options.calls,
    concurrent: options.concurrent,
    rate: options.rate,
    modes,
    lookupMs: { p50: lookups.at(50), p99: lookups.at(99), count: lookups.count },
    lagMs: { p50: lag.at(50), p99: lag.at(99), max: lag.max, count: lag.count },
  };
}

runBench({
  parse,
  run,
  format: formatSipReport,
  json: (report) => ({ ...report, ratios: ratios(report) }),
});
