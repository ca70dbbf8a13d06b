import { statSync } from 'node:fs';
import type { ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import type { ExportResult, Headline, PartsInfo, RawRequest, SettleResult, TimedRuns } from './analytics-messages';
import { CH_RAW_TOTALS, chExportCsv, chRawGroups } from './analytics-sql';
import { timeSequential } from './analytics-timing';

/*
 * The bench's own statements, run in the app child through the app's executor: chDB allows one
 * engine per process, so they cannot run anywhere else while the app holds the data directory.
 */

/** Waits until no merge runs (twice in a row, a second apart), then reports the parts. */
export async function settle(clickhouse: ClickHouseExecutor, timeoutMs: number): Promise<SettleResult> {
  const started = performance.now();
  let quiet = 0;
  while (quiet < 2 && performance.now() - started < timeoutMs) {
    const [{ merges }] = await clickhouse.query<{ merges: number }>(
      'SELECT count() AS merges FROM system.merges WHERE database = currentDatabase()',
    );
    quiet = Number(merges) === 0 ? quiet + 1 : 0;
    if (quiet < 2) await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return { ms: performance.now() - started, settled: quiet >= 2, parts: await partsOf(clickhouse) };
}

export async function partsOf(clickhouse: ClickHouseExecutor): Promise<PartsInfo[]> {
  const rows = await clickhouse.query<{ table: string; parts: number; rows: number; bytes: number }>(
    `SELECT table, count() AS parts, sum(rows) AS rows, sum(bytes_on_disk) AS bytes FROM system.parts
     WHERE active AND database = currentDatabase() AND table IN ('call_records', 'call_stats_hourly') GROUP BY table ORDER BY table`,
  );
  return rows.map((r) => ({
    table: r.table,
    parts: Number(r.parts),
    rows: Number(r.rows),
    bytesOnDisk: Number(r.bytes),
  }));
}

interface RawTotals {
  calls: number;
  connected: number;
  pct: number[];
}
interface RawGroup {
  all_trunks: number;
}

/** The overview from call_records FINAL: the whole-range figures, then per trunk and per bucket. */
export async function timeRawOverview(clickhouse: ClickHouseExecutor, request: RawRequest): Promise<TimedRuns> {
  const params = { account: request.accountId, from_ms: request.fromMs, to_ms: request.toMs };
  let last: { totals: RawTotals; groups: RawGroup[] } | null = null;
  const samplesMs = await timeSequential(request.warmup, request.runs, async () => {
    const [totals] = await clickhouse.query<RawTotals>(CH_RAW_TOTALS, params);
    const groups = await clickhouse.query<RawGroup>(chRawGroups(request.hourly), params);
    last = { totals, groups };
  });
  return { samplesMs, headline: headlineOf(last!) };
}

function headlineOf({ totals, groups }: { totals: RawTotals; groups: RawGroup[] }): Headline {
  const trunks = groups.filter((g) => Number(g.all_trunks) === 0).length;
  return {
    totalCalls: Number(totals.calls),
    connectedCalls: Number(totals.connected),
    p95: Number(totals.pct[0]),
    p99: Number(totals.pct[1]),
    trunks,
    buckets: groups.length - trunks,
  };
}

/** The latest version of every call of the account, as CSV for PostgreSQL's COPY. */
export async function exportCsv(
  clickhouse: ClickHouseExecutor,
  path: string,
  accountId: string,
): Promise<ExportResult> {
  const started = performance.now();
  await clickhouse.command(chExportCsv(path), { account: accountId });
  const ms = performance.now() - started;
  const [{ rows }] = await clickhouse.query<{ rows: number }>(
    'SELECT count() AS rows FROM call_records FINAL WHERE account_id = {account:String}',
    { account: accountId },
  );
  return { rows: Number(rows), ms, bytes: statSync(path).size };
}
