/**
 * The ClickHouse schema in one place: every table the migrations leave behind, with its columns in
 * order and their types as `system.columns` spells them. Writers insert into these names and
 * readers select from them; test/integration/clickhouse-schema.spec.ts runs every migration on a
 * fresh embedded chDB and fails when a table or a column here disagrees with the database.
 *
 * The migrations (./migrations/) are frozen: each one's text is checksummed when applied, so the
 * released ones keep their literal SQL and import nothing from here (an edit here would change an
 * applied migration's text and refuse the start). A new migration may take its table names from
 * here (a released name never changes) and writes its columns literally; describe its result here.
 * Materialized views (`<table>_mv`) are not described: nothing reads or writes them by name.
 */
import { SUMS } from './migrations/002-daily-stats';
import { SIGNALLING_SUMS as MIGRATED_SIGNALLING_SUMS } from './migrations/004-account-rollups';
import { TALK_SUMS as MIGRATED_TALK_SUMS } from './migrations/005-talk-and-quality';

/** A table: its name, and its columns in order with their ClickHouse types. */
export interface ClickHouseTable<C extends string = string> {
  readonly name: string;
  readonly columns: Readonly<Record<C, string>>;
}

export const defineTable = <C extends string>(name: string, columns: Record<C, string>): ClickHouseTable<C> => ({
  name,
  columns,
});

/** The column names of a table, in order. */
export const columnNames = <C extends string>(table: ClickHouseTable<C>): C[] => Object.keys(table.columns) as C[];

/** `a, b, c`: a SELECT or INSERT column list (the whole table by default). */
export const columnList = <C extends string>(
  table: ClickHouseTable<C>,
  names: readonly C[] = columnNames(table),
): string => names.join(', ');

/** The column names of a table, as a type. */
export type ColumnOf<T> = T extends ClickHouseTable<infer C> ? C : never;

/** Compiles only when Condition is `true`: `export type CallRowIsStored = Expect<HasColumnsOf<CallRow, typeof CALL_RECORDS>>`. */
export type Expect<Condition extends true> = Condition;
/** `true` when Row has exactly T's columns. */
export type HasColumnsOf<Row, T extends ClickHouseTable> = [
  Exclude<keyof Row, ColumnOf<T>> | Exclude<ColumnOf<T>, keyof Row>,
] extends [never]
  ? true
  : false;

const SUM_INT64 = 'SimpleAggregateFunction(sum, Int64)';
const typed = <C extends string>(names: readonly C[], type: string) =>
  Object.fromEntries(names.map((name) => [name, type])) as Record<C, string>;

/**
 * The Int64 sums of the stats, signalling and talk tables, which the overview reads: the lists
 * migrations 2, 4 and 5 created them with. A later migration that changes a table's sums writes the
 * new list here instead (the frozen one stays as it was applied).
 */
export const STATS_SUMS = SUMS;
export const SIGNALLING_SUMS = MIGRATED_SIGNALLING_SUMS;
export const TALK_SUMS = MIGRATED_TALK_SUMS;

const CODECS = 'SimpleAggregateFunction(sumMap, Tuple(Array(String), Array(Int64)))';
const LOSS_SUM = 'SimpleAggregateFunction(sum, Float64)';

/** One row per version of a call, with a cancel row (sign -1) per replaced version (migrations 1, 3, 5, 6). */
export const CALL_RECORDS = defineTable('call_records', {
  account_id: 'LowCardinality(String)',
  start_time: "DateTime64(3, 'UTC')",
  call_id: 'String',
  version: 'UInt64',
  sign: 'Int8',
  trunk_id: 'LowCardinality(String)',
  provider: 'LowCardinality(String)',
  direction: 'LowCardinality(String)',
  status: 'LowCardinality(String)',
  from_number: 'String',
  to_number: 'String',
  end_time: "Nullable(DateTime64(3, 'UTC'))",
  duration_seconds: 'UInt32',
  carrier_lag_ms: 'Nullable(UInt32)',
  ai_latency_ms: 'Nullable(UInt32)',
  gateway_processing_ms: 'Nullable(UInt32)',
  total_latency_ms: 'Nullable(UInt32)',
  latency_bin: 'UInt32',
  packet_loss_percent: 'Nullable(Float64)',
  jitter_ms: 'Nullable(UInt32)',
  codec_used: 'LowCardinality(String)',
  codec_group: 'LowCardinality(String)',
  disconnect_reason: 'LowCardinality(String)',
  turns: 'String',
  sip_trace: 'String',
  ingested_at: "DateTime64(3, 'UTC')",
  from_e164: 'String',
  to_e164: 'String',
  invite_at: "Nullable(DateTime64(3, 'UTC'))",
  ringing_at: "Nullable(DateTime64(3, 'UTC'))",
  answered_at: "Nullable(DateTime64(3, 'UTC'))",
  sip_code: 'Nullable(UInt16)',
  sip_reason: 'String',
  q850_cause: 'Nullable(UInt8)',
  failure_class: 'LowCardinality(String)',
  retryable: 'Nullable(UInt8)',
  source_address: 'String',
  answered: 'UInt8',
  billable_seconds: 'UInt32',
  mos: 'Nullable(Float64)',
});

/**
 * call_records narrowed to the columns the overview's partial edge hours read, typed as there,
 * every row with its sign, sorted by (account_id, start_time) in granules of 1,024 rows (migration 8).
 */
const OVERVIEW_ROW_COLUMNS = [
  'account_id',
  'start_time',
  'sign',
  'trunk_id',
  'status',
  'duration_seconds',
  'carrier_lag_ms',
  'ai_latency_ms',
  'gateway_processing_ms',
  'total_latency_ms',
  'latency_bin',
  'packet_loss_percent',
  'jitter_ms',
  'codec_group',
  'invite_at',
  'ringing_at',
  'answered_at',
  'sip_code',
  'failure_class',
  'answered',
  'billable_seconds',
  'mos',
] as const satisfies readonly ColumnOf<typeof CALL_RECORDS>[];
export const CALL_OVERVIEW_ROWS = defineTable(
  'call_overview_rows',
  Object.fromEntries(OVERVIEW_ROW_COLUMNS.map((name) => [name, CALL_RECORDS.columns[name]])) as Record<
    (typeof OVERVIEW_ROW_COLUMNS)[number],
    string
  >,
);

/**
 * The highest position whose INSERT returned, one row per feed (FEED_HORIZON_IDS): a feed serves
 * positions up to it (migration 6).
 */
export const CALL_FEED_HORIZON = defineTable('call_feed_horizon', {
  id: 'UInt8',
  version: 'SimpleAggregateFunction(max, UInt64)',
});

/**
 * The feeds that keep a horizon: call records (by version) and rejections (by ingested_at in
 * milliseconds, docs/analytics.md "Calls as they happen"). Every read of a horizon names its id.
 */
export const FEED_HORIZON_IDS = { calls: 0, rejections: 1 } as const;

/** One row per INVITE the SIP gateway refused (migration 3). */
export const CALL_REJECTIONS = defineTable('call_rejections', {
  account_id: 'LowCardinality(String)',
  trunk_id: 'LowCardinality(String)',
  at: "DateTime64(3, 'UTC')",
  rejection_id: 'String',
  reason: 'LowCardinality(String)',
  sip_code: 'UInt16',
  sip_reason: 'String',
  source_address: 'String',
  sip_username: 'String',
  from_number: 'String',
  to_number: 'String',
  ingested_at: "DateTime64(3, 'UTC')",
});

/** The trunks as the analytics join them (the trunk dimension projector writes it). */
export const TRUNK_DIMENSION = defineTable('trunk_dimension', {
  account_id: 'LowCardinality(String)',
  trunk_id: 'String',
  name: 'String',
  provider: 'LowCardinality(String)',
  deleted: 'UInt8',
  version: 'UInt64',
});

/** Where a projector into ClickHouse has got to in the event log. */
export const PROJECTION_CHECKPOINTS = defineTable('projection_checkpoints', {
  name: 'String',
  position: 'String',
  version: 'UInt64',
});

/** The aggregates, fed by materialized views: per trunk (call_*), then summed over the trunks (account_*). */
export const CALL_STATS_HOURLY = defineTable('call_stats_hourly', {
  account_id: 'LowCardinality(String)',
  trunk_id: 'LowCardinality(String)',
  hour: "DateTime('UTC')",
  calls: SUM_INT64,
  connected: SUM_INT64,
  failed: SUM_INT64,
  duration_sum: SUM_INT64,
  latency_calls: SUM_INT64,
  carrier_sum: SUM_INT64,
  ai_sum: SUM_INT64,
  gateway_sum: SUM_INT64,
  total_latency_sum: SUM_INT64,
  loss_calls: SUM_INT64,
  loss_sum: LOSS_SUM,
  jitter_calls: SUM_INT64,
  jitter_sum: SUM_INT64,
  latency_hist: 'SimpleAggregateFunction(sumMap, Tuple(Array(UInt32), Array(Int64)))',
  codecs: CODECS,
});

const LOW_CARDINALITY = 'LowCardinality(String)';
const HOUR = { hour: "DateTime('UTC')" };
const DAY = { day: "DateTime('UTC')" };
const STATS = { ...typed(STATS_SUMS, SUM_INT64), loss_sum: LOSS_SUM, codecs: CODECS };
const LATENCY = { bin: 'UInt32', n: SUM_INT64 };
const SIGNALLING = { failure_class: LOW_CARDINALITY, ...typed(SIGNALLING_SUMS, SUM_INT64) };
const TALK = typed(TALK_SUMS, SUM_INT64);

/** An aggregate per trunk: account, trunk, time, then its columns. */
const perTrunk = <T extends string, C extends string>(
  name: string,
  time: Record<T, string>,
  columns: Record<C, string>,
) => defineTable(name, { account_id: LOW_CARDINALITY, trunk_id: LOW_CARDINALITY, ...time, ...columns });
/** Its rollup over the trunks (migration 4): the same without trunk_id. */
const overTrunks = <T extends string, C extends string>(
  name: string,
  time: Record<T, string>,
  columns: Record<C, string>,
) => defineTable(name, { account_id: LOW_CARDINALITY, ...time, ...columns });

export const CALL_STATS_DAILY = perTrunk('call_stats_daily', DAY, STATS);
export const CALL_LATENCY_HOURLY = perTrunk('call_latency_hourly', HOUR, LATENCY);
export const CALL_LATENCY_DAILY = perTrunk('call_latency_daily', DAY, LATENCY);
export const CALL_SIGNALLING_HOURLY = perTrunk('call_signalling_hourly', HOUR, SIGNALLING);
export const CALL_TALK_HOURLY = perTrunk('call_talk_hourly', HOUR, TALK);
export const ACCOUNT_STATS_HOURLY = overTrunks('account_stats_hourly', HOUR, STATS);
export const ACCOUNT_LATENCY_HOURLY = overTrunks('account_latency_hourly', HOUR, LATENCY);
export const ACCOUNT_LATENCY_DAILY = overTrunks('account_latency_daily', DAY, LATENCY);
export const ACCOUNT_SIGNALLING_HOURLY = overTrunks('account_signalling_hourly', HOUR, SIGNALLING);
export const ACCOUNT_TALK_HOURLY = overTrunks('account_talk_hourly', HOUR, TALK);
/** Failed calls by final SIP code, 0 for none (migration 7). */
const FAILURE_CODES = { sip_code: 'UInt16', failed: SUM_INT64 };
export const CALL_FAILURE_CODES_HOURLY = perTrunk('call_failure_codes_hourly', HOUR, FAILURE_CODES);
export const ACCOUNT_FAILURE_CODES_HOURLY = overTrunks('account_failure_codes_hourly', HOUR, FAILURE_CODES);

/** The aggregates the overview reads, by what they hold: per trunk, and summed over the trunks. */
export const AGGREGATES = {
  stats_hourly: { perTrunk: CALL_STATS_HOURLY, overTrunks: ACCOUNT_STATS_HOURLY },
  latency_hourly: { perTrunk: CALL_LATENCY_HOURLY, overTrunks: ACCOUNT_LATENCY_HOURLY },
  latency_daily: { perTrunk: CALL_LATENCY_DAILY, overTrunks: ACCOUNT_LATENCY_DAILY },
  signalling_hourly: { perTrunk: CALL_SIGNALLING_HOURLY, overTrunks: ACCOUNT_SIGNALLING_HOURLY },
  talk_hourly: { perTrunk: CALL_TALK_HOURLY, overTrunks: ACCOUNT_TALK_HOURLY },
  failure_codes_hourly: { perTrunk: CALL_FAILURE_CODES_HOURLY, overTrunks: ACCOUNT_FAILURE_CODES_HOURLY },
} as const;
export type AggregateName = keyof typeof AGGREGATES;

/** The migrations applied, with the checksum of their text (migrations.ts). */
export const SCHEMA_MIGRATIONS = defineTable('schema_migrations', {
  version: 'UInt32',
  name: 'String',
  applied_at: "DateTime64(3, 'UTC')",
  checksum: 'String',
});

/** Every table the migrations leave behind (materialized views aside), which the schema test compares. */
export const CLICKHOUSE_TABLES: readonly ClickHouseTable[] = [
  CALL_RECORDS,
  CALL_OVERVIEW_ROWS,
  CALL_FEED_HORIZON,
  CALL_REJECTIONS,
  TRUNK_DIMENSION,
  PROJECTION_CHECKPOINTS,
  CALL_STATS_HOURLY,
  CALL_STATS_DAILY,
  CALL_LATENCY_HOURLY,
  CALL_LATENCY_DAILY,
  CALL_SIGNALLING_HOURLY,
  CALL_TALK_HOURLY,
  ACCOUNT_STATS_HOURLY,
  ACCOUNT_LATENCY_HOURLY,
  ACCOUNT_LATENCY_DAILY,
  ACCOUNT_SIGNALLING_HOURLY,
  ACCOUNT_TALK_HOURLY,
  CALL_FAILURE_CODES_HOURLY,
  ACCOUNT_FAILURE_CODES_HOURLY,
  SCHEMA_MIGRATIONS,
];
