import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ChildProcess, fork } from 'node:child_process';
import { fromClickHouseCode } from '../clickhouse.errors';
import {
  bindParams,
  checkTableName,
  DEFAULT_TIMEOUT_MS,
  EXECUTOR_SETTINGS,
  insertSettings,
  parseJsonEachRow,
  toJsonEachRow,
} from '../clickhouse.format';
import {
  type ClickHouseExecutor,
  type ClickHouseLogger,
  type ExportFormat,
  type InsertOptions,
  ClickHouseUnavailableError,
  type QueryParams,
  silentClickHouseLogger,
} from '../clickhouse.port';
import { checkChdbInstalled } from './chdb.addon';
import { embeddedServerArgs, WORKER_NODE_FLAGS } from './chdb.settings';
import type { WorkerInit, WorkerReply, WorkerRequest } from './chdb.protocol';
import { resolveWorkerEntry, type WorkerEntry } from './chdb-worker.entry';

export interface EmbeddedClickHouseOptions {
  /** The engine's data directory, `<DATA_DIR>/clickhouse`; created if missing. */
  dir: string;
  /** Statement time limit (max_execution_time). A statement cannot be interrupted from outside. */
  timeoutMs?: number;
  logger?: ClickHouseLogger;
  /** Tests only: run a particular build of the worker. */
  workerEntry?: WorkerEntry;
}

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type Call = WithoutId<WorkerRequest>;

interface Pending {
  resolve(text: string): void;
  reject(error: Error): void;
}

/**
 * chDB in the data directory. chDB is one engine per process and its parameter binding is unsafe
 * under concurrent calls, so the engine lives in a child process of its own that runs one
 * statement at a time (chdb.worker.ts); this side only numbers the calls and matches the replies.
 * If the child dies, the calls it held fail as unavailable and the next call starts a new one.
 */
export class EmbeddedClickHouse implements ClickHouseExecutor {
  readonly kind = 'embedded' as const;
  private worker: ChildProcess | null = null;
  private starting: Promise<ChildProcess> | null = null;
  /** Resolves when the last failed worker has exited: its successor starts only then. */
  private retired: Promise<void> = Promise.resolve();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private insertFiles = 0;
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly init: WorkerInit,
    private readonly entry: WorkerEntry,
    private readonly logger: ClickHouseLogger,
  ) {}

  /** Starts the engine and waits until it answers, so a bad data directory fails here. */
  static async open(options: EmbeddedClickHouseOptions): Promise<EmbeddedClickHouse> {
    checkChdbInstalled();
    await mkdir(options.dir, { recursive: true });
    const settings = {
      ...embeddedServerArgs(),
      ...EXECUTOR_SETTINGS,
      max_execution_time: Math.ceil((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000),
    };
    const args = Object.entries(settings).map(([name, value]) => `--${name}=${value}`);
    const entry = options.workerEntry ?? resolveWorkerEntry();
    const executor = new EmbeddedClickHouse(
      { path: options.dir, args },
      entry,
      options.logger ?? silentClickHouseLogger,
    );
    try {
      await executor.ping();
    } catch (error) {
      await executor.close();
      throw error;
    }
    return executor;
  }

  async command(sql: string, params?: QueryParams): Promise<void> {
    await this.call({ op: 'command', sql, params: bindParams(params) });
  }

  async query<T = Record<string, unknown>>(sql: string, params?: QueryParams): Promise<T[]> {
    const text = await this.call({ op: 'query', sql, params: bindParams(params) });
    return parseJsonEachRow<T>(text);
  }

  async insert(table: string, rows: readonly object[]): Promise<void> {
    checkTableName(table);
    if (rows.length === 0) return;
    await this.call({ op: 'insert', table, data: toJsonEachRow(rows) });
  }

  /**
   * The text reaches the engine as a file it reads itself, not through the IPC pipe: megabytes
   * cross the pipe in 64 KiB chunks, each written only when this process's event loop comes round,
   * so a busy app left the engine idle for most of a flush. Written in one synchronous call for the
   * same reason (into the page cache: milliseconds for 10 MB). The file is never what makes rows
   * durable, the INSERT is; it is removed once the INSERT has answered.
   */
  async insertJsonEachRow(table: string, text: string | Buffer, options?: InsertOptions): Promise<void> {
    checkTableName(table);
    const settings = insertSettings(options);
    if (text.length === 0) return;
    const file = this.nextInsertFile();
    try {
      writeFileSync(file, text);
    } catch (error) {
      throw new ClickHouseUnavailableError(`cannot write the rows for chDB: ${(error as Error).message}`, error);
    }
    try {
      await this.call({ op: 'insert-file', table, file, settings });
    } finally {
      await rm(file, { force: true }).catch(() => undefined);
    }
  }

  /** A new file in <dir>/insert-files; the first call clears what a crashed predecessor left there. */
  private nextInsertFile(): string {
    const dir = join(this.init.path, 'insert-files');
    if (this.insertFiles === 0) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
    }
    this.insertFiles += 1;
    return join(dir, `${this.insertFiles}.ndjson`);
  }

  /**
   * The engine writes `<file>.part` (INTO OUTFILE, in its own process), renamed to `file` once the
   * statement has answered: a reader never sees half a file, and a failure leaves none.
   */
  async exportToFile(
    sql: string,
    params: QueryParams | undefined,
    format: ExportFormat,
    file: string,
  ): Promise<{ bytes: number }> {
    const part = `${file}.part`;
    try {
      await this.call({ op: 'export', sql, params: bindParams(params), format, file: part });
      await rename(part, file);
    } catch (error) {
      await rm(part, { force: true }).catch(() => undefined);
      throw error;
    }
    return { bytes: (await stat(file)).size };
  }

  async ping(): Promise<void> {
    await this.call({ op: 'query', sql: 'SELECT 1', params: {} });
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const worker = this.worker ?? (await this.starting);
    if (!worker) return;
    // Queued behind every call already sent, so those finish first.
    await this.send(worker, { op: 'close' }).catch(() => undefined);
    if (worker.exitCode === null && worker.signalCode === null) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => worker.kill('SIGKILL'), 5000);
        worker.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private async call(call: Call): Promise<string> {
    if (this.closing) throw new ClickHouseUnavailableError('ClickHouse executor is closed');
    return this.send(this.worker ?? (await this.start()), call);
  }

  /** Calls waiting here resume in the order they came, so they reach the worker in that order. */
  private start(): Promise<ChildProcess> {
    this.starting ??= this.retired.then(async () => {
      try {
        return await this.spawn();
      } finally {
        this.starting = null;
      }
    });
    return this.starting;
  }

  private send(worker: ChildProcess, call: Call): Promise<string> {
    const id = this.nextId++;
    return new Promise<string>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.send({ ...call, id } satisfies WorkerRequest, (error) => {
        if (!error) return;
        this.pending.delete(id);
        reject(new ClickHouseUnavailableError(`chDB process unreachable: ${error.message}`, error));
      });
    });
  }

  private async spawn(): Promise<ChildProcess> {
    const worker = fork(this.entry.file, [], {
      execArgv: [...WORKER_NODE_FLAGS, ...(this.entry.execArgv ?? [])],
      serialization: 'advanced',
      // Only what the engine needs: the parent's secrets (MASTER_KEY, …) stay in the parent.
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        TZ: 'UTC',
        TRUNKLINE_CHDB_INIT: JSON.stringify(this.init),
      },
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    let stderr = '';
    worker.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
      process.stderr.write(chunk);
    });
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    // Calls already sent to a failed worker are lost with it; later calls go to its successor.
    const retire = (error: Error): void => {
      if (this.worker === worker) {
        this.worker = null;
        this.retired = exited;
      }
      this.failAll(error);
    };
    const ready = new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('exit', (code) =>
        reject(
          new ClickHouseUnavailableError(
            `chDB process exited before it was ready (code ${code}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`,
          ),
        ),
      );
    });
    worker.on('message', (reply: WorkerReply) => this.settle(reply));
    worker.on('error', (error) => {
      this.logger.warn({ err: error, dir: this.init.path }, 'embedded ClickHouse: chDB worker failed');
      retire(new ClickHouseUnavailableError(`chDB worker failed: ${error.message}`, error));
    });
    worker.on('exit', (code) => retire(new ClickHouseUnavailableError(`chDB worker exited (code ${code})`)));
    await ready;
    this.worker = worker;
    return worker;
  }

  private settle(reply: WorkerReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (reply.ok) return pending.resolve(reply.text);
    const { message, clickhouseCode, unavailable } = reply.error;
    pending.reject(
      unavailable
        ? new ClickHouseUnavailableError(message, undefined, clickhouseCode)
        : fromClickHouseCode(message, clickhouseCode, undefined),
    );
  }

  private failAll(error: Error): void {
    const calls = [...this.pending.values()];
    this.pending.clear();
    for (const call of calls) call.reject(error);
  }
}
