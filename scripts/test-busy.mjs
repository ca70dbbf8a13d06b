// npm run test:busy: `npm test` beside CPU hogs that keep the load average near TEST_BUSY_LOAD × the
// cores (4 by default), as on a shared CI runner with other builds going. Hogs are Debian's
// stress-ng (installed when missing and apt-get can), else busy Node processes. Whatever happens,
// the hogs are stopped when the tests end, and the exit code is the tests'.
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';

const cores = availableParallelism();
const factor = Number(process.env.TEST_BUSY_LOAD ?? 4);
if (!Number.isFinite(factor) || factor < 1) {
  console.error(`TEST_BUSY_LOAD must be a number >= 1 (got ${process.env.TEST_BUSY_LOAD})`);
  process.exit(2);
}
// The tests themselves keep about one runnable process per core busy (jest's workers, the apps they
// start): the hogs make up the rest of the target.
const hogs = Math.max(1, Math.round(cores * factor) - cores);
const log = (line) => console.error(`[test:busy] ${line}`);

const has = (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
function ensureStressNg() {
  if (has('stress-ng')) return true;
  if (!has('apt-get') || process.getuid?.() !== 0) return false;
  log('installing stress-ng');
  const install = spawnSync(
    'sh',
    ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stress-ng >/dev/null'],
    { stdio: 'inherit' },
  );
  return install.status === 0 && has('stress-ng');
}

const BUSY_NODE = 'for (;;) { let x = 0; for (let i = 0; i < 1e7; i++) x += Math.sqrt(i); if (x < 0) break; }';
function startHogs() {
  if (ensureStressNg()) {
    log(`${hogs} stress-ng CPU hogs beside the tests (${cores} cores, target load ${cores * factor})`);
    return [
      spawn('stress-ng', ['--cpu', String(hogs), '--cpu-method', 'matrixprod', '--quiet'], {
        stdio: 'ignore',
        detached: true,
      }),
    ];
  }
  log(`stress-ng unavailable: ${hogs} busy Node processes beside the tests (${cores} cores)`);
  return Array.from({ length: hogs }, () =>
    spawn(process.execPath, ['-e', BUSY_NODE], { stdio: 'ignore', detached: true }),
  );
}

const hogProcesses = startHogs();
const stopHogs = () => {
  for (const hog of hogProcesses) {
    try {
      process.kill(-hog.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
};
const samples = [];
const sampler = setInterval(() => samples.push(loadavg()[0]), 10_000);
const reporter = setInterval(
  () =>
    log(
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    ),
  120_000,
);

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tests = spawn(npm, ['test', '--', ...process.argv.slice(2)], { stdio: 'inherit' });
const finish = (code) => {
  clearInterval(sampler);
  clearInterval(reporter);
  stopHogs();
  if (samples.length > 0) {
    const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
    log(
      `1-min load average over the run: mean ${mean.toFixed(1)}, min ${Math.min(...samples).toFixed(1)}, max ${Math.max(...samples).toFixed(1)} (${cores} cores)`,
    );
  }
  process.exit(code);
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => tests.kill(signal));
tests.on('exit', (code, signal) => finish(code ?? (signal ? 1 : 0)));
