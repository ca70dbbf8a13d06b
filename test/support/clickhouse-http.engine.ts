import { dirname, join } from 'node:path';

/** One statement as the HTTP layer received it; names and values are ClickHouse's own text. */
export interface EngineStatement {
  sql: string;
  /** An INSERT's rows, when the statement came in the URL and the rows in the body. */
  data?: Buffer;
  /** `param_<name>` values, already in ClickHouse's text form (the client escaped them). */
  params: Record<string, string>;
  settings: Record<string, string>;
  database?: string;
  sessionId?: string;
  /** `default_format`; a FORMAT clause in the statement wins, as on a server. */
  format: string;
  /** GET requests, as on a server (readonly=2: settings may change, data may not). */
  readonly: boolean;
}

export interface EngineResult {
  body: Buffer;
  /** X-ClickHouse-Summary. chDB counts less than a server does; what it does not count is 0. */
  summary: Record<string, string>;
}

type Connection = unknown;
interface QueryOutput {
  bytes: Uint8Array;
  elapsed: number;
  rowsRead: number;
  bytesRead: number;
}
interface InsertOutput {
  elapsed: number;
  rowsWritten: number;
  bytesWritten: number;
}
/**
 * The chdb addon's own entry points. The public Session.queryBind formats JS values itself
 * (TSV-escaping strings), but a server binds `param_*` text exactly as the client escaped it; the
 * addon takes that text as is. It also takes an INSERT's rows beside the statement, as a server
 * reads them from the body, so the rows never pass through the SQL parser.
 */
interface ChdbNative {
  CreateConnection(path: string, args: readonly string[]): Connection;
  CloseConnection(connection: Connection): void;
  QueryAsyncConnection(connection: Connection, sql: string, format: string, params?: object): Promise<QueryOutput>;
  InsertRawAsyncConnection(
    connection: Connection,
    sql: string,
    data: Buffer,
    countLines: boolean,
  ): Promise<InsertOutput>;
}

function loadChdbNative(): ChdbNative {
  const loader = join(dirname(require.resolve('chdb')), 'dist', 'loader.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the addon is not in chdb's exports map
  const native = (require(loader) as { loadNative(): Partial<ChdbNative> }).loadNative();
  const needed = ['CreateConnection', 'CloseConnection', 'QueryAsyncConnection', 'InsertRawAsyncConnection'] as const;
  const missing = needed.filter((name) => typeof native[name] !== 'function');
  if (missing.length > 0) throw new Error(`this chdb build has no ${missing.join(', ')}; update the HTTP test server`);
  return native as ChdbNative;
}

const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * chDB in one data directory, answering statements the way a server's HTTP handler would. Each
 * request gets a fresh connection, so its URL settings last for that request only; a session_id
 * keeps its connection (and whatever it SET). Statements run one at a time: chDB's parameter
 * binding is process-wide state.
 */
export class ChdbHttpEngine {
  private readonly sessions = new Map<string, Connection>();
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly native: ChdbNative,
    private readonly path: string,
    /** Held open so that the engine is not torn down between requests. */
    private readonly anchor: Connection,
  ) {}

  static open(path: string): ChdbHttpEngine {
    const native = loadChdbNative();
    return new ChdbHttpEngine(native, path, native.CreateConnection(path, []));
  }

  run(statement: EngineStatement): Promise<EngineResult> {
    const turn = this.tail.then(() => this.execute(statement));
    this.tail = turn.catch(() => undefined);
    return turn;
  }

  async close(): Promise<void> {
    await this.tail;
    for (const connection of [...this.sessions.values(), this.anchor]) this.native.CloseConnection(connection);
    this.sessions.clear();
  }

  private async execute(statement: EngineStatement): Promise<EngineResult> {
    const session = statement.sessionId === undefined ? undefined : this.session(statement.sessionId);
    const connection = session ?? this.native.CreateConnection(this.path, []);
    try {
      await this.prepare(connection, statement);
      if (statement.data) {
        const out = await this.native.InsertRawAsyncConnection(connection, statement.sql, statement.data, false);
        return {
          body: Buffer.alloc(0),
          summary: summary(out.elapsed, { written: [out.rowsWritten, out.bytesWritten] }),
        };
      }
      const bound = Object.keys(statement.params).length > 0 ? statement.params : undefined;
      const out = await this.native.QueryAsyncConnection(connection, statement.sql, statement.format, bound);
      return { body: Buffer.from(out.bytes), summary: summary(out.elapsed, { result: [out.rowsRead, out.bytesRead] }) };
    } finally {
      if (!session) this.native.CloseConnection(connection);
    }
  }

  private session(id: string): Connection {
    let connection = this.sessions.get(id);
    if (connection === undefined) {
      connection = this.native.CreateConnection(this.path, []);
      this.sessions.set(id, connection);
    }
    return connection;
  }

  /** URL settings through SET, so that the engine checks names and values as a server does. */
  private async prepare(connection: Connection, statement: EngineStatement): Promise<void> {
    const settings = Object.entries(statement.settings);
    if (statement.readonly) settings.push(['readonly', '2']);
    if (settings.length > 0) {
      const bad = settings.find(([name]) => !SETTING_NAME.test(name));
      if (bad) throw new Error(`Code: 115. DB::Exception: Unknown setting '${bad[0]}'. (UNKNOWN_SETTING)`);
      const list = settings.map(([name, value]) => `${name} = ${quote(value)}`).join(', ');
      await this.native.QueryAsyncConnection(connection, `SET ${list}`, 'TabSeparated');
    }
    if (statement.database !== undefined) {
      await this.native.QueryAsyncConnection(connection, `USE ${identifier(statement.database)}`, 'TabSeparated');
    }
  }
}

/** chDB's rowsRead/bytesRead count the result (rows, bytes in memory), not what was read. */
function summary(elapsedSeconds: number, counts: { result?: number[]; written?: number[] }): Record<string, string> {
  const [resultRows, resultBytes] = counts.result ?? [0, 0];
  const [writtenRows, writtenBytes] = counts.written ?? [0, 0];
  return {
    read_rows: '0',
    read_bytes: '0',
    written_rows: String(writtenRows),
    written_bytes: String(writtenBytes),
    total_rows_to_read: '0',
    result_rows: String(resultRows),
    result_bytes: String(resultBytes),
    elapsed_ns: String(Math.round(elapsedSeconds * 1e9)),
  };
}

function quote(value: string): string {
  return `'${value.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

function identifier(name: string): string {
  return `\`${name.replace(/[\\`]/g, (c) => `\\${c}`)}\``;
}
