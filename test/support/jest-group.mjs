// Runs jest with one config in a process group of its own (npm run test:sip, test:media). Whatever
// happens (a failing hook, a hang, Ctrl-C, the time limit), the whole group is killed at the end,
// so no Kamailio, SIPp, media gateway or Trunkline started by the suite outlives it.
import { spawn, spawnSync } from 'node:child_process';

/**
 * @param {{ name: string, config: string, tools: string[], install: string, limitMs: number }} suite
 *   `tools` must be on PATH (else `install` is printed); `limitMs` bounds the whole run.
 */
export function runJestInGroup({ name, config, tools, install, limitMs }) {
  for (const tool of tools) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
      console.error(`${name} needs ${tool}: apt-get install -y ${install}`);
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
      config,
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
    console.error(`${name}: ${why}; stopping every process it started`);
    killGroup('SIGTERM');
    setTimeout(() => killGroup('SIGKILL'), 5000).unref();
  };
  const deadline = setTimeout(() => stop(`over its time limit of ${limitMs / 1000} s`), limitMs);
  process.on('SIGINT', () => stop('interrupted'));
  process.on('SIGTERM', () => stop('terminated'));
  child.on('exit', (code, signal) => {
    clearTimeout(deadline);
    killGroup('SIGKILL');
    process.exit(code ?? (signal ? 1 : 0));
  });
}
