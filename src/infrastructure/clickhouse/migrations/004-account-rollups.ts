import { SUMS } from './002-daily-stats';

const SUM = 'SimpleAggregateFunction(sum, Int64)';
/** The Int64 sums of the signalling tables. */
export const SIGNALLING_SUMS = [
  'failed',
  'pdd_calls',
  'pdd_sum_ms',
  'ring_calls',
  'ring_sum_ms',
  'setup_calls',
  'setup_sum_ms',
] as const;

interface Rollup {
  table: string;
  source: string;
  time: 'hour' | 'day';
  /** Grouping columns after (account_id, time), typed. */
  keys: [string, string][];
  /** Int64 sums, then any other columns typed and aggregated as given. */
  sums: readonly string[];
  others?: { name: string; type: string; aggregate: string }[];
}

/** One trunk-level table summed over its trunks: table, backfill, then the view (the order migration 2 explains). */
export function rollup({ table, source, time, keys, sums, others = [] }: Rollup): string[] {
  const grouping = ['account_id', time, ...keys.map(([name]) => name)];
  const select = `SELECT ${grouping.join(', ')},
      ${[...sums.map((c) => `sum(${c}) AS ${c}`), ...others.map((o) => `${o.aggregate}(${o.name}) AS ${o.name}`)].join(',\n      ')}
    FROM ${source}
    GROUP BY ${grouping.join(', ')}`;
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (
      account_id LowCardinality(String),
      ${time} DateTime('UTC'),
      ${[...keys.map(([name, type]) => `${name} ${type}`), ...sums.map((c) => `${c} ${SUM}`)].join(',\n      ')}${others.map((o) => `,\n      ${o.name} ${o.type}`).join('')}
    ) ENGINE = AggregatingMergeTree
    ORDER BY (${grouping.join(', ')})`,
    `TRUNCATE TABLE IF EXISTS ${table}`,
    `INSERT INTO ${table} ${select}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table}_mv TO ${table} AS ${select}`,
  ];
}

/**
 * Account-level rollups of the trunk-level aggregates, for the overview of a whole account.
 *
 * Without a trunk filter the overview sums over every trunk: 30 days of 50 trunks are 36,000
 * hourly stats rows and, as histogram rows, about 750,000 daily ones at 10M calls (one per trunk,
 * day and latency bin), which the overview read on every request. Summed over the trunks they are
 * 720 and about 25,000. Only the per-trunk breakdown still needs the trunk-level tables, and only
 * its whole days and edge hours.
 *
 * The tables are small (a row per account and hour, or per bin), so they are not partitioned:
 * background merges can then fold them into one part, and a read costs per part and column.
 *
 * Each table is fed by a view cascading from its trunk-level table (the view reads the already
 * aggregated block the trunk-level view inserts, not the raw rows), so the signed counts of a
 * retracted version are subtracted here as there. Backfilled from the trunk-level table before
 * its view exists, after emptying it, as migration 2 does.
 */
export const ACCOUNT_ROLLUPS_MIGRATION = {
  version: 4,
  name: 'account-level rollups of the overview aggregates',
  sql: [
    ...rollup({
      table: 'account_stats_hourly',
      source: 'call_stats_hourly',
      time: 'hour',
      keys: [],
      sums: SUMS,
      others: [
        { name: 'loss_sum', type: 'SimpleAggregateFunction(sum, Float64)', aggregate: 'sum' },
        {
          name: 'codecs',
          type: 'SimpleAggregateFunction(sumMap, Tuple(Array(String), Array(Int64)))',
          aggregate: 'sumMap',
        },
      ],
    }),
    ...rollup({
      table: 'account_latency_hourly',
      source: 'call_latency_hourly',
      time: 'hour',
      keys: [['bin', 'UInt32']],
      sums: ['n'],
    }),
    ...rollup({
      table: 'account_latency_daily',
      source: 'call_latency_daily',
      time: 'day',
      keys: [['bin', 'UInt32']],
      sums: ['n'],
    }),
    ...rollup({
      table: 'account_signalling_hourly',
      source: 'call_signalling_hourly',
      time: 'hour',
      keys: [['failure_class', 'LowCardinality(String)']],
      sums: SIGNALLING_SUMS,
    }),
  ],
};
