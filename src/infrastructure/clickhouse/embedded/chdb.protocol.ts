import type { BoundParams } from '../clickhouse.format';

/** What the worker needs to open the engine (structured-cloned into `workerData`). */
export interface WorkerInit {
  /** The data directory, `<DATA_DIR>/clickhouse`. */
  path: string;
  /** `clickhouse local` arguments: our settings as `--name=value`. */
  args: string[];
}

/** One call; the worker answers each with a WorkerReply carrying the same id, in order. */
export type WorkerRequest =
  | { id: number; op: 'query' | 'command'; sql: string; params: BoundParams }
  /** `data` is JSONEachRow text; `table` has passed checkTableName. */
  | { id: number; op: 'insert'; table: string; data: string }
  /**
   * `file` holds JSONEachRow text that the engine reads itself (INSERT … FROM INFILE): megabytes of
   * rows never cross the IPC pipe, whose 64 KiB chunks each wait for both event loops.
   * `settings` come from insertSettings (names ours, values checked there).
   */
  | { id: number; op: 'insert-file'; table: string; file: string; settings: Record<string, string | number> }
  /**
   * `SELECT … INTO OUTFILE file FORMAT format`: the engine writes the result to `file` itself, so
   * no row crosses the pipe or enters the app's memory. `format` has passed the port's list.
   */
  | { id: number; op: 'export'; sql: string; params: BoundParams; format: string; file: string }
  /** Closes the session; the adapter terminates the worker after the reply. */
  | { id: number; op: 'close' };

export type WorkerReply = { id: number; ok: true; text: string } | { id: number; ok: false; error: WorkerError };

export interface WorkerError {
  message: string;
  clickhouseCode?: number;
  /** The engine or session is gone (chDB connection/closed errors), not the statement at fault. */
  unavailable: boolean;
}
