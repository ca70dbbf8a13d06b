import { fork } from 'node:child_process';
import type { ChildFailed } from './child-messages';
import type { Cleanups } from './cleanups';

/**
 * Forks a compiled script that does one job and answers one `result` (or `failed`) message:
 * unlike a server child, it has no ready state and may run for minutes. Killed by the cleanups
 * if the bench ends first.
 */
export function runJobChild<R extends { type: 'result' }>(
  script: string,
  cleanups: Cleanups,
  opts: { env: NodeJS.ProcessEnv; execArgv?: string[] },
): { pid: number; result: Promise<R> } {
  const child = fork(script, [], {
    env: opts.env,
    execArgv: opts.execArgv ?? [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.add(`stop ${script}`, async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  const result = new Promise<R>((resolve, reject) => {
    let settled = false;
    const settle = (error: Error | null, result?: R) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(result as R);
    };
    child.on('message', (message: { type?: string }) => {
      if (message?.type === 'result') settle(null, message as R);
      else if (message?.type === 'failed') settle(new Error(`${script} failed:\n${(message as ChildFailed).message}`));
    });
    child.once('exit', (code, signal) =>
      settle(new Error(`${script} exited without a result (code ${code}, signal ${signal})`)),
    );
  });
  return { pid: child.pid ?? 0, result };
}
