import type { ClickHouseMigration } from '../migrations';
import { CALL_RECORDS_MIGRATION } from './001-call-records';
import { DAILY_STATS_MIGRATION } from './002-daily-stats';
import { SIP_GATEWAY_MIGRATION } from './003-sip-gateway';
import { ACCOUNT_ROLLUPS_MIGRATION } from './004-account-rollups';
import { TALK_AND_QUALITY_MIGRATION } from './005-talk-and-quality';
import { CALL_FEED_MIGRATION } from './006-call-feed';
import { FAILURE_CODES_MIGRATION } from './007-failure-codes';
import { OVERVIEW_ROWS_MIGRATION } from './008-overview-rows';
import { INSERT_DEDUPLICATION_MIGRATION } from './009-insert-deduplication';

/**
 * The ClickHouse schema, applied in order at start (runMigrations). Append new versions; never edit
 * or renumber a released one. Write every statement repeatable (IF NOT EXISTS), and give time
 * columns an explicit zone (DateTime64(3, 'UTC')) so embedded chDB and a server agree.
 *
 */
export const CLICKHOUSE_MIGRATIONS: readonly ClickHouseMigration[] = [
  CALL_RECORDS_MIGRATION,
  DAILY_STATS_MIGRATION,
  SIP_GATEWAY_MIGRATION,
  ACCOUNT_ROLLUPS_MIGRATION,
  TALK_AND_QUALITY_MIGRATION,
  CALL_FEED_MIGRATION,
  FAILURE_CODES_MIGRATION,
  OVERVIEW_ROWS_MIGRATION,
  INSERT_DEDUPLICATION_MIGRATION,
];
