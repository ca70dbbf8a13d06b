import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppLogger } from '../platform/logging/logging';
import { EVENT_STORE, EventStore, GlobalPosition } from '../infrastructure/event-store/event-store.port';
import { READ_MODEL_STORE, ReadModelStore } from '../infrastructure/read-model/read-model-store.port';
import { APP_CONFIG, AppConfig } from '../platform/config/app-config';
import { accountsProjection } from './accounts/accounts.projection';
import { apiKeysProjection } from './api-keys/api-keys.projection';
import { CLICKHOUSE, ClickHouseExecutor } from '../infrastructure/clickhouse/clickhouse.port';
import { SECRET_BOX, SecretBox } from '../infrastructure/secrets/secret-box';
import { changesDimension, TrunkDimensionProjector } from './clickhouse/trunk-dimension.projector';
import { Projection } from './projection';
import { SecretReader, trunksProjection } from './trunks/trunks.projection';
import { ProjectionRunner, ProjectionStatus } from './projection-runner';

/** Every projection kept in the read-model store, in the order they apply each event. */
export function buildReadModelProjections(secrets: SecretReader, sipDomain: string): Projection[] {
  return [accountsProjection, apiKeysProjection, trunksProjection(secrets, sipDomain)];
}

/** The read models: Redis (or memory) by one checkpointed runner, the trunk dimension in ClickHouse by another. */
@Injectable()
export class ReadModels implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger: Logger;
  readonly runner: ProjectionRunner;
  readonly trunkDimension: TrunkDimensionProjector;

  constructor(
    @Inject(EVENT_STORE) events: EventStore,
    @Inject(READ_MODEL_STORE) store: ReadModelStore,
    @Inject(SECRET_BOX) secrets: SecretBox,
    @Inject(CLICKHOUSE) clickhouse: ClickHouseExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    logging: AppLogger,
  ) {
    this.logger = logging.for('projections');
    this.runner = new ProjectionRunner('read-models', buildReadModelProjections(secrets, config.sipDomain), store, events);
    this.trunkDimension = new TrunkDimensionProjector(events, clickhouse);
  }

  async onApplicationBootstrap(): Promise<void> {
    await Promise.all([this.runner.start(), this.trunkDimension.start()]);
  }

  /** Before the stores close (their modules close in onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([this.runner.stop(), this.trunkDimension.stop()]);
  }

  /**
   * Read-your-writes: a 2xx write returns once its events are in the read models. Past the
   * bound the write still succeeds (it is durable); the delay is logged.
   */
  async waitFor(position: GlobalPosition | null, events: { type: string; data: unknown }[] = []): Promise<void> {
    if (position === null) return;
    const timeout = this.config.consistencyTimeoutMs;
    // Analytics only need to wait when the trunk dimension itself changes (names, deletion).
    const waits = [this.runner.waitFor(position, timeout)];
    if (events.some(changesDimension)) waits.push(this.trunkDimension.waitFor(position, timeout));
    const reached = (await Promise.all(waits)).every(Boolean);
    if (!reached) this.logger.warn({ timeout_ms: this.config.consistencyTimeoutMs }, 'read models lag behind a write');
  }

  status(): Promise<ProjectionStatus> {
    return this.runner.status();
  }
}
