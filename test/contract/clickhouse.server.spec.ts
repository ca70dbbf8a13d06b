import { tmpdir } from 'node:os';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import { clickHouseContract } from './clickhouse.contract';

/** Point CLICKHOUSE_URL at a scratch database: the suite creates tables and a schema_migrations table there. */
const url = process.env.CLICKHOUSE_URL;

if (url) {
  clickHouseContract('server', () => createClickHouse({ url, dataDir: tmpdir() }));
} else {
  describe('ClickHouse contract (server)', () => {
    it('is skipped: CLICKHOUSE_URL not set', () => {
      console.warn(
        'skipped: CLICKHOUSE_URL not set — the ClickHouse server contract needs a live server and a scratch database, e.g. CLICKHOUSE_URL=http://default:@127.0.0.1:8123/trunkline_test',
      );
    });
  });
}
