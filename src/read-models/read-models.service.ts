import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppLogger } from '../platform/logging/logging';
import {
  comparePositions,
  decodePosition,
  EVENT_STORE,
  EventStore,
  GlobalPosition,
} from '../infrastructure/event-store/event-store.port';
import { READ_MODEL_STORE, ReadModelStore } from '../infrastructure/read-model/read-model-store.port';
import { PROJECTION_SETTINGS, ProjectionSettings } from '../eventsourcing/projection.settings';
import { CLICKHOUSE, ClickHouseExecutor } from '../infrastructure/clickhouse/clickhouse.port';
import { CLUSTER, ClusterServices } from '../infrastructure/cluster/cluster.port';
import { Leadership } from '../infrastructure/cluster/leader-lease.port';
import { SECRET_BOX, SecretBox } from '../infrastructure/secrets/secret-box';
import {
  changesDimension,
  ledTrunkDimension,
  TrunkDimensionProjector,
} from '../trunks/projections/trunk-dimension.projector';
import { readModelRunner, startHere } from '../eventsourcing/led-projection';
import { ProjectionRunner, ProjectionStatus } from '../eventsourcing/projection-runner';
import { SharedCheckpoint } from '../eventsourcing/shared-checkpoint';
import type { ReadModelStatus } from '../eventsourcing/read-model-status.port';
import type { ReadYourWrites } from '../eventsourcing/read-your-writes.port';
import { RestoreMark, RestoreWatch } from '../eventsourcing/restore-watch';
import type { GateRecords } from './gate-records';
import { buildReadModelProjections, READ_MODELS_RUNNER as READ_MODELS } from './read-model-projections';

export { buildReadModelProjections, READ_MODEL_EVENT_TYPES } from './read-model-projections';

/** The gate's record store and its invalidations (gate-records.ts), provided by ReadModelsModule. */
export const GATE_RECORDS = Symbol('GateRecords');
/** Behind the event store by more than this, the read models are catching up, not merely busy. */
const RESTORING_LAG_MS = 1000;

/**
 * The read models: Redis (or memory) by one checkpointed runner, the trunk dimension in ClickHouse
 * by another. Each runs on one instance at a time: the holder of its lease in Redis, or this
 * process when its store is its own (memory read models, embedded chDB). Writes wait on the shared
 * checkpoint, whichever instance leads.
 */
@Injectable()
export class ReadModels implements ReadModelStatus, ReadYourWrites, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger: Logger;
  readonly runner: ProjectionRunner;
  readonly trunkDimension: TrunkDimensionProjector;
  /** Set when another instance may be the one applying the events (Redis read models). */
  private readonly shared: SharedCheckpoint | null = null;
  private readonly sharedDimension: SharedCheckpoint | null = null;
  private readonly starters: (() => Promise<Leadership>)[];
  private leaderships: Leadership[] = [];
  /** Restores as this instance has seen them: requests note it when they start (restoreMark). */
  private readonly restores: RestoreWatch;
  /** When this instance began: a lag counts as a restore only for events older than that. */
  private readonly startedAtMs = Date.now();
  /** When restoringSince last logged why a miss was answered 503. */
  private loggedAtMs = 0;

  constructor(
    @Inject(EVENT_STORE) events: EventStore,
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    @Inject(SECRET_BOX) secrets: SecretBox,
    @Inject(CLICKHOUSE) clickhouse: ClickHouseExecutor,
    @Inject(PROJECTION_SETTINGS) private readonly settings: ProjectionSettings,
    @Inject(CLUSTER) cluster: ClusterServices | null,
    @Inject(GATE_RECORDS) records: GateRecords,
    logging: AppLogger,
  ) {
    this.logger = logging.for('projections');
    const projections = buildReadModelProjections(secrets, settings.sipDomain);
    const { readModelNamespace, batchSize } = settings;
    this.restores = new RestoreWatch(() => this.restoring());
    const readModels = readModelRunner(
      cluster,
      READ_MODELS,
      projections,
      store,
      readModelNamespace,
      events,
      batchSize,
      {
        // A resume from nothing after this instance saw a checkpoint is a replay of every event
        // (Redis lost its data). A first start has seen none; memory read models never lose data.
        onResume: (checkpoint) =>
          checkpoint === null && this.shared?.checkpoint && this.restores.begun('resumed from no checkpoint'),
        onBehind: () => this.restores.begun('the shared checkpoint went back'),
      },
      // Every instance's copies of the records a batch wrote are dropped before it is announced.
      records.invalidations ?? undefined,
    );
    this.runner = readModels.runner;
    this.shared = readModels.shared;
    this.starters = [() => readModels.start()];
    // An embedded chDB belongs to this process alone: its dimension is projected here, unled.
    if (cluster && clickhouse.kind === 'server') {
      const led = ledTrunkDimension(cluster, events, clickhouse, batchSize);
      this.sharedDimension = led.shared;
      this.trunkDimension = led.projector;
      this.starters.push(async () => led.start());
    } else {
      const projector = new TrunkDimensionProjector(events, clickhouse, { batchSize });
      this.trunkDimension = projector;
      this.starters.push(() => startHere(projector));
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    await Promise.all([this.shared?.start(), this.sharedDimension?.start()]);
    this.leaderships = await Promise.all(this.starters.map((start) => start()));
  }

  /** Before the stores close (their modules close in onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.leaderships.map((leadership) => leadership.stop()));
    this.shared?.stop();
    this.sharedDimension?.stop();
    this.restores.stop();
  }

  /**
   * Read-your-writes: a 2xx write returns once its events are in the read models. Past the
   * bound the write still succeeds (it is durable); the delay is logged.
   */
  async waitFor(
    position: GlobalPosition | null,
    events: readonly { type: string; data: unknown }[] = [],
  ): Promise<void> {
    if (position === null) return;
    const timeout = this.settings.consistencyTimeoutMs;
    // Analytics only need to wait when the trunk dimension itself changes (names, deletion).
    const waits = [(this.shared ?? this.runner).waitFor(position, timeout)];
    if (events.some(changesDimension))
      waits.push((this.sharedDimension ?? this.trunkDimension).waitFor(position, timeout));
    const reached = (await Promise.all(waits)).every(Boolean);
    if (!reached)
      this.logger.warn({ timeout_ms: this.settings.consistencyTimeoutMs }, 'read models lag behind a write');
  }

  /**
   * True while the read models are being restored: the store holds less than this instance has
   * already seen applied (Redis lost its data: restarted without persistence, flushed), or they
   * are well behind on events recorded before this instance started (a replay; an instance that
   * started during one has seen nothing go back). A key missing then may only be missing for now: the gate answers 503, not 401.
   */
  async restoring(): Promise<boolean> {
    // Not fed to the watch: a lagging projection on a busy machine is not a restore begun or
    // ended (only the watch's own check, while a restore is believed under way, ends one).
    const cause = await this.restoringCause();
    if (cause !== null) this.logRestoring(cause, 'read models restoring: a key or trunk missing now is answered 503');
    return cause !== null;
  }

  /** Taken when a request starts, from memory: what restoringSince compares with. */
  restoreMark(): RestoreMark {
    return this.restores.mark();
  }

  /**
   * Whether a "not found" read since `mark` may only mean "not replayed yet": a restore was under
   * way when the request started, or began or ended since, or is under way now. Only asked of
   * answers that are misses, so the check's store reads stay off the hot path.
   */
  async restoringSince(mark: RestoreMark): Promise<boolean> {
    let cause = this.restores.changedSince(mark) ? this.restores.cause : await this.restoringCause();
    // A restore seen beginning or ending while the check ran counts too.
    if (cause === null && this.restores.changedSince(mark)) cause = this.restores.cause;
    if (cause === null) return false;
    this.logRestoring(cause, 'a miss answered 503: read models restoring');
    return true;
  }

  /** At most once a second: an operator sees why requests were answered 503, not every one of them. */
  private logRestoring(cause: string, message: string): void {
    const now = Date.now();
    if (now - this.loggedAtMs < 1000) return;
    this.loggedAtMs = now;
    this.logger.warn({ cause, restore_generation: this.restores.mark().generation }, message);
  }

  /** Why the read models count as restoring now (null: they do not). */
  private async restoringCause(): Promise<string | null> {
    const seen = this.shared?.checkpoint ?? null;
    if (seen) {
      const stored = await this.store.get(`checkpoint:${READ_MODELS}`);
      if (stored === null) return 'the stored checkpoint is gone';
      if (comparePositions(decodePosition(stored), seen) < 0) return 'the stored checkpoint is behind one seen';
    }
    // Well behind on events recorded before this instance started: it started during a replay (it
    // has seen no checkpoint go back). Events recorded since are live traffic, however busy the
    // machine: a lagging projection is not a restore.
    const { lagMs } = await this.runner.status();
    return lagMs > Math.max(RESTORING_LAG_MS, Date.now() - this.startedAtMs)
      ? `behind by ${lagMs} ms on events older than this instance`
      : null;
  }

  status(): Promise<ProjectionStatus> {
    return this.runner.status();
  }
}
