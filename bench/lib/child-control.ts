import {
  type ChildAnswer,
  type ChildFailed,
  type ArgsOf,
  type AnswerOf,
  type ChildProgress,
  type ChildRequest,
  type StopRequest,
  errorText,
} from './child-messages';

/** How a child answers each request of its ops. */
export type OpHandlers<O> = { [K in keyof O]: (...args: ArgsOf<O[K]>) => AnswerOf<O[K]> | Promise<AnswerOf<O[K]>> };

export type AnyHandler = (args: unknown) => unknown;

/**
 * The child side of the IPC protocol: answers requests (its CPU time, and whatever `handlers`
 * holds when the request comes: the app adds its own once it has started), and stops (once) on a
 * `stop` message, SIGTERM, SIGINT or when the bench goes away. Ends with process.exit, not a
 * natural exit, so that --cpu-prof writes its profile in every case.
 */
export function serveControl(close: () => Promise<void>, handlers: Record<string, AnyHandler> = {}): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  const cpuUsage = () => {
    const usage = process.cpuUsage();
    return usage.user + usage.system;
  };
  process.on('message', (message: StopRequest | ChildRequest) => {
    if (message?.type === 'stop') stop();
    if (message?.type === 'request') void answer(message, message.op === 'cpu-usage' ? cpuUsage : handlers[message.op]);
  });
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

async function answer(request: ChildRequest, handler: AnyHandler | undefined): Promise<void> {
  let reply: ChildAnswer;
  try {
    if (!handler) throw new Error(`no handler for the request ${request.op}`);
    reply = { type: 'answer', id: request.id, ok: true, value: await handler(request.args) };
  } catch (error) {
    reply = { type: 'answer', id: request.id, ok: false, error: errorText(error) };
  }
  process.send?.(reply);
}

export function reportProgress(message: string): void {
  process.send?.({ type: 'progress', message } satisfies ChildProgress);
}

/** Reports a start-up failure (or a job's) to the bench, then exits. */
export function failStartup(error: unknown): void {
  const failed: ChildFailed = { type: 'failed', message: errorText(error) };
  if (process.send) process.send(failed, () => process.exit(1));
  else process.exit(1);
}
