import {
  AGGREGATES,
  type AggregateName,
  CALL_OVERVIEW_ROWS,
  CALL_STATS_DAILY,
  CALL_STATS_HOURLY,
  SIGNALLING_SUMS,
  STATS_SUMS as SUMS,
  TALK_SUMS,
  TRUNK_DIMENSION,
} from '../../infrastructure/clickhouse/schema';
import { rejectionCountsSql } from '../../rejections/read/rejection-counts';

/**
 * The overview's statements (overviewStatements) are each a UNION ALL of branches, each tagged by
 * `kind`, which ClickHouse runs in parallel threads (the embedded engine runs one statement at a
 * time, so separate statements run one after another). Every branch returns the same columns:
 * `key` (a trunk id, failure class, SIP code, rejection reason, or a bucket's second for latency
 * bins), `pos` (a bucket's unix second, a latency bin, or a rejection's SIP code), the sums below
 * (0 where a branch has none), codec counts and trunk names.
 *
 * Sources, so any instant range is exact: whole UTC days from the daily tables, the other whole
 * hours from the hourly ones, the partial hours at the range's edges from the raw records (their
 * narrow copy call_overview_rows, migration 8: every row call_records is given, cancel rows
 * included; read in one scan for the sums and the latency bins, weighted by sign as the views
 * aggregate them). Without a trunk filter the totals, buckets, histogram and failure classes come
 * from the account-level rollups (migration 4).
 */
export type SumColumn =
  (typeof SUMS)[number] | (typeof SIGNALLING_SUMS)[number] | (typeof TALK_SUMS)[number] | 'loss_sum';
/** The Int64 sums a row can carry, in the order of its `v` array. */
const INT_COLUMNS: readonly SumColumn[] = [...SUMS, ...SIGNALLING_SUMS.filter((c) => c !== 'failed'), ...TALK_SUMS];
type Exprs = Partial<Record<SumColumn | 'codecs' | 'names' | 'edge', string>>;

export type OverviewKind = 'total' | 'trunk' | 'bucket' | 'pct' | 'bin' | 'class' | 'code' | 'reason' | 'name';
export interface OverviewRow {
  kind: OverviewKind;
  key: string;
  pos: number | string;
  /** The Int64 sums in INT_COLUMNS order, cut after the last one the branch has; p50, p95, p99 for `pct`. */
  v: (number | string)[];
  loss: number;
  codecs: [string[], (number | string)[]];
  names: string[];
  /** The raw rows' edge: 1 the start edge's partial hour, 2 the end edge's; 0 for every other row. */
  edge: number;
}

/** A sum of an overview row, 0 where its branch has none. */
export function sumOf(row: OverviewRow, column: SumColumn): number {
  if (column === 'loss_sum') return Number(row.loss);
  return Number(row.v[INT_COLUMNS.indexOf(column)] ?? 0);
}

const STATS_SUMS: SumColumn[] = [...SUMS, 'loss_sum'];
const TRUNK_SUMS: SumColumn[] = ['calls', 'connected', 'latency_calls', 'total_latency_sum'];
const summed = (columns: readonly SumColumn[]): Exprs => Object.fromEntries(columns.map((c) => [c, `sum(${c})`]));

/*
 * One branch: kind, key and pos, then the sums packed in one array (planning the statement costs
 * per expression, and a column per sum padded with zeros in every branch cost 5 ms more), then
 * FROM/WHERE/GROUP BY.
 */
function branch(kind: string, key: string, pos: string, exprs: Exprs, rest: string): string {
  let last: number = INT_COLUMNS.length;
  while (last > 0 && !exprs[INT_COLUMNS[last - 1]]) last--;
  const values = INT_COLUMNS.slice(0, last).map((c) => exprs[c] ?? '0');
  const v = last === 0 ? `CAST([], 'Array(Int64)')` : `[${values.join(', ')}]`;
  const codecs = exprs.codecs ?? `CAST(([], []), 'Tuple(Array(String), Array(Int64))')`;
  return `SELECT ${kind} AS kind, ${key} AS key, ${pos} AS pos, ${v} AS v, ${exprs.loss_sum ?? '0'} AS loss, ${codecs} AS codecs,
    ${exprs.names ?? `CAST([], 'Array(String)')`} AS names, ${exprs.edge ?? '0'} AS edge ${rest}`;
}

/** The raw rows of the partial edge hours: call_records narrowed to what the edges read (migration 8). */
const EDGE_ROWS = CALL_OVERVIEW_ROWS.name;
const at = (name: string) => `toDateTime({${name}:Int64}, 'UTC')`;
const trunkFilter = (withTrunk: boolean) => (withTrunk ? 'AND trunk_id = {trunk:String}' : '');
const ACCOUNT = 'account_id = {account:String}';
const WHOLE_HOURS = `hour >= ${at('h0_s')} AND hour < ${at('h1_s')}`;
const msRange = (n: number) =>
  `(start_time >= fromUnixTimestamp64Milli({from${n}_ms:Int64}, 'UTC') AND start_time < fromUnixTimestamp64Milli({to${n}_ms:Int64}, 'UTC'))`;

/** Whole UTC days [d0, d1) from a daily table and the other whole hours [h0, d0) and [d1, h1) from an hourly one. */
function daysAndHours(daily: string, hourly: string, columns: string, withTrunk: boolean): string {
  return `(SELECT ${columns} FROM ${daily}
      WHERE ${ACCOUNT} AND day >= ${at('d0_s')} AND day < ${at('d1_s')} ${trunkFilter(withTrunk)}
    UNION ALL
    SELECT ${columns} FROM ${hourly}
      WHERE ${ACCOUNT} AND ((hour >= ${at('h0_s')} AND hour < ${at('d0_s')}) OR (hour >= ${at('d1_s')} AND hour < ${at('h1_s')})) ${trunkFilter(withTrunk)})`;
}

/*
 * The raw edge rows, sign-weighted exactly as the views aggregate them, in one scan grouped six
 * ways, each per edge (1 the start edge's partial hour, 2 the end edge's, so the handler can keep
 * the start edge's rows: overview-cache.ts): whole range, per trunk, per bucket, per failure class
 * (failed and the signalling spans), per final SIP code (failed; 0 for none, as migration 7 stores
 * it) and per (bucket, latency bin), whose `calls` is the bin's count of calls with a latency.
 */
const span = (name: string, from: string, to: string): Exprs => {
  const both = `${from} IS NOT NULL AND ${to} IS NOT NULL`;
  const ms = `(toUnixTimestamp64Milli(assumeNotNull(${to})) - toUnixTimestamp64Milli(assumeNotNull(${from})))`;
  return { [`${name}_calls`]: `sumIf(sign, ${both})`, [`${name}_sum_ms`]: `sumIf(${ms} * sign, ${both})` };
};
// sum and sumIf of Int8 and (U)Int32 × Int8 are Int64: the views' toInt64 casts are implied.
const HAS_LATENCY = 'total_latency_ms IS NOT NULL';
const RAW: Exprs = {
  calls: 'sum(sign)',
  connected: "sumIf(sign, status = 'connected')",
  failed: "sumIf(sign, status = 'failed')",
  duration_sum: 'sum(duration_seconds * sign)',
  latency_calls: `sumIf(sign, ${HAS_LATENCY})`,
  carrier_sum: `sumIf(ifNull(carrier_lag_ms, 0) * sign, ${HAS_LATENCY})`,
  ai_sum: `sumIf(ifNull(ai_latency_ms, 0) * sign, ${HAS_LATENCY})`,
  gateway_sum: `sumIf(ifNull(gateway_processing_ms, 0) * sign, ${HAS_LATENCY})`,
  total_latency_sum: `sumIf(assumeNotNull(total_latency_ms) * sign, ${HAS_LATENCY})`,
  loss_calls: 'sumIf(sign, packet_loss_percent IS NOT NULL)',
  loss_sum: 'sum(ifNull(packet_loss_percent, 0) * sign)',
  jitter_calls: 'sumIf(sign, jitter_ms IS NOT NULL)',
  jitter_sum: 'sum(ifNull(jitter_ms, 0) * sign)',
  ...span('pdd', 'invite_at', 'ringing_at'),
  ...span('ring', 'ringing_at', 'answered_at'),
  ...span('setup', 'invite_at', 'answered_at'),
  answered: 'sum(answered * sign)',
  billable_sum: 'sum(billable_seconds * sign)',
  mos_calls: 'sumIf(sign, mos IS NOT NULL)',
  mos_centi_sum: 'sumIf(toInt64(round(assumeNotNull(mos) * 100)) * sign, mos IS NOT NULL)',
  codecs: `sumMap(if(codec_group = '', CAST([], 'Array(String)'), [toString(codec_group)]), if(codec_group = '', CAST([], 'Array(Int64)'), [toInt64(sign)]))`,
};

function rawEdges(hourly: boolean, withTrunk: boolean): string {
  const bucket = hourly ? 'toStartOfHour(start_time)' : 'toStartOfDay(start_time)';
  const is = (column: string) => `grouping(${column}) = 0`;
  const binned = is('latency_bin');
  return branch(
    `multiIf(${is('trunk_id')}, 'trunk', ${binned}, 'bin', ${is(bucket)}, 'bucket', ${is('failure_class')}, 'class', ${is('sip_code')}, 'code', 'total')`,
    `multiIf(${is('trunk_id')}, toString(trunk_id), ${binned}, toString(toUnixTimestamp(${bucket})), ${is('failure_class')}, toString(failure_class), ${is('sip_code')}, toString(ifNull(sip_code, 0)), '')`,
    `multiIf(${binned}, latency_bin, ${is(bucket)}, toUnixTimestamp(${bucket}), 0)`,
    // A bin's count is its latency_calls (the same aggregate: ClickHouse computes it once).
    { ...RAW, calls: `if(${binned}, ${RAW.latency_calls}, ${RAW.calls})`, edge: EDGE },
    `FROM ${EDGE_ROWS} WHERE ${RAW_EDGES} ${trunkFilter(withTrunk)}
     GROUP BY GROUPING SETS ((edge), (edge, trunk_id), (edge, ${bucket}), (edge, failure_class), (edge, sip_code),
       (edge, ${bucket}, latency_bin))`,
  );
}

/** Which edge a raw row is in: [from1, to1) is the start edge, [from2, to2) the end edge, after it. */
const EDGE = "if(start_time < fromUnixTimestamp64Milli({to1_ms:Int64}, 'UTC'), 1, 2)";
const RAW_EDGES = `${ACCOUNT} AND (${msRange(1)} OR ${msRange(2)})`;

/*
 * The latency histogram's signed counts per (bucket, bin) over the whole hours: the daily rows
 * (whole days, daily buckets only) and the hourly ones (the other whole hours; every hour when
 * the buckets are hours).
 */
function wholeHoursBins(hourly: boolean, t: string, filter: string, table: (name: AggregateName) => string): string {
  const seconds = (expr: string) => `toUInt32(toUnixTimestamp(${expr}))`;
  return hourly
    ? `SELECT ${t}${seconds('hour')} AS b, bin, n FROM ${table('latency_hourly')} WHERE ${ACCOUNT} AND ${WHOLE_HOURS} ${filter}`
    : `SELECT ${t}${seconds('day')} AS b, bin, n FROM ${table('latency_daily')}
         WHERE ${ACCOUNT} AND day >= ${at('d0_s')} AND day < ${at('d1_s')} ${filter}
       UNION ALL
       SELECT ${t}${seconds('toStartOfDay(hour)')} AS b, bin, n FROM ${table('latency_hourly')}
         WHERE ${ACCOUNT} AND ((hour >= ${at('h0_s')} AND hour < ${at('d0_s')}) OR (hour >= ${at('d1_s')} AND hour < ${at('h1_s')})) ${filter}`;
}

const QUANTILES = 'arrayMap(q -> toInt64(q), quantilesExactWeighted(0.5, 0.95, 0.99)(bin, toUInt64(n)))';
const NO_CODECS = "CAST(([], []), 'Tuple(Array(String), Array(Int64))')";
const NO_NAMES = "CAST([], 'Array(String)')";

/*
 * p50/p95/p99 per trunk and bucket (trunk_series), from the histogram: signed counts per (bucket,
 * bin) gathered from the whole hours and the raw edge rows, added up per (bucket, bin), then
 * ranked by quantilesExactWeighted, which is the nearest rank (the smallest bin whose cumulative
 * count reaches ceil(p × n)). One row per (trunk, bucket), instead of every (bucket, bin).
 */
function trunkPercentilesBranch(hourly: boolean, filter: string, table: (name: AggregateName) => string): string {
  const rawBucket = hourly ? 'toStartOfHour(start_time)' : 'toStartOfDay(start_time)';
  const edges = `SELECT trunk_id, toUInt32(toUnixTimestamp(${rawBucket})) AS b, latency_bin AS bin, toInt64(sign) AS n FROM ${EDGE_ROWS}
       WHERE ${RAW_EDGES} AND ${HAS_LATENCY} ${filter}`;
  return `SELECT 'pct' AS kind, toString(trunk_id) AS key, b AS pos, ${QUANTILES} AS v, 0 AS loss, ${NO_CODECS} AS codecs, ${NO_NAMES} AS names, 0 AS edge
    FROM (SELECT trunk_id, b, bin, sum(n) AS n FROM (${wholeHoursBins(hourly, 'trunk_id, ', filter, table)} UNION ALL ${edges})
      GROUP BY trunk_id, b, bin HAVING n > 0)
    GROUP BY trunk_id, b`;
}

/*
 * The overview's percentiles, whole-hours part: each bucket's p50/p95/p99 over its whole hours
 * (kind 'pct'), and the bins (kind 'bin', pos the bin, v[0] its count) of the whole range (key '')
 * and of the two buckets the range's partial edge hours may fall in (key the bucket's second:
 * {e1_s}, {e2_s}), to which the handler adds the edges' own bins (overview-percentiles.ts).
 */
function wholeHoursPercentiles(hourly: boolean, filter: string, table: (name: AggregateName) => string) {
  const perBin = `SELECT b, bin, sum(n) AS n FROM (${wholeHoursBins(hourly, '', filter, table)}) GROUP BY b, bin HAVING n > 0`;
  return {
    'latency percentiles per bucket (whole hours)': `SELECT 'pct' AS kind, 'bucket' AS key, b AS pos, ${QUANTILES} AS v, 0 AS loss,
      ${NO_CODECS} AS codecs, ${NO_NAMES} AS names, 0 AS edge FROM (${perBin}) GROUP BY b`,
    // Key '0' (another bucket's bins, from the (e, bin) set) is dropped by the handler.
    'latency bins of the range and the edge buckets (whole hours)': branch(
      "'bin'",
      "if(grouping(e) = 0, toString(e), '')",
      'bin',
      { calls: 'toInt64(sum(n))' },
      `FROM (SELECT if(b IN ({e1_s:UInt32}, {e2_s:UInt32}), b, 0) AS e, bin, n FROM (${perBin}))
       GROUP BY GROUPING SETS ((bin), (e, bin))`,
    ),
  };
}

const RAW_EDGES_BRANCH = 'raw edges (partial hours), six groupings with their latency bins';

/**
 * The overview in two statements, each a UNION ALL of branches by name (the benchmark times each
 * one alone): what depends only on the whole hours of the range, which the handler keeps per
 * account until the writer stores rows in one of those hours (overview-cache.ts), and what is
 * read on every request: the raw rows of the partial edge hours (each kept too once it is a past
 * hour: analytics.queries.ts), the rejections of the instant range and the trunk names.
 */
export function overviewStatements(
  hourly: boolean,
  withTrunk: boolean,
): Record<'wholeHours' | 'edges', Record<string, string>> {
  // One trunk reads the trunk-level tables; a whole account their account-level rollups.
  const table = (name: AggregateName) => AGGREGATES[name][withTrunk ? 'perTrunk' : 'overTrunks'].name;
  const filter = trunkFilter(withTrunk);
  const bucket = hourly ? 'hour' : 'toStartOfDay(hour)';
  const wholeHours = {
    'totals and buckets (whole hours)': branch(
      `if(grouping(${bucket}) = 0, 'bucket', 'total')`,
      "''",
      `if(grouping(${bucket}) = 0, toUnixTimestamp(${bucket}), 0)`,
      { ...summed(STATS_SUMS), codecs: 'sumMap(codecs)' },
      `FROM ${table('stats_hourly')} WHERE ${ACCOUNT} AND ${WHOLE_HOURS} ${filter} GROUP BY GROUPING SETS ((), (${bucket}))`,
    ),
    'per trunk (whole days + other whole hours)': branch(
      "'trunk'",
      'trunk_id',
      '0',
      summed(TRUNK_SUMS),
      `FROM ${daysAndHours(CALL_STATS_DAILY.name, CALL_STATS_HOURLY.name, `trunk_id, ${TRUNK_SUMS.join(', ')}`, withTrunk)} GROUP BY trunk_id`,
    ),
    ...wholeHoursPercentiles(hourly, filter, table),
    'failure classes and signalling (whole hours)': branch(
      "'class'",
      'failure_class',
      '0',
      summed(SIGNALLING_SUMS),
      `FROM ${table('signalling_hourly')} WHERE ${ACCOUNT} AND ${WHOLE_HOURS} ${filter} GROUP BY failure_class`,
    ),
    'failed calls by SIP code (whole hours)': branch(
      "'code'",
      'toString(sip_code)',
      '0',
      { failed: 'sum(failed)' },
      `FROM ${table('failure_codes_hourly')} WHERE ${ACCOUNT} AND ${WHOLE_HOURS} ${filter} GROUP BY sip_code`,
    ),
    // Added to the totals: answered calls, billable seconds and MOS (migration 5).
    'talk and MOS (whole hours)': branch(
      "'total'",
      "''",
      '0',
      summed(TALK_SUMS),
      `FROM ${table('talk_hourly')} WHERE ${ACCOUNT} AND ${WHOLE_HOURS} ${filter}`,
    ),
  };
  const edges = {
    [RAW_EDGES_BRANCH]: rawEdges(hourly, withTrunk),
    'rejections by reason and SIP code': branch(
      "'reason'",
      'reason',
      'sip_code',
      { calls: 'toInt64(n)' },
      `FROM (${rejectionCountsSql(withTrunk)})`,
    ),
    'trunk names': branch("'name'", 'trunk_id', '0', { names: '[name, provider]' }, `FROM (${TRUNK_DIMENSION_SQL})`),
  };
  return { wholeHours, edges };
}

export const overviewWholeHoursSql = (hourly: boolean, withTrunk: boolean): string =>
  Object.values(overviewStatements(hourly, withTrunk).wholeHours).join('\nUNION ALL\n');

/** The edges statement; without `rawRows` (both edges empty or kept) only the rejections and the trunk names. */
export const overviewEdgesSql = (hourly: boolean, withTrunk: boolean, rawRows = true): string =>
  Object.entries(overviewStatements(hourly, withTrunk).edges)
    .filter(([name]) => rawRows || name !== RAW_EDGES_BRANCH)
    .map(([, sql]) => sql)
    .join('\nUNION ALL\n');

const IN_TRUNKS = 'AND trunk_id IN {trunks:Array(String)}';
const SERIES_SUMS: SumColumn[] = ['calls', 'connected', 'latency_calls', 'total_latency_sum'];

/**
 * `trunk_series`: each of the given trunks' own buckets in one statement, from the same sources as
 * the overview with `trunk_id` (the trunk-level hourly tables for whole hours, the raw rows for the
 * partial hours at the edges, the trunk-level latency histograms for the percentiles), so a trunk's
 * series equals its own overview's timeseries. Rows: kind 'bucket' (sums) and 'pct', key the trunk
 * id, pos the bucket's unix second.
 */
export function trunkSeriesSql(hourly: boolean): string {
  const table = (name: AggregateName) => AGGREGATES[name].perTrunk.name;
  const bucket = hourly ? 'hour' : 'toStartOfDay(hour)';
  const rawBucket = hourly ? 'toStartOfHour(start_time)' : 'toStartOfDay(start_time)';
  const columns = SERIES_SUMS.map((c) => `toInt64(${c}) AS ${c}`).join(', ');
  const rawColumns = SERIES_SUMS.map((c) => `toInt64(${RAW[c] ?? '0'}) AS ${c}`).join(', ');
  const sums = branch(
    "'bucket'",
    'toString(trunk_id)',
    'b',
    summed(SERIES_SUMS),
    `FROM (SELECT trunk_id, toUnixTimestamp(${bucket}) AS b, ${columns} FROM ${table('stats_hourly')}
         WHERE ${ACCOUNT} AND ${WHOLE_HOURS} ${IN_TRUNKS}
       UNION ALL
       SELECT trunk_id, toUnixTimestamp(${rawBucket}) AS b, ${rawColumns} FROM ${EDGE_ROWS}
         WHERE ${RAW_EDGES} ${IN_TRUNKS} GROUP BY trunk_id, b)
     GROUP BY trunk_id, b`,
  );
  return `${sums}\nUNION ALL\n${trunkPercentilesBranch(hourly, IN_TRUNKS, table)}`;
}

export interface AggregateRangeParams {
  h0_s: number;
  d0_s: number;
  d1_s: number;
  h1_s: number;
}

/** The whole-hour parameters for [fromMs, toMs) (multiples of an hour; empty when equal). */
export function aggregateRange(fromMs: number, toMs: number): AggregateRangeParams {
  const DAY = 86_400_000;
  if (fromMs >= toMs) return { h0_s: 0, d0_s: 0, d1_s: 0, h1_s: 0 };
  let d0 = Math.ceil(fromMs / DAY) * DAY;
  let d1 = Math.floor(toMs / DAY) * DAY;
  if (d0 >= d1) d0 = d1 = toMs;
  return { h0_s: fromMs / 1000, d0_s: d0 / 1000, d1_s: d1 / 1000, h1_s: toMs / 1000 };
}

export const TRUNK_DIMENSION_SQL = `SELECT trunk_id, argMax(name, version) AS name, argMax(provider, version) AS provider
  FROM ${TRUNK_DIMENSION.name} WHERE account_id = {account:String} GROUP BY trunk_id`;
