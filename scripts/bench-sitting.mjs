// npm run bench:sitting: every benchmark, one after the other, on this machine in one sitting, so
// the table in docs/benchmarks.md can be re-read from one run. Builds once, then runs each bench
// with the sizes below (or the ones named), keeps each report, and writes SITTING.md beside them:
// the machine, and for each bench its command, start time, load average before and after, how
// long it took, its exit code and its report (figure, same-run baseline and ratio, as every bench
// prints them). A bench that fails is recorded and the sitting goes on; the exit code says whether
// any failed.
//
//   npm run bench:sitting                      # every bench at the sitting's sizes (~35 min quiet)
//   npm run bench:sitting -- api rebuild       # only these
//   npm run bench:sitting -- --list            # the benches and their commands
//   BENCH_SITTING_DIR=/tmp/s npm run bench:sitting   # where the reports go (default bench-results/<time>)
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, createWriteStream } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

/**
 * The sitting's sizes: each bench's own default where it runs in a few minutes, smaller where not;
 * the ones the performance issues judge first, so a sitting cut short still has them.
 */
const BENCHES = [
  { name: 'api', args: ['dist/bench/api/api.bench.js', '--rounds', '3'] },
  {
    name: 'api-gateway-lookup',
    args: [
      'dist/bench/api/api.bench.js',
      '--rounds',
      '3',
      '--no-event-store',
      '--path',
      '/v1/gateway/trunks/{sip_username}',
    ],
  },
  {
    name: 'analytics',
    args: ['dist/bench/analytics/analytics.bench.js', '--calls', '1000000', '--short-sip-trace', '--pages', '200'],
  },
  { name: 'rebuild', args: ['dist/bench/rebuild/rebuild.bench.js', '--events', '200000', '--read-models', 'main'] },
  { name: 'ingest', args: ['dist/bench/ingest/ingest.bench.js', '--records', '50000'] },
  { name: 'memory', args: ['dist/bench/memory/memory.bench.js'] },
  { name: 'trunks', args: ['dist/bench/trunks/trunks.bench.js'] },
  { name: 'audit', args: ['dist/bench/audit/audit.bench.js', '--events', '200000'] },
  { name: 'scale', args: ['dist/bench/scale/scale.bench.js'] },
  { name: 'webhooks', args: ['dist/bench/webhooks/webhooks.bench.js'] },
  { name: 'console', args: ['dist/bench/console/console.bench.js', '--calls', '200000'] },
  { name: 'exports', args: ['dist/bench/exports/exports.bench.js', '--calls', '200000'] },
  { name: 'sip', args: ['dist/bench/sip/sip.bench.js'] },
  {
    name: 'media',
    args: ['-r', '@swc-node/register', 'bench/media/media.bench.ts'],
    env: { MEDIA_BENCH_STEPS: '50,100,150,200' },
  },
  { name: 'soak', args: ['dist/bench/soak/soak.bench.js', '--minutes', '3', '--rate', '20'] },
];

const argv = process.argv.slice(2);
const commandOf = (bench) =>
  [...Object.entries(bench.env ?? {}).map(([k, v]) => `${k}=${v}`), 'node', ...bench.args.map(quote)].join(' ');
function quote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

if (argv.includes('--list') || argv.includes('--help')) {
  console.log('npm run bench:sitting [-- <bench> ...]   benches, in order:');
  for (const bench of BENCHES) console.log(`  ${bench.name.padEnd(20)} ${commandOf(bench)}`);
  process.exit(0);
}
const unknown = argv.filter((name) => !BENCHES.some((bench) => bench.name === name));
if (unknown.length > 0) {
  console.error(`unknown bench: ${unknown.join(', ')} (npm run bench:sitting -- --list)`);
  process.exit(2);
}
const chosen = argv.length > 0 ? BENCHES.filter((bench) => argv.includes(bench.name)) : BENCHES;

const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
const dir = process.env.BENCH_SITTING_DIR ?? join('bench-results', stamp);
mkdirSync(dir, { recursive: true });
const log = (line) => console.error(`[bench:sitting] ${line}`);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const versionOf = (command) => {
  const result = spawnSync('sh', ['-c', `${command} 2>/dev/null | head -1`], { encoding: 'utf8' });
  return result.stdout.trim() || 'not found';
};
const packageVersion = (name) => {
  try {
    return JSON.parse(readFileSync(join('node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return 'not installed';
  }
};

const machine = [
  `CPU: ${cpus()[0]?.model ?? 'unknown'}, ${availableParallelism()} cores available`,
  `memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
  `Node ${process.version}; ${versionOf('psql --version')}; ${versionOf('redis-server --version')}`,
  `chdb ${packageVersion('chdb')}; ${versionOf('kamailio -v')}; ${versionOf('sipp -v | grep -i sipp')}`,
  `commit ${versionOf('git rev-parse --short HEAD')}${versionOf('git status --porcelain | head -1') === 'not found' ? '' : ' (with uncommitted changes)'}`,
];
log(`reports in ${dir}`);
for (const line of machine) log(line);

log('building (npm run build)');
const build = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) {
  log('the build failed');
  process.exit(1);
}

const results = [];
for (const bench of chosen) {
  const command = commandOf(bench);
  const startedAt = new Date();
  const loadBefore = load();
  log(`${bench.name}: ${command} (load ${loadBefore})`);
  const code = await run(bench);
  const seconds = (Date.now() - startedAt.getTime()) / 1000;
  const loadAfter = load();
  log(`${bench.name}: exit ${code} after ${seconds.toFixed(0)} s (load ${loadAfter})`);
  results.push({ bench, command, startedAt, loadBefore, loadAfter, seconds, code });
  writeSummary();
}

function run(bench) {
  return new Promise((resolve) => {
    const out = createWriteStream(join(dir, `${bench.name}.txt`));
    const err = createWriteStream(join(dir, `${bench.name}.log`));
    const child = spawn(process.execPath, bench.args, {
      env: { ...process.env, ...bench.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(out);
    child.stderr.pipe(err);
    child.on('error', (error) => {
      err.write(`could not start: ${error.message}\n`);
      resolve(127);
    });
    child.on('close', (code, signal) => {
      out.end();
      err.end();
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

function writeSummary() {
  const lines = [
    `# Benchmark sitting ${stamp}`,
    '',
    ...machine.map((line) => `- ${line}`),
    '',
    '| bench | started (UTC) | load before → after (1/5/15 min) | seconds | exit |',
    '|---|---|---|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.bench.name} | ${r.startedAt.toISOString().slice(11, 19)} | ${r.loadBefore} → ${r.loadAfter} | ${r.seconds.toFixed(0)} | ${r.code} |`,
    ),
    '',
  ];
  for (const r of results) {
    let report = '';
    try {
      report = readFileSync(join(dir, `${r.bench.name}.txt`), 'utf8');
    } catch {
      // no report
    }
    lines.push(`## ${r.bench.name}`, '', `\`${r.command}\``, '', '```', report.trimEnd(), '```', '');
  }
  writeFileSync(join(dir, 'SITTING.md'), `${lines.join('\n')}\n`);
}

const failed = results.filter((r) => r.code !== 0);
log(`done: ${results.length - failed.length} of ${results.length} benches exited 0; ${join(dir, 'SITTING.md')}`);
process.exit(failed.length > 0 ? 1 : 0);
