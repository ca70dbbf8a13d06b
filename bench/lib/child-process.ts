import { ChildProcess, fork } from 'node:child_process';
import type { ChildFailed, CpuUsageReply, CpuUsageRequest, StopRequest } from './child-messages';
import type { Cleanups } from './cleanups';

const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;

export interface ServerChild<R> {
  ready: R;
  /** The child's CPU time so far (user + system), in microseconds. */
  cpuMicros(): Promise<number>;
  /** Graceful stop, then SIGKILL after a grace period. Safe to call more than once. */
  stop(): Promise<void>;
}

/**
 * Forks a compiled server script and waits for its `ready` message. The child gets its own
 * process (and so its own core) so it never shares a JS thread with the load generator.
 */
export async function startServerChild<R extends { type: 'ready' }>(
  script: string,
  cleanups: Cleanups,
  opts: { env?: NodeJS.ProcessEnv; execArgv?: string[] } = {},
): Promise<ServerChild<R>> {
  const child = fork(script, [], {
    env: opts.env ?? process.env,
    execArgv: opts.execArgv ?? [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stop = stopper(child);
  // Registered before waiting, so a bench interrupted during start-up still stops the child.
  cleanups.add(`stop ${script}`, stop);
  try {
    const ready = await waitForReady<R>(child, script);
    return { ready, stop, cpuMicros: () => askCpuUsage(child) };
  } catch (error) {
    await stop();
    throw error;
  }
}

function waitForReady<R>(child: ChildProcess, script: string): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    const timer = setTimeout(
      () => settle(new Error(`${script}: not ready after ${READY_TIMEOUT_MS} ms`)),
      READY_TIMEOUT_MS,
    );
    const onMessage = (message: { type?: string }) => {
      if (message?.type === 'ready') settle(null, message as R);
      else if (message?.type === 'failed')
        settle(new Error(`${script} failed to start:\n${(message as ChildFailed).message}`));
    };
    const onExit = (code: number | null, signal: string | null) =>
      settle(new Error(`${script} exited before it was ready (code ${code}, signal ${signal})`));
    function settle(error: Error | null, ready?: R): void {
      clearTimeout(timer);
      child.off('message', onMessage).off('exit', onExit);
      if (error) reject(error);
      else resolve(ready as R);
    }
    child.on('message', onMessage).once('exit', onExit);
  });
}

function askCpuUsage(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error('no cpu-usage reply')), 5000);
    const onMessage = (message: { type?: string }) =>
      message?.type === 'cpu-usage' && done(null, (message as CpuUsageReply).micros);
    function done(error: Error | null, micros = 0): void {
      clearTimeout(timer);
      child.off('message', onMessage);
      if (error) reject(error);
      else resolve(micros);
    }
    child.on('message', onMessage);
    const request: CpuUsageRequest = { type: 'cpu-usage' };
    child.send(request);
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  let stopped: Promise<void> | null = null;
  return () => {
    stopped ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      const request: StopRequest = { type: 'stop' };
      if (child.connected) child.send(request, (error) => error && child.kill('SIGTERM'));
      else child.kill('SIGTERM');
    });
    return stopped;
  };
}
