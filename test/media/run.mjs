// npm run test:media: jest with test/media/jest.config.js in a process group of its own. Whatever
// happens (a failing hook, a hang, Ctrl-C, the time limit), the whole group is killed at the end,
// so no Kamailio, SIPp, media gateway or Trunkline started by the suite outlives it.
import { spawn, spawnSync } from 'node:child_process';

const LIMIT_MS = Number(process.env.MEDIA_TEST_LIMIT_MS ?? 600_000);

for (const tool of ['kamailio', 'sipp', 'espeak-ng', 'sox']) {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
    console.error(
      `test:media needs ${tool}: apt-get install -y kamailio kamailio-utils-modules kamailio-json-modules kamailio-extra-modules sip-tester espeak-ng sox`,
    );
    process.exit(1);
  }
}

const child = spawn(
  process.execPath,
  [
    '--experimental-vm-modules',
    '--disable-warning=ExperimentalWarning',
    'node_modules/jest/bin/jest.js',
    '--config',
    'test/media/jest.config.js',
    ...process.argv.slice(2),
  ],
  { detached: true, stdio: 'inherit' },
);

const killGroup = (signal) => {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is gone
  }
};
const stop = (why) => {
  console.error(`test:media: ${why}; stopping every process it started`);
  killGroup('SIGTERM');
  setTimeout(() => killGroup('SIGKILL'), 5000).unref();
};
const deadline = setTimeout(() => stop(`over its time limit of ${LIMIT_MS / 1000} s`), LIMIT_MS);
process.on('SIGINT', () => stop('interrupted'));
process.on('SIGTERM', () => stop('terminated'));
child.on('exit', (code, signal) => {
  clearTimeout(deadline);
  killGroup('SIGKILL');
  process.exit(code ?? (signal ? 1 : 0));
});
