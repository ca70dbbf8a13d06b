import { ClickHouseQueryError, type InsertOptions, type QueryParams } from './clickhouse.port';

/**
 * Settings both adapters apply to every statement (server: client settings; chDB: engine
 * arguments), so the same SQL yields the same JSON. Why each one is here: see clickhouse.port.ts.
 */
export const EXECUTOR_SETTINGS = {
  output_format_json_quote_64bit_integers: 0,
  date_time_input_format: 'best_effort',
  date_time_output_format: 'iso',
  input_format_skip_unknown_fields: 0,
  // A JSON array given for a String column is stored as its text (call ingestion sends `turns` so).
  input_format_json_read_arrays_as_strings: 1,
} as const;

/** Both adapters' statement time limit: past it ClickHouse stops the query (TIMEOUT_EXCEEDED). */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The most an export's statement may run (its SQL says `SETTINGS max_execution_time`, which wins
 * over the executor's 30 s for that statement on both adapters): a job, not a request.
 */
export const EXPORT_TIMEOUT_MS = 3_600_000;

/** Parameter values as both libraries format them the same way. */
export type BoundParams = Record<string, string | number | null | string[] | number[]>;

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Normalises what the two libraries would format differently: the HTTP client sends a Date as a
 * Unix timestamp and a boolean as 1/0, chDB a Date as 'YYYY-MM-DD HH:MM:SS' (dropping the
 * milliseconds) and a boolean as true/false. We send the client's forms to both.
 */
export function bindParams(params: QueryParams | undefined): BoundParams {
  const bound: BoundParams = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    if (!PARAM_NAME.test(name)) throw new ClickHouseQueryError(`invalid query parameter name: ${JSON.stringify(name)}`);
    bound[name] = bindValue(name, value);
  }
  return bound;
}

function bindValue(name: string, value: QueryParams[string]): BoundParams[string] {
  if (value instanceof Date) return unixTimestamp(name, value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return checkNumber(name, value);
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item === 'number') checkNumber(name, item);
    return value;
  }
  return value;
}

function unixTimestamp(name: string, date: Date): string {
  const ms = date.getTime();
  if (Number.isNaN(ms)) throw new ClickHouseQueryError(`query parameter ${name} is an invalid Date`);
  const seconds = Math.floor(ms / 1000);
  const fraction = ms - seconds * 1000;
  return fraction === 0 ? String(seconds) : `${seconds}.${String(fraction).padStart(3, '0')}`;
}

function checkNumber(name: string, value: number): number {
  if (!Number.isFinite(value)) throw new ClickHouseQueryError(`query parameter ${name} is not finite: ${value}`);
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
    throw new ClickHouseQueryError(`query parameter ${name} is beyond ±2^53 and has lost precision; pass a string`);
  }
  return value;
}

export function checkTableName(table: string): string {
  if (!TABLE_NAME.test(table)) throw new ClickHouseQueryError(`invalid table name: ${JSON.stringify(table)}`);
  return table;
}

const DEDUPLICATION_TOKEN = /^[A-Za-z0-9_-]{1,128}$/;

/** The settings of an INSERT with InsertOptions (the token checked, since chDB's worker puts it in SQL text). */
export function insertSettings(options: InsertOptions | undefined): Record<string, string | number> {
  const token = options?.deduplicationToken;
  if (token === undefined) return {};
  if (!DEDUPLICATION_TOKEN.test(token))
    throw new ClickHouseQueryError(`invalid deduplication token: ${JSON.stringify(token.slice(0, 200))}`);
  return {
    insert_deduplicate: 1,
    insert_deduplication_token: token,
    deduplicate_blocks_in_dependent_materialized_views: 1,
  };
}

/** JSON for one row; bigint becomes a string, which ClickHouse parses into (U)Int64/128/256. */
export function stringifyRow(row: unknown): string {
  // A replacer function takes JSON.stringify off its fast path for every row; only rows that
  // hold a bigint (JSON.stringify throws on those) need it.
  try {
    return JSON.stringify(row);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  }
}

export function toJsonEachRow(rows: readonly object[]): string {
  return rows.map(stringifyRow).join('\n') + '\n';
}

/** JSONEachRow text to objects. JSON escapes newlines inside strings, so '\n' only ends rows. */
export function parseJsonEachRow<T>(text: string): T[] {
  const rows: T[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (end > start) rows.push(JSON.parse(text.slice(start, end)) as T);
    start = end + 1;
  }
  return rows;
}
