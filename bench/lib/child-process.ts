import { ChildProcess, fork } from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import type {
  AnswerOf,
  ArgsOf,
  ChildAnswer,
  ChildFailed,
  ChildProgress,
  ChildRequest,
  CpuOps,
  StopRequest,
} from './child-messages';
import type { Cleanups } from './cleanups';

/**
 * How long a bench's child (an app, a baseline server) may take to start: as long as the slowest
 * honest start on a busy machine (at 60 s, three benches gave up at load 30 before measuring).
 * BENCH_READY_TIMEOUT_MS overrides it.
 */
const READY_TIMEOUT_MS = Number(process.env.BENCH_READY_TIMEOUT_MS ?? 300_000);
const STOP_GRACE_MS = 10_000;

export interface ChildOptions {
  env?: NodeJS.ProcessEnv;
  execArgv?: string[];
  readyTimeoutMs?: number;
  /** How long a graceful stop may take before SIGKILL (the analytics app drains chDB for longer). */
  stopGraceMs?: number;
}

type Ops<O> = O & CpuOps;

/**
 * A compiled server script in its own process (so it never shares a JS thread with the load
 * generator): its `ready` message, requests answered by id, and a stop that is safe to call more
 * than once. Registered with the cleanups before it is ready, so an interrupted start-up still
 * stops it.
 */
export class ServerChild<R extends { type: 'ready' }, O extends object = CpuOps> {
  /** The child's CPU time so far (user + system), in µs. */
  readonly cpuMicros: () => Promise<number>;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  private constructor(
    private readonly child: ChildProcess,
    readonly ready: R,
    /** Graceful stop, then SIGKILL after a grace period. Idempotent. */
    readonly stop: () => Promise<void>,
  ) {
    this.cpuMicros = () => this.send('cpu-usage', undefined) as Promise<number>;
    child.on('message', (message: ChildAnswer | ChildProgress) => {
      if (message?.type === 'progress') process.stderr.write(`bench (child): ${message.message}\n`);
      if (message?.type !== 'answer') return;
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.ok) waiter?.resolve(message.value);
      else waiter?.reject(new Error(`child: ${message.error}`));
    });
    child.once('exit', (code, signal) => {
      for (const waiter of this.waiting.values())
        waiter.reject(new Error(`child exited (code ${code}, signal ${signal})`));
      this.waiting.clear();
    });
  }

  static async start<R extends { type: 'ready' }, O extends object = CpuOps>(
    script: string,
    cleanups: Cleanups,
    options: ChildOptions = {},
  ): Promise<ServerChild<R, O>> {
    const child = forkScript(script, options);
    const stop = stopper(child, options.stopGraceMs ?? STOP_GRACE_MS);
    cleanups.add(`stop ${script}`, stop);
    try {
      const ready = await nextMessage<R>(child, 'ready', script, options.readyTimeoutMs ?? READY_TIMEOUT_MS);
      return new ServerChild<R, O>(child, ready, stop);
    } catch (error) {
      await stop();
      throw error;
    }
  }

  request<K extends keyof Ops<O> & string>(op: K, ...args: ArgsOf<Ops<O>[K]>): Promise<AnswerOf<Ops<O>[K]>> {
    return this.send(op, args[0]) as Promise<AnswerOf<Ops<O>[K]>>;
  }

  private send(op: string, args: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ type: 'request', id, op, args } satisfies ChildRequest);
    });
  }
}

/**
 * Forks a compiled script that does one job and answers one `result` (or `failed`) message:
 * no ready state, and it may run for minutes. Killed by the cleanups if the bench ends first.
 */
export function runJobChild<R extends { type: 'result' }>(
  script: string,
  cleanups: Cleanups,
  options: ChildOptions,
): { pid: number; result: Promise<R> } {
  const child = forkScript(script, options);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.add(`stop ${script}`, async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { pid: child.pid ?? 0, result: nextMessage<R>(child, 'result', script, null) };
}

/**
 * V8 CPU profiles of a child, written to ./bench-profiles/ under V8's own name, or to `file`
 * (cpu-profile.ts profileFile) when the bench reads this run's profile back.
 */
export function profilerFlags(enabled: boolean, file?: string): string[] {
  if (!enabled) return [];
  if (!file) return ['--cpu-prof', `--cpu-prof-dir=${join(process.cwd(), 'bench-profiles')}`];
  return ['--cpu-prof', `--cpu-prof-dir=${dirname(file)}`, `--cpu-prof-name=${basename(file)}`];
}

function forkScript(script: string, options: ChildOptions): ChildProcess {
  return fork(script, [], {
    env: options.env ?? process.env,
    execArgv: options.execArgv ?? [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/** The child's first message of `type`; a `failed` message, an exit or the timeout rejects. */
function nextMessage<T>(child: ChildProcess, type: string, script: string, timeoutMs: number | null): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer =
      timeoutMs === null
        ? null
        : setTimeout(() => settle(new Error(`${script}: no ${type} after ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: { type?: string }) => {
      if (message?.type === type) settle(null, message as T);
      else if (message?.type === 'failed') settle(new Error(`${script} failed:\n${(message as ChildFailed).message}`));
    };
    const onExit = (code: number | null, signal: string | null) =>
      settle(new Error(`${script} exited before its ${type} (code ${code}, signal ${signal})`));
    function settle(error: Error | null, value?: T): void {
      if (timer) clearTimeout(timer);
      child.off('message', onMessage).off('exit', onExit);
      if (error) reject(error);
      else resolve(value as T);
    }
    child.on('message', onMessage).once('exit', onExit);
  });
}

function stopper(child: ChildProcess, graceMs: number): () => Promise<void> {
  let stopped: Promise<void> | null = null;
  return () =>
    (stopped ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      if (child.connected)
        child.send({ type: 'stop' } satisfies StopRequest, (error) => error && child.kill('SIGTERM'));
      else child.kill('SIGTERM');
    }));
}
