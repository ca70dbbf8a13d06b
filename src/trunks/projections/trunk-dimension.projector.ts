import {
  columnList,
  type Expect,
  type HasColumnsOf,
  PROJECTION_CHECKPOINTS,
  TRUNK_DIMENSION as DIMENSION_TABLE,
} from '../../infrastructure/clickhouse/schema';
import { ClickHouseExecutor } from '../../infrastructure/clickhouse/clickhouse.port';
import {
  decodePosition,
  encodePosition,
  EventStore,
  GlobalPosition,
  StoredEvent,
} from '../../infrastructure/event-store/event-store.port';
import { isTrunkEvent } from '../domain/trunk.events';
import { CheckpointedFollower } from '../../eventsourcing/checkpointed-follower';
import { type RebuiltFollower } from '../../eventsourcing/projection-runner';
import { redisCheckpointSource, runWhileLeading } from '../../eventsourcing/led-projection';
import { SharedCheckpoint } from '../../eventsourcing/shared-checkpoint';
import { ClusterServices } from '../../infrastructure/cluster/cluster.port';
import { checkpointChannel } from '../../infrastructure/cluster/lease-keys';
import { LeaderTerm, Leadership } from '../../infrastructure/cluster/leader-lease.port';

export const TRUNK_DIMENSION = 'trunk-dimension';
const NAME = TRUNK_DIMENSION;

export interface TrunkDimensionOptions {
  /**
   * Among instances sharing a ClickHouse server: tells every instance the new checkpoint, fenced
   * by the lease, after the checkpoint row is written. The rows themselves need no fence: each
   * carries its event's position as version, so a deposed leader's late insert never wins.
   */
  announce?: (position: GlobalPosition) => Promise<void>;
  /** The most events read and written at once (ProjectionSettings.batchSize); CATCH_UP_BATCH_SIZE by default. */
  batchSize?: number;
}

interface DimensionRow {
  account_id: string;
  trunk_id: string;
  name: string;
  provider: string;
  deleted: number;
  version: number;
}
/** DimensionRow is trunk_dimension as migrated (the typecheck fails when they part). */
export type DimensionRowIsStored = Expect<HasColumnsOf<DimensionRow, typeof DIMENSION_TABLE>>;

/**
 * Projects trunks (name, provider, deleted) from the event store into ClickHouse, so analytics
 * show a renamed trunk under its new name and a deleted one under its last. Rows replace by
 * version (the event's position), so re-applying a batch after a crash changes nothing; the
 * checkpoint is written after the rows.
 */
export class TrunkDimensionProjector extends CheckpointedFollower implements RebuiltFollower {
  private checkpointVersion = 0;

  constructor(
    events: EventStore,
    private readonly clickhouse: ClickHouseExecutor,
    private readonly options: TrunkDimensionOptions = {},
  ) {
    super(NAME, events, options.batchSize, DIMENSION_TYPES);
  }

  /** The checkpoint row in ClickHouse. */
  protected async loadCheckpoint(): Promise<GlobalPosition | null> {
    const [saved] = await this.clickhouse.query<{ position: string }>(
      `SELECT argMax(position, version) AS position FROM ${PROJECTION_CHECKPOINTS.name} WHERE name = {name:String} HAVING count() > 0`,
      { name: NAME },
    );
    return saved?.position ? decodePosition(saved.position) : null;
  }

  /** Rows, then the checkpoint row, then (among instances) the fenced announcement. */
  protected async commit(batch: StoredEvent[], last: GlobalPosition): Promise<void> {
    const rows = await this.rowsOf(batch.filter(changesDimension));
    if (rows.size > 0) await this.clickhouse.insert(DIMENSION_TABLE.name, [...rows.values()]);
    this.checkpointVersion = Math.max(this.checkpointVersion + 1, Date.now() * 1000);
    await this.clickhouse.insert(PROJECTION_CHECKPOINTS.name, [
      { name: NAME, position: encodePosition(last), version: this.checkpointVersion },
    ]);
    await this.options.announce?.(last);
  }

  private async rowsOf(stored: StoredEvent[]): Promise<Map<string, DimensionRow>> {
    const events = stored.filter(isTrunkEvent);
    const rows = await this.current(events.filter((e) => e.type !== 'TrunkCreated').map((e) => e.data.trunk_id));
    for (const event of events) {
      const version = Number(event.position.lo);
      const id = event.data.trunk_id;
      if (event.type === 'TrunkCreated') {
        rows.set(id, {
          account_id: event.data.account_id,
          trunk_id: id,
          name: event.data.name,
          provider: event.data.ai_provider,
          deleted: 0,
          version,
        });
      } else if (rows.has(id)) {
        const row = rows.get(id)!;
        if (event.type === 'TrunkDeleted') rows.set(id, { ...row, deleted: 1, version });
        else if (event.type === 'TrunkUpdated' && event.data.changes.name !== undefined)
          rows.set(id, { ...row, name: event.data.changes.name, version });
      }
    }
    return rows;
  }

  private async current(trunkIds: string[]): Promise<Map<string, DimensionRow>> {
    if (trunkIds.length === 0) return new Map();
    const rows = await this.clickhouse.query<DimensionRow>(
      `SELECT ${columnList(DIMENSION_TABLE)} FROM ${DIMENSION_TABLE.name} FINAL WHERE trunk_id IN {ids:Array(String)}`,
      { ids: [...new Set(trunkIds)] },
    );
    return new Map(rows.map((r) => [r.trunk_id, { ...r, version: Number(r.version), deleted: Number(r.deleted) }]));
  }
}

/** The event types that can change a row (changesDimension): a catch-up reads only these. */
const DIMENSION_TYPES: readonly string[] = ['TrunkCreated', 'TrunkUpdated', 'TrunkDeleted'];

/** Only creations, renames and deletions change a trunk's row (a new prompt or password does not). */
export function changesDimension(event: StoredEvent | { type: string; data: unknown }): boolean {
  if (event.type === 'TrunkCreated' || event.type === 'TrunkDeleted') return true;
  return event.type === 'TrunkUpdated' && (event.data as { changes?: { name?: string } }).changes?.name !== undefined;
}

/**
 * The trunk dimension of a ClickHouse server shared by the instances: projected by the leader of
 * its lease, its checkpoint announced (fenced) in Redis for every instance's writes to wait on.
 */
export function ledTrunkDimension(
  cluster: ClusterServices,
  events: EventStore,
  clickhouse: ClickHouseExecutor,
  batchSize?: number,
): { projector: TrunkDimensionProjector; shared: SharedCheckpoint; start(): Leadership } {
  const key = `${cluster.namespace}checkpoint:${TRUNK_DIMENSION}`;
  const channel = checkpointChannel(cluster.namespace, TRUNK_DIMENSION);
  const shared = new SharedCheckpoint(redisCheckpointSource(cluster, TRUNK_DIMENSION, () => cluster.redis.get(key)));
  let term: LeaderTerm | null = null;
  const projector = new TrunkDimensionProjector(events, clickhouse, {
    batchSize,
    announce: async (position) => {
      await cluster.writer.announce(term!, { key, channel, value: encodePosition(position) });
      shared.observe(position);
    },
  });
  return {
    projector,
    shared,
    start: () => runWhileLeading(cluster.lease, TRUNK_DIMENSION, (current) => ((term = current), projector)),
  };
}
