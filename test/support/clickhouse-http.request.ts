import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import type { EngineStatement } from './clickhouse-http.engine';

/** URL parameters the HTTP handler reads itself; every other one but param_* is a setting. */
const HANDLER_PARAMS = new Set([
  'query',
  'database',
  'default_format',
  'query_id',
  'session_id',
  'session_timeout',
  'session_check',
  'close_session',
  'wait_end_of_query',
  'buffer_size',
  'compress',
  'decompress',
  'user',
  'password',
  'quota_key',
  'stacktrace',
  'role',
  'client_protocol_version',
]);

export type Codec = 'gzip' | 'deflate' | 'br';
const DECODE: Record<Codec, (data: Buffer) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};
export const isCodec = (name: string): name is Codec => Object.hasOwn(DECODE, name);

/**
 * The statement is the `query` parameter, the body, or both joined by a newline, as a server reads
 * them. An INSERT in the URL with its rows in the body keeps the rows apart (binary-safe, never
 * parsed as SQL); with parameters, chDB takes them only inline, after the statement's FORMAT.
 */
export function toStatement(url: URL, req: IncomingMessage, body: Buffer): EngineStatement {
  const search = url.searchParams;
  if (search.get('compress') === '1' || search.get('decompress') === '1')
    throw exception(48, 'NOT_IMPLEMENTED', 'the test server does not speak ClickHouse native compression');
  if (req.headers['content-type']?.startsWith('multipart/form-data'))
    throw exception(48, 'NOT_IMPLEMENTED', 'the test server does not read multipart/form-data parameters');
  const params: Record<string, string> = {};
  const settings: Record<string, string> = {};
  for (const [name, value] of search) {
    if (name.startsWith('param_')) params[name.slice('param_'.length)] = value;
    else if (!HANDLER_PARAMS.has(name)) settings[name] = value;
  }
  const urlQuery = search.get('query') ?? '';
  const apart = body.length > 0 && /^\s*INSERT\b/i.test(urlQuery) && Object.keys(params).length === 0;
  const sql = apart ? urlQuery : [urlQuery, body.toString('utf8')].filter((part) => part !== '').join('\n');
  if (sql.trim() === '') throw exception(62, 'SYNTAX_ERROR', 'Empty query');
  return {
    sql,
    data: apart ? body : undefined,
    params,
    settings,
    database: search.get('database') ?? undefined,
    sessionId: search.get('session_id') ?? undefined,
    format: search.get('default_format') ?? 'TabSeparated',
    readonly: req.method === 'GET',
  };
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const encoding = req.headers['content-encoding']?.trim().toLowerCase();
  if (!encoding || encoding === 'identity') return body;
  if (!isCodec(encoding)) throw exception(36, 'BAD_ARGUMENTS', `Unknown Content-Encoding: ${encoding}`);
  return DECODE[encoding](body);
}

/** As a server: only with enable_http_compression=1, in the first codec the client accepts that we have. */
export function responseEncoding(url: URL, accept: string | undefined): Codec | undefined {
  const enabled = url.searchParams.get('enable_http_compression');
  if (enabled !== '1' && enabled !== 'true') return undefined;
  const accepted = (accept ?? '').split(',').map((item) => item.split(';')[0].trim().toLowerCase());
  return accepted.find(isCodec);
}

export function exception(code: number, type: string, message: string): Error {
  return new Error(`Code: ${code}. DB::Exception: ${message}. (${type})`);
}
