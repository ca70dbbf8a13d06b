import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type ClickHouseClient, createClient } from '@clickhouse/client';
import { redactCredentials } from '../../event-store/event-store.logger';
import { fromClickHouseCode, isPortError } from '../clickhouse.errors';
import {
  bindParams,
  checkTableName,
  DEFAULT_TIMEOUT_MS,
  EXECUTOR_SETTINGS,
  insertSettings,
  EXPORT_TIMEOUT_MS,
  stringifyRow,
} from '../clickhouse.format';
import {
  type ClickHouseExecutor,
  ClickHouseQueryError,
  ClickHouseUnavailableError,
  EXPORT_FORMATS,
  type ExportFormat,
  type InsertOptions,
  type QueryParams,
} from '../clickhouse.port';

export interface ServerClickHouseOptions {
  /** http(s)://[user:password@]host:port[/database] */
  url: string;
  /** Statement time limit; the HTTP request gets a little longer so the server's own error wins. */
  timeoutMs?: number;
}

/**
 * A ClickHouse server over HTTP. Selects and commands run with wait_end_of_query=1: the server
 * buffers the result, so an error raised mid-query arrives as an HTTP error instead of a truncated
 * 200 body.
 */
export class ServerClickHouse implements ClickHouseExecutor {
  readonly kind = 'server' as const;
  private closed = false;

  constructor(
    private readonly client: ClickHouseClient,
    /** Exports only: the same server with a request timeout as long as an export may take. */
    private readonly exportClient: ClickHouseClient = client,
  ) {}

  static connect(options: ServerClickHouseOptions): ServerClickHouse {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const client = ServerClickHouse.client(options.url, timeoutMs);
    // An export's statement carries its own longer max_execution_time (the export's SQL says it),
    // and the server answers only once it has finished (wait_end_of_query): its HTTP request may
    // wait that long.
    return new ServerClickHouse(client, ServerClickHouse.client(options.url, EXPORT_TIMEOUT_MS));
  }

  private static client(url: string, timeoutMs: number): ClickHouseClient {
    return createClient({
      url,
      application: 'trunkline',
      request_timeout: timeoutMs + 5_000,
      clickhouse_settings: { ...EXECUTOR_SETTINGS, max_execution_time: Math.ceil(timeoutMs / 1000) },
      json: { parse: JSON.parse, stringify: stringifyRow },
    });
  }

  async command(sql: string, params?: QueryParams): Promise<void> {
    const query_params = bindParams(params);
    await this.run(() =>
      this.client.command({ query: sql, query_params, clickhouse_settings: { wait_end_of_query: 1 } }),
    );
  }

  async query<T = Record<string, unknown>>(sql: string, params?: QueryParams): Promise<T[]> {
    const query_params = bindParams(params);
    return this.run(async () => {
      const result = await this.client.query({
        query: sql,
        query_params,
        format: 'JSONEachRow',
        clickhouse_settings: { wait_end_of_query: 1 },
      });
      return result.json<T>();
    });
  }

  async insert(table: string, rows: readonly object[]): Promise<void> {
    checkTableName(table);
    if (rows.length === 0) return;
    // async_insert=0 even if the user's profile turns it on: the promise must mean "stored".
    await this.run(() =>
      this.client.insert({ table, values: rows, format: 'JSONEachRow', clickhouse_settings: { async_insert: 0 } }),
    );
  }

  async insertJsonEachRow(table: string, text: string | Buffer, options?: InsertOptions): Promise<void> {
    checkTableName(table);
    const settings = insertSettings(options);
    if (text.length === 0) return;
    // insert() wants objects for JSON formats; exec() sends a body as it is. Its (empty) response
    // is read to the end so the socket goes back to the pool.
    await this.run(async () => {
      const result = await this.client.exec({
        query: `INSERT INTO ${table} FORMAT JSONEachRow`,
        values: Readable.from([typeof text === 'string' ? Buffer.from(text) : text]),
        clickhouse_settings: { async_insert: 0, ...settings },
      });
      await drain(result.stream);
    });
  }

  /**
   * The response body is piped to `<file>.part` as it arrives (the socket is read only as fast as
   * the disk takes it: constant memory), then renamed. wait_end_of_query=1 makes the server finish
   * (spilling to its own temporary file) before it answers, so an error is an HTTP error, never a
   * 200 body cut in the middle.
   */
  async exportToFile(
    sql: string,
    params: QueryParams | undefined,
    format: ExportFormat,
    file: string,
  ): Promise<{ bytes: number }> {
    if (!EXPORT_FORMATS.includes(format)) throw new ClickHouseQueryError(`invalid export format: ${String(format)}`);
    const query_params = bindParams(params);
    const part = `${file}.part`;
    try {
      await this.run(async () => {
        const result = await this.exportClient.exec({
          query: `${sql}\nFORMAT ${format}`,
          query_params,
          clickhouse_settings: { wait_end_of_query: 1 },
        });
        await pipeline(result.stream, createWriteStream(part));
      });
      await rename(part, file);
    } catch (error) {
      await rm(part, { force: true }).catch(() => undefined);
      throw error;
    }
    return { bytes: (await stat(file)).size };
  }

  async ping(): Promise<void> {
    // A SELECT rather than /ping, so that wrong credentials fail the health check too.
    const result = await this.run(() => this.client.ping({ select: true }));
    if (!result.success) throw toPortError(result.error);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close();
    if (this.exportClient !== this.client) await this.exportClient.close();
  }

  private async run<T>(call: () => Promise<T>): Promise<T> {
    if (this.closed) throw new ClickHouseUnavailableError('ClickHouse executor is closed');
    try {
      return await call();
    } catch (error) {
      throw toPortError(error);
    }
  }
}

/**
 * The server's errors carry a numeric code (as a string); anything else came from the transport
 * (refused, reset, timed out, a proxy's 5xx) unless it is a programming error on our side.
 */
export function toPortError(error: unknown): Error {
  if (isPortError(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = redactCredentials(error instanceof Error ? error.message : String(error));
  if (typeof code === 'string' && /^\d+$/.test(code)) return fromClickHouseCode(message, Number(code), error);
  if (error instanceof TypeError || error instanceof SyntaxError || error instanceof RangeError) {
    return new ClickHouseQueryError(message, error);
  }
  return new ClickHouseUnavailableError(`ClickHouse unreachable: ${message}`, error);
}

async function drain(stream: Readable): Promise<void> {
  for await (const chunk of stream) void chunk;
}
