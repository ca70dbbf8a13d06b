import { ChildProcess, fork } from 'node:child_process';
import type { Cleanups } from './cleanups';

/**
 * The app child of webhooks.bench.ts, forked here rather than through startServerChild because
 * the bench also sends it messages (pause and resume the delivery worker).
 */
export class WebhooksChild<R> {
  private constructor(
    private readonly child: ChildProcess,
    readonly ready: R,
  ) {}

  static async start<R>(script: string, env: NodeJS.ProcessEnv, cleanups: Cleanups): Promise<WebhooksChild<R>> {
    const child = fork(script, [], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const handle = { stop: async () => stopChild(child) };
    cleanups.add(`stop ${script}`, () => handle.stop());
    const ready = await new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${script}: not ready after 60 s`)), 60_000);
      child.on('message', (m: { type?: string; message?: string }) => {
        if (m?.type === 'ready') (clearTimeout(timer), resolve(m as R));
        if (m?.type === 'failed') (clearTimeout(timer), reject(new Error(`${script} failed to start:\n${m.message}`)));
      });
      child.once(
        'exit',
        (code) => (clearTimeout(timer), reject(new Error(`${script} exited (code ${code}) before it was ready`))),
      );
    });
    return new WebhooksChild(child, ready);
  }

  /** Sends a control message and waits for the child's acknowledgement. */
  control(type: 'webhooks-pause' | 'webhooks-resume'): Promise<void> {
    return new Promise((resolve) => {
      const onAck = (m: { type?: string }) =>
        m?.type === 'webhooks-ack' && (this.child.off('message', onAck), resolve());
      this.child.on('message', onAck);
      this.child.send({ type });
    });
  }

  stop(): Promise<void> {
    return stopChild(this.child);
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => (clearTimeout(kill), resolve()));
    if (child.connected) child.send({ type: 'stop' });
    else child.kill('SIGTERM');
  });
}
