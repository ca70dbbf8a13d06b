/**
 * Enough of ClickHouse's HTTP interface for @clickhouse/client, answered by embedded chDB, so the
 * server adapter runs its contract where no ClickHouse server can. Run it as its own process
 * (clickhouse-http.process.ts): chDB holds one data directory per process.
 *
 *   node -r @swc-node/register test/support/clickhouse-http.server.ts <data dir>
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { ChdbHttpEngine, type EngineStatement } from './clickhouse-http.engine';
import { type Codec, exception, readBody, responseEncoding, toStatement } from './clickhouse-http.request';

const ENCODE: Record<Codec, (data: Buffer) => Promise<Buffer>> = {
  gzip: promisify(zlib.gzip),
  deflate: promisify(zlib.deflate),
  br: promisify(zlib.brotliCompress),
};

const TEXT = 'text/plain; charset=UTF-8';
const TIMEZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

interface Reply {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

export function createClickHouseHttpServer(engine: ChdbHttpEngine): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const queryId = url.searchParams.get('query_id') || randomUUID();
    const encoding = responseEncoding(url, req.headers['accept-encoding']);
    answer(engine, url, req)
      .catch(errorReply)
      .then(async ({ status, headers, body }) => {
        const encoded = encoding ? await ENCODE[encoding](body) : body;
        const common = { 'X-ClickHouse-Query-Id': queryId, 'X-ClickHouse-Timezone': TIMEZONE };
        res.writeHead(status, { ...common, ...headers, ...(encoding ? { 'Content-Encoding': encoding } : {}) });
        res.end(encoded);
      })
      .catch(() => res.destroy());
  });
}

async function answer(engine: ChdbHttpEngine, url: URL, req: IncomingMessage): Promise<Reply> {
  const text = (status: number, body: string): Reply => ({
    status,
    headers: { 'Content-Type': TEXT },
    body: Buffer.from(body),
  });
  if (url.pathname === '/ping' || (req.method === 'GET' && url.pathname === '/' && !url.searchParams.has('query')))
    return text(200, 'Ok.\n');
  if (url.pathname !== '/') return text(404, `There is no handle ${url.pathname}\n`);
  if (req.method !== 'GET' && req.method !== 'POST')
    throw exception(1, 'UNSUPPORTED_METHOD', `HTTP method ${req.method} is not supported`);
  const statement = toStatement(url, req, await readBody(req));
  const result = await engine.run(statement);
  const format = outputFormat(statement);
  const headers = {
    'Content-Type': contentType(format),
    'X-ClickHouse-Format': format,
    'X-ClickHouse-Summary': JSON.stringify(result.summary),
  };
  return { status: 200, headers, body: result.body };
}

function errorReply(error: unknown): Reply {
  const { code, message } = toException(error);
  const headers = { 'Content-Type': TEXT, 'X-ClickHouse-Exception-Code': String(code) };
  return { status: 500, headers, body: Buffer.from(`${message}\n`) };
}

function outputFormat(statement: EngineStatement): string {
  if (/^\s*INSERT\b/i.test(statement.sql)) return statement.format;
  return /\bFORMAT\s+([A-Za-z0-9_]+)\s*;?\s*$/i.exec(statement.sql)?.[1] ?? statement.format;
}

function contentType(format: string): string {
  if (/^JSON/i.test(format)) return 'application/json; charset=UTF-8';
  if (/^(TSV|TabSeparated)/i.test(format)) return 'text/tab-separated-values; charset=UTF-8';
  if (/^CSV/i.test(format)) return 'text/csv; charset=UTF-8';
  return 'text/plain; charset=UTF-8';
}

/** chDB's errors already read like a server's ("Code: 60. DB::Exception: … (UNKNOWN_TABLE)"). */
function toException(error: unknown): { code: number; message: string } {
  const message = (error instanceof Error ? error.message : String(error)).replace(/^Query failed: /, '');
  const code = /^Code: (\d+)\. DB::Exception/.exec(message)?.[1];
  if (code) return { code: Number(code), message };
  return toException(exception(1002, 'UNKNOWN_EXCEPTION', message));
}

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: clickhouse-http.server.ts <data dir>');
  const engine = ChdbHttpEngine.open(dataDir);
  const server = createClickHouseHttpServer(engine);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  if (!process.send) return console.log(`ClickHouse HTTP test server on http://127.0.0.1:${port}`);
  process.send({ port });
  // The test process is gone or done with us: nobody else can use this data directory.
  process.once('disconnect', () => {
    server.close();
    server.closeAllConnections();
    void engine.close().finally(() => process.exit(0));
  });
}

if (require.main === module)
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
