/**
 * IPC between a bench and its children. A server child answers one `ready` (a job child one
 * `result`) or `failed`; then the bench may send requests, each answered under the same id, and
 * finally `stop`.
 */
export interface ChildFailed {
  type: 'failed';
  message: string;
}

export interface StopRequest {
  type: 'stop';
}

/**
 * The requests a child answers, as an interface of op → [its argument, its answer]; every child
 * answers `cpu-usage` with its process.cpuUsage(), user + system, in µs since it started.
 */
export interface CpuOps {
  'cpu-usage': [undefined, number];
}

/** The argument list of a request: none where the op takes `undefined`. */
export type ArgsOf<Op> = Op extends [infer A, unknown] ? (A extends undefined ? [] : [A]) : never;
export type AnswerOf<Op> = Op extends [unknown, infer B] ? B : never;

export interface ChildRequest {
  type: 'request';
  id: number;
  op: string;
  args?: unknown;
}

export interface ChildAnswer {
  type: 'answer';
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

/** A line for the bench's stderr from a child busy for long (the analytics bulk load). */
export interface ChildProgress {
  type: 'progress';
  message: string;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
