import { ChildProcess, fork } from 'node:child_process';
import type { AnalyticsAppReady, BenchAnswer, BenchCall, BenchProgress } from './analytics-messages';
import type { ChildFailed, StopRequest } from './child-messages';
import type { Cleanups } from './cleanups';

const READY_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 30_000;

type CallOf<Op extends BenchCall['op']> = Extract<BenchCall, { op: Op }>;

/**
 * The app child with the bench-only commands. server-child.ts keeps its ChildProcess to itself,
 * and these commands need it to send requests and pair the answers, hence this small twin.
 */
export class AnalyticsAppChild {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  private constructor(
    private readonly child: ChildProcess,
    readonly ready: AnalyticsAppReady,
    private readonly stopNow: () => Promise<void>,
  ) {
    child.on('message', (message: BenchAnswer | BenchProgress) => {
      if (message?.type === 'bench-progress') process.stderr.write(`bench (app child): ${message.message}\n`);
      if (message?.type !== 'bench-answer') return;
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.ok) waiter?.resolve(message.value);
      else waiter?.reject(new Error(`app child: ${message.error}`));
    });
    child.once('exit', (code, signal) => {
      for (const waiter of this.waiting.values())
        waiter.reject(new Error(`app child exited (code ${code}, signal ${signal})`));
      this.waiting.clear();
    });
  }

  static async start(script: string, env: NodeJS.ProcessEnv, cleanups: Cleanups): Promise<AnalyticsAppChild> {
    const child = fork(script, [], { env, execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const stop = stopper(child);
    cleanups.add(`stop ${script}`, stop);
    const ready = await waitForReady(child, script).catch(async (error: unknown) => {
      await stop();
      throw error;
    });
    return new AnalyticsAppChild(child, ready, stop);
  }

  call<Op extends BenchCall['op'], R>(op: Op, args: CallOf<Op>['args']): Promise<R> {
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ type: 'bench-call', id, op, args } as BenchCall);
    });
  }

  /** Idempotent. */
  stop(): Promise<void> {
    return this.stopNow();
  }
}

function waitForReady(child: ChildProcess, script: string): Promise<AnalyticsAppReady> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => settle(new Error(`${script}: not ready after ${READY_TIMEOUT_MS} ms`)),
      READY_TIMEOUT_MS,
    );
    const onMessage = (message: { type?: string }) => {
      if (message?.type === 'ready') settle(null, message as AnalyticsAppReady);
      else if (message?.type === 'failed')
        settle(new Error(`${script} failed to start:\n${(message as ChildFailed).message}`));
    };
    const onExit = (code: number | null, signal: string | null) =>
      settle(new Error(`${script} exited before it was ready (code ${code}, signal ${signal})`));
    function settle(error: Error | null, ready?: AnalyticsAppReady): void {
      clearTimeout(timer);
      child.off('message', onMessage).off('exit', onExit);
      if (error) reject(error);
      else resolve(ready!);
    }
    child.on('message', onMessage).once('exit', onExit);
  });
}

/** Graceful stop (the app drains and closes chDB), SIGKILL after a grace period. */
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
