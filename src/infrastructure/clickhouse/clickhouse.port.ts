/**
 * The ClickHouse executor port. Adapters: ClickHouse server over HTTP (`@clickhouse/client`) and
 * embedded chDB in the data directory. Both run the same SQL and pass
 * test/contract/clickhouse.contract.ts.
 *
 * Parameters use ClickHouse's own `{name:Type}` placeholders in the SQL text; values never enter
 * the SQL. Do not put a FORMAT clause in the SQL: the adapters choose the format.
 *
 * Both adapters apply the same settings (clickhouse.format.ts, EXECUTOR_SETTINGS), so results look
 * the same whichever runs:
 * - 64-bit and wider integers come back as JSON numbers (output_format_json_quote_64bit_integers=0):
 *   exact up to 2^53. Select `toString(x)` where an exact 64-bit value matters (hashes, ids).
 * - DateTime/DateTime64 come back as ISO 8601 in UTC (`2024-05-01T12:00:00.250Z`), whatever the
 *   engine's time zone; Date as `2024-05-01`.
 * - Inserted rows may carry `Date` objects (sent as ISO 8601, parsed best-effort) and `bigint`
 *   (sent as a string, which ClickHouse reads into 64-bit columns). Unknown columns are an error.
 * - Time zones: chDB uses the process's zone, a server its own. Declare time columns with an
 *   explicit zone (`DateTime64(3, 'UTC')`) so functions like toStartOfDay agree.
 */

/**
 * A JS `Date` binds as a Unix timestamp (with milliseconds when it has them), independent of time
 * zones: bind it to `{t:DateTime64(3)}`; a `{t:DateTime}` placeholder rejects a fraction of a
 * second. A `Date` column takes `'YYYY-MM-DD'` as a string. A boolean binds as 1/0 (`Bool` or
 * `UInt8`). Numbers must be finite and, when integers, within ±2^53.
 */
export type QueryParams = Record<string, string | number | boolean | null | Date | string[] | number[]>;

export interface ClickHouseExecutor {
  /** DDL / statements without a result. One statement per call. */
  command(sql: string, params?: QueryParams): Promise<void>;
  /** SELECT … returning rows as objects (JSONEachRow), fully buffered. */
  query<T = Record<string, unknown>>(sql: string, params?: QueryParams): Promise<T[]>;
  /**
   * Inserts rows (objects keyed by column) into a table named by our code (/^[a-z_][a-z0-9_]*$/).
   * Durable when the promise resolves: the server acknowledged a synchronous insert
   * (async_insert=0), or chDB wrote the data part into the data directory. Rows are typed `object`
   * so that a row interface (which has no index signature) passes as it is.
   */
  insert(table: string, rows: readonly object[]): Promise<void>;
  /**
   * Inserts rows already written as JSONEachRow text (one JSON object a line, as `JSON.stringify`
   * writes them), handed to ClickHouse as they are: a writer that renders each row when it takes
   * it in does not pay for building objects and serializing them again on the INSERT's critical
   * path. Same table rule, durability and errors as `insert`; empty text inserts nothing.
   */
  insertJsonEachRow(table: string, text: string | Buffer, options?: InsertOptions): Promise<void>;
  /**
   * Runs a SELECT (no FORMAT clause) and has the engine itself write the result in `format` to
   * `file` on this machine's disk, replacing it: the rows never pass through this process's
   * memory (chDB writes the file from its own process; a server's response is streamed to the file
   * chunk by chunk). On failure no file is left at `file`. Resolves with the bytes written.
   */
  exportToFile(
    sql: string,
    params: QueryParams | undefined,
    format: ExportFormat,
    file: string,
  ): Promise<{ bytes: number }>;
  ping(): Promise<void>;
  /** Lets calls already made finish, then releases the connection or the engine. Idempotent. */
  close(): Promise<void>;
  readonly kind: 'server' | 'embedded';
}

/** Options of one INSERT of JSONEachRow text. */
export interface InsertOptions {
  /**
   * Makes the INSERT exactly-once when it is sent again after a failure: a failed INSERT may have
   * stored some blocks in the table and in some of its materialized views and not in others; sent
   * again with the same text and the same token, each block is stored once in the table and once
   * in every view fed from it (insert_deduplication_token with
   * deduplicate_blocks_in_dependent_materialized_views). Needs a deduplication window on the table
   * and on every table its views write (non_replicated_deduplication_window; Replicated tables keep
   * one by default). At most 128 characters of `[A-Za-z0-9_-]`; a new token for every new INSERT.
   */
  deduplicationToken?: string;
}

/** The output formats `exportToFile` writes, by ClickHouse's own names. */
export const EXPORT_FORMATS = ['CSVWithNames', 'JSONEachRow', 'Parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const CLICKHOUSE = Symbol('ClickHouse');

/** ClickHouse cannot be reached, timed out, is overloaded or closed: callers answer 503. */
export class ClickHouseUnavailableError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
    readonly clickhouseCode?: number,
  ) {
    super(message);
    this.name = 'ClickHouseUnavailableError';
  }
}

/** The statement failed: a bug in the SQL or bad data. Retrying the same call will not help. */
export class ClickHouseQueryError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
    readonly clickhouseCode?: number,
  ) {
    super(message);
    this.name = 'ClickHouseQueryError';
  }
}

/** The slice of a pino logger the adapters use (they never import the logging module). */
export interface ClickHouseLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export const silentClickHouseLogger: ClickHouseLogger = { info: () => undefined, warn: () => undefined };
