/**
 * The chDB engine's own process. chDB holds one engine per process (a second one, with another
 * data directory, crashes it), so every executor gets a child process of its own. Only the
 * synchronous chDB calls are used, and the message handler never awaits: each message runs to
 * completion before the next is taken, so the IPC channel's FIFO is the request queue and exactly
 * one statement runs at a time, which is what makes chDB's parameter binding safe.
 */
import type { WorkerError, WorkerInit, WorkerReply, WorkerRequest } from './chdb.protocol';

interface ChdbSession {
  query(sql: string, format: string): string;
  queryBind(sql: string, params: object, format: string): string;
  close(): void;
}
type SessionClass = new (path: string, options: { connectionArgs: readonly string[] }) => ChdbSession;

// Untyped require: chdb is an optional dependency, and the build must not need its types.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- chdb is optional: loaded untyped at run time, never at build time
const { Session } = require('chdb') as { Session: SessionClass };

const init = JSON.parse(process.env.TRUNKLINE_CHDB_INIT ?? '{}') as WorkerInit;
const session = new Session(init.path, { connectionArgs: init.args });

process.on('message', (request: WorkerRequest) => {
  const reply = handle(request);
  process.send!(reply);
  if (request.op === 'close') process.disconnect();
});
// The parent is gone (even SIGKILLed): nobody can use this engine any more, and the data
// directory must be free for the parent's successor.
process.on('disconnect', () => process.exit(0));
process.send!({ id: 0, ok: true, text: 'ready' } satisfies WorkerReply);

function handle(request: WorkerRequest): WorkerReply {
  try {
    return { id: request.id, ok: true, text: execute(request) };
  } catch (error) {
    return { id: request.id, ok: false, error: describe(error) };
  }
}

function execute(request: WorkerRequest): string {
  switch (request.op) {
    case 'query':
    case 'command': {
      const bound = Object.keys(request.params).length > 0;
      const text = bound
        ? session.queryBind(request.sql, request.params, 'JSONEachRow')
        : session.query(request.sql, 'JSONEachRow');
      return request.op === 'query' ? text : '';
    }
    case 'insert':
      // The rows follow the statement as its data, as in an HTTP insert body: the parser reads
      // everything after FORMAT as JSONEachRow, never as SQL. The table name is re-checked here
      // because this is where it meets the SQL text.
      if (!/^[a-z_][a-z0-9_]*$/.test(request.table)) throw new Error(`invalid table name: ${request.table}`);
      session.query(`INSERT INTO ${request.table} FORMAT JSONEachRow\n${request.data}`, 'JSONEachRow');
      return '';
    case 'insert-file':
      if (!/^[a-z_][a-z0-9_]*$/.test(request.table)) throw new Error(`invalid table name: ${request.table}`);
      session.query(
        `INSERT INTO ${request.table} FROM INFILE ${sqlString(request.file)}${settingsClause(request.settings)} FORMAT JSONEachRow`,
        'JSONEachRow',
      );
      return '';
    case 'export': {
      if (!/^[A-Za-z]+$/.test(request.format)) throw new Error(`invalid format: ${request.format}`);
      const sql = `${request.sql}\nINTO OUTFILE ${sqlString(request.file)} TRUNCATE FORMAT ${request.format}`;
      const bound = Object.keys(request.params).length > 0;
      if (bound) session.queryBind(sql, request.params, 'JSONEachRow');
      else session.query(sql, 'JSONEachRow');
      return '';
    }
    case 'close':
      session.close();
      return '';
  }
}

/** ` SETTINGS a = 1, b = 'x'` (or nothing): names are ours; values are numbers or quoted strings. */
function settingsClause(settings: Record<string, string | number>): string {
  const entries = Object.entries(settings);
  if (entries.length === 0) return '';
  for (const [name] of entries) if (!/^[a-z_]+$/.test(name)) throw new Error(`invalid setting name: ${name}`);
  return ` SETTINGS ${entries.map(([name, value]) => `${name} = ${typeof value === 'number' ? value : sqlString(value)}`).join(', ')}`;
}

/** A ClickHouse string literal: backslashes and quotes escaped, so a path is only ever a path. */
function sqlString(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

function describe(error: unknown): WorkerError {
  const e = error as { message?: unknown; code?: unknown; clickhouseCode?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message : String(error);
  return {
    message,
    clickhouseCode: typeof e?.clickhouseCode === 'number' ? e.clickhouseCode : exceptionCode(message),
    unavailable: e?.code === 'CHDB_CONNECTION' || e?.code === 'CHDB_CLOSED',
  };
}

/**
 * The synchronous calls prefix the engine's exception with "Query failed: ", so chdb's own parser
 * (anchored at the start) misses its code. This reads the same structured "Code: N. DB::Exception"
 * header, nothing else.
 */
function exceptionCode(message: string): number | undefined {
  const match = /\bCode: (\d+)\. DB::Exception/.exec(message);
  return match ? Number(match[1]) : undefined;
}
