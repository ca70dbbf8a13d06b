import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import { ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { TrunkDimensionProjector } from '../../src/trunks/projections/trunk-dimension.projector';
import { TRUNK_DIMENSION_SQL } from '../../src/analytics/read/analytics.sql';
import { accountCreated } from '../support/account-builders';
import { followerSpec, SpecEvent, SpecTarget } from '../support/projection-spec';
import { sipPasswordRotated, trunkCreated, trunkDeleted, trunkUpdated } from '../support/trunk-builders';

/**
 * The trunk dimension in embedded chDB (the real engine, a worker process: hence integration, not
 * unit). One engine for the file; each run of a spec starts from emptied tables.
 */
const root = mkdtempSync(join(tmpdir(), 'trunkline-trunk-dimension-'));
let clickhouse: ClickHouseExecutor;
beforeAll(async () => {
  clickhouse = await createClickHouse({ url: null, dataDir: root });
});
afterAll(async () => {
  await clickhouse?.close();
  await rm(root, { recursive: true, force: true });
});

const trunkDimension: SpecTarget<ClickHouseExecutor> = async (feed) => {
  await clickhouse.command('TRUNCATE TABLE trunk_dimension');
  await clickhouse.command('TRUNCATE TABLE projection_checkpoints');
  return { store: clickhouse, follower: new TrunkDimensionProjector(feed, clickhouse) };
};

type Row = { trunk_id: string; name: string; provider: string };

/**
 * acct_1's trunks as analytics names them (TRUNK_DIMENSION_SQL), with the deleted flag of each
 * row: no reader reads that flag yet, so it is read as the row holds it.
 */
async function dimension(ch: ClickHouseExecutor) {
  const account = { account: 'acct_1' };
  const rows = await ch.query<Row>(TRUNK_DIMENSION_SQL, account);
  const flags = await ch.query<{ trunk_id: string; deleted: number }>(
    `SELECT trunk_id, argMax(deleted, version) AS deleted FROM trunk_dimension
      WHERE account_id = {account:String} GROUP BY trunk_id`,
    account,
  );
  const deleted = new Set(flags.filter((f) => Number(f.deleted) === 1).map((f) => f.trunk_id));
  return rows
    .map((row) => ({ ...row, deleted: deleted.has(row.trunk_id) }))
    .sort((a, b) => a.trunk_id.localeCompare(b.trunk_id));
}

const spec = followerSpec(trunkDimension, dimension);
const MAIN_LINE = { trunk_id: 'conn_1', name: 'Main line', provider: 'openai', deleted: false };

describe('trunk dimension projector (embedded chDB)', () => {
  it('shows a created trunk under its name and provider', async () => {
    await spec.given().when(trunkCreated()).then([MAIN_LINE]);
  });

  it('shows a renamed trunk under its new name', async () => {
    await spec
      .given(trunkCreated())
      .when(trunkUpdated({ name: 'Support' }, { previous_name: 'Main line' }))
      .then([{ ...MAIN_LINE, name: 'Support' }]);
  });

  it('keeps a deleted trunk under its last name, marked deleted', async () => {
    await spec
      .given(trunkCreated(), trunkUpdated({ name: 'Support' }))
      .when(trunkDeleted({ name: 'Support' }))
      .then([{ ...MAIN_LINE, name: 'Support', deleted: true }]);
  });

  it('leaves the row alone for a change of settings or status, or a password rotation', async () => {
    await spec
      .given(trunkCreated())
      .when(trunkUpdated({ system_prompt: 'Be brief' }), trunkUpdated({ status: 'inactive' }), sipPasswordRotated())
      .thenNothingChanged();
  });

  it('writes nothing for a rename or deletion of a trunk it never saw', async () => {
    await spec
      .given(trunkCreated())
      .when(trunkUpdated({ name: 'Ghost' }, { trunk_id: 'conn_9' }), trunkDeleted({ trunk_id: 'conn_9' }))
      .thenNothingChanged();
  });

  it("keeps another account's trunks out of this account's dimension", async () => {
    const theirs = { trunk_id: 'conn_2', account_id: 'acct_2' };
    await spec
      .given(trunkCreated())
      .when(
        trunkCreated({ ...theirs, name: 'Theirs' }),
        trunkUpdated({ name: 'Renamed' }, theirs),
        trunkDeleted(theirs),
      )
      .thenNothingChanged();
  });

  it('does not let an old creation delivered again undo a later rename (rows replace by position)', async () => {
    await spec
      .given(trunkCreated(), trunkUpdated({ name: 'Support' }))
      .when(trunkCreated())
      .thenNothingChanged();
  });

  it('ignores events that are not about trunks', async () => {
    await spec.given(trunkCreated()).when(accountCreated()).thenNothingChanged();
  });

  describe('replaying the last event changes nothing', () => {
    const cases: [string, SpecEvent[]][] = [
      ['a creation', [trunkCreated()]],
      ['a rename', [trunkCreated(), trunkUpdated({ name: 'Support' })]],
      ['a deletion', [trunkCreated(), trunkDeleted()]],
    ];
    it.each(cases)('%s', async (_name, history) => {
      await spec
        .given(...history)
        .when(history[history.length - 1])
        .thenNothingChanged();
    });
  });
});
