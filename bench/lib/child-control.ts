import type { ChildFailed, CpuUsageReply } from './child-messages';

/**
 * The child side of the IPC protocol: answers CPU-usage requests, and stops (once) on a `stop`
 * message, SIGTERM, SIGINT or when the bench goes away. Ends with process.exit, not a natural
 * exit, so that --cpu-prof writes its profile in every case.
 */
export function serveControl(close: () => Promise<void>): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('message', (message: { type?: string }) => {
    if (message?.type === 'stop') stop();
    if (message?.type === 'cpu-usage') {
      const usage = process.cpuUsage();
      const reply: CpuUsageReply = { type: 'cpu-usage', micros: usage.user + usage.system };
      process.send?.(reply);
    }
  });
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/** Reports a start-up failure to the bench, then exits. */
export function failStartup(error: unknown): void {
  const failed: ChildFailed = {
    type: 'failed',
    message: error instanceof Error ? (error.stack ?? error.message) : String(error),
  };
  if (process.send) process.send(failed, () => process.exit(1));
  else process.exit(1);
}
