/**
 * `npm run bench:media`: how many concurrent bridged calls the media gateway holds on this machine
 * with p99 frame processing ≤ 5 ms and no frame sent more than 20 ms after its slot
 * (docs/benchmarks.md). Each call streams both ways: this process is the carrier (a 20 ms G.711
 * packet per call), a mock Media Streams agent echoes every frame back, the gateway paces it out.
 * Steps up the number of calls (MEDIA_BENCH_STEPS) until a step fails, and after each step runs the
 * baseline, a bare Node UDP echo at the same packet rate, stepped the same way: prints the calls
 * held, the streams the echo held, their ratio, CPU per call, each media thread's event-loop delay,
 * and beside every figure the load average and the cores the rest of the machine used.
 * MEDIA_BENCH_WORKERS sets the gateway's MEDIA_WORKERS; MEDIA_BENCH_CPU_PROF=1 profiles the gateway.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeUdpPort, ProcessGroup, sleep } from '../lib/sip/processes';
import { formatProfiledRun, summarizeProfileFiles } from '../lib/cpu-profile';
import { freePort } from '../../test/support/free-port';
import { testCertificate } from '../../test/support/provider-stubs';
import { customBody } from '../../test/support/trunk-requests';
import { startMediaGateway } from '../../test/media/support/media-gateway';
import { startMockAgent } from '../../test/media/support/mock-agent';
import { startTrunkline } from '../../test/media/support/trunkline';
import { freeUdpRange } from '../../test/media/support/udp-range';
import { caFileOf, provision } from '../../test/sip/support/trunkline';
import { BenchCall, Carrier, sendFrame } from './bench-carrier';
import { cpuSeconds, machineWindow } from './machine';
import { echoStep, EchoStep } from './udp-echo.baseline';

const STEPS = (process.env.MEDIA_BENCH_STEPS ?? '25,50,100,150,200,250,300').split(',').map(Number);
const WINDOW_MS = Number(process.env.MEDIA_BENCH_WINDOW_MS ?? 10_000);
const WORKERS = process.env.MEDIA_BENCH_WORKERS;
const PROFILE = process.env.MEDIA_BENCH_CPU_PROF === '1';
const MAX_P99_MS = 5;
const MAX_LATE_MS = 20;

interface Ended {
  processing_p99_ms: number | null;
  max_lateness_ms: number;
  late_frames: number;
}
interface LoopLine {
  time: number;
  worker?: number;
  calls: number;
  loop_delay_p99_ms: number;
  loop_delay_max_ms: number;
}

/** The gateway's `call ended` and `media loop` lines, read as they come (its kept output is only a tail). */
function watchLog(stream: NodeJS.ReadableStream): { ended: Ended[]; loops: LoopLine[] } {
  const seen = { ended: [] as Ended[], loops: [] as LoopLine[] };
  let rest = '';
  stream.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (line.includes('"call ended"')) seen.ended.push(JSON.parse(line) as Ended);
      else if (line.includes('"media loop"')) seen.loops.push(JSON.parse(line) as LoopLine);
    }
  });
  return seen;
}

const f = (n: number, digits = 2, width = 0) => n.toFixed(digits).padStart(width);

async function main(): Promise<void> {
  const group = new ProcessGroup();
  const dir = mkdtempSync(join(tmpdir(), 'trunkline-media-bench-'));
  const profileDir = join(process.cwd(), 'bench-profiles', `media-${new Date().toISOString().replace(/[:.]/g, '-')}`);
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
    const rtpMin = await freeUdpRange(2 * maxCalls + 40, ['127.0.0.1']);
    const gateway = await startMediaGateway(group, {
      sipPort: mediaPort,
      trunklineUrl: `${service.origin}/v1`,
      gatewayKey,
      trunklineCaFile: caFileOf(settings.dataDir),
      agentCaFile: join(dir, 'ca.pem'),
      spoolDir: join(dir, 'spool'),
      rtpPortMin: rtpMin,
      rtpPortMax: rtpMin + 2 * maxCalls + 39,
      env: {
        MAX_CALLS: String(maxCalls + 10),
        MEDIA_TIMEOUT_MS: '30000',
        MEDIA_LOOP_REPORT_MS: '1000',
        ...(WORKERS !== undefined ? { MEDIA_WORKERS: WORKERS } : {}),
      },
      nodeArgs: PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    });
    const log = watchLog(gateway.child.stdout!);
    const threads = /"media_workers":(\d+)/.exec(gateway.output())?.[1] ?? '?';
    const carrier = await Carrier.open(mediaPort);
    let held = 0;
    let heldCpu = 0;
    let echoHeld = 0;
    let n = 0;
    const echoes: EchoStep[] = [];
    console.log(
      `media gateway: MEDIA_WORKERS=${threads}; bound: p99 ≤ ${MAX_P99_MS} ms, no frame > ${MAX_LATE_MS} ms late`,
    );
    console.log(
      'calls  p99 held  worst late  late frames  loop delay p99/max  gateway CPU  per call  bench CPU  others  load1 | echo p99  echo CPU',
    );
    for (const calls of STEPS) {
      const endedFrom = log.ended.length;
      const up: BenchCall[] = [];
      for (let i = 0; i < calls; i++) up.push(await carrier.call(trunk.sip_username, n++));
      const timer = setInterval(() => up.forEach(sendFrame), 20);
      await sleep(1_000);
      const before = cpuSeconds(gateway.child.pid!);
      const ownBefore = process.cpuUsage();
      const machine = machineWindow();
      const from = Date.now();
      await sleep(WINDOW_MS);
      const to = Date.now();
      const cpu = (cpuSeconds(gateway.child.pid!) - before) / (WINDOW_MS / 1000);
      const own = process.cpuUsage(ownBefore);
      const benchCpu = (own.user + own.system) / 1e6 / (WINDOW_MS / 1000);
      const rest = machine.end(cpu + benchCpu);
      clearInterval(timer);
      // The echoes in flight drain before the hang-ups, so teardown is not measured as lateness.
      await sleep(300);
      await Promise.all(up.map((c) => c.bye()));
      up.forEach((c) => c.socket.close());
      for (let waited = 0; log.ended.length - endedFrom < calls && waited < 10_000; waited += 100) await sleep(100);
      const ended = log.ended.slice(endedFrom);
      const loops = log.loops.filter((l) => l.time >= from && l.time <= to);
      const p99 = Math.max(...ended.map((e) => e.processing_p99_ms ?? 0));
      const late = Math.max(...ended.map((e) => e.max_lateness_ms));
      const lateFrames = ended.reduce((sum, e) => sum + e.late_frames, 0);
      const loopP99 = Math.max(0, ...loops.map((l) => l.loop_delay_p99_ms));
      const loopMax = Math.max(0, ...loops.map((l) => l.loop_delay_max_ms));
      const ok = ended.length === calls && p99 <= MAX_P99_MS && late <= MAX_LATE_MS;
      const echo = await echoStep(group, calls, WINDOW_MS, dir);
      echoes.push(echo);
      if (echo.p99Ms <= MAX_P99_MS && echo.returned >= 0.99) echoHeld = calls;
      console.log(
        `${String(calls).padStart(5)}  ${f(p99, 2, 8)}  ${f(late, 1, 10)}  ${String(lateFrames).padStart(11)}  ${`${f(loopP99, 1)}/${f(loopMax, 1)}`.padStart(18)}  ${f(cpu, 3, 11)}  ${f((cpu / calls) * 100, 3, 7)}%  ${f(benchCpu, 3, 9)}  ${f(rest.othersCores, 2, 6)}  ${f(rest.load1, 1, 5)} | ${f(echo.p99Ms, 2, 8)}  ${f(echo.cpu, 3, 8)}${ok ? '' : '  ← over the bound'}`,
      );
      if (!ok) break;
      held = calls;
      heldCpu = cpu;
    }
    carrier.close();
    await agent.close();
    // The echo's own limit, where the gateway stopped first.
    for (const streams of STEPS.filter((s) => s > Math.max(...echoes.map((e) => e.streams)))) {
      if (echoHeld < Math.max(...echoes.map((e) => e.streams))) break;
      const echo = await echoStep(group, streams, WINDOW_MS, dir);
      echoes.push(echo);
      console.log(`echo alone at ${streams} streams: p99 ${f(echo.p99Ms)} ms, ${f(echo.cpu, 3)} cores`);
      if (echo.p99Ms <= MAX_P99_MS && echo.returned >= 0.99) echoHeld = streams;
      else break;
    }
    const echoAtHeld = echoes.find((e) => e.streams === held);
    const echoTop = echoHeld === Math.max(...STEPS) ? '≥ ' : '';
    console.log(`\nheld: ${held} concurrent bridged calls (MEDIA_WORKERS=${threads})`);
    console.log(
      `baseline: a bare Node UDP echo held ${echoTop}${echoHeld} streams (round trip p99 ≤ ${MAX_P99_MS} ms)`,
    );
    console.log(`ratio of calls held: ${echoHeld > 0 ? f(held / echoHeld) : 'n/a'}${echoTop ? ' (at most)' : ''}`);
    if (held > 0 && echoAtHeld)
      console.log(
        `CPU at ${held} calls: gateway ${f(heldCpu * 100, 1)} % of a core (${f((heldCpu / held) * 100, 3)} % per call), echo ${f(echoAtHeld.cpu * 100, 1)} % (${f(heldCpu / Math.max(echoAtHeld.cpu, 1e-6), 1)}×)`,
      );
    if (PROFILE) {
      await gateway.stop(30_000);
      const files = readdirSync(profileDir).map((file) => ({ file: join(profileDir, file) }));
      for (const line of formatProfiledRun(
        summarizeProfileFiles(files),
        "where the media gateway's CPU went (all threads)",
      ))
        console.log(line);
    }
  } finally {
    await group.stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
