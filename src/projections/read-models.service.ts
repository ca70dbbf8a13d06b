import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { EVENT_STORE, EventStore, GlobalPosition } from '../infrastructure/event-store/event-store.port';
import { READ_MODEL_STORE, ReadModelStore } from '../infrastructure/read-model/read-model-store.port';
import { APP_CONFIG, AppConfig } from '../platform/config/app-config';
import { accountsProjection } from './accounts/accounts.projection';
import { apiKeysProjection } from './api-keys/api-keys.projection';
import { SECRET_BOX, SecretBox } from '../infrastructure/secrets/secret-box';
import { Projection } from './projection';
import { SecretReader, trunksProjection } from './trunks/trunks.projection';
import { ProjectionRunner, ProjectionStatus } from './projection-runner';

/** Every projection kept in the read-model store, in the order they apply each event. */
export function buildReadModelProjections(secrets: SecretReader, sipDomain: string): Projection[] {
  return [accountsProjection, apiKeysProjection, trunksProjection(secrets, sipDomain)];
}

/** The read models of Redis (or memory), kept by one checkpointed runner. */
@Injectable()
export class ReadModels implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly runner: ProjectionRunner;

  constructor(
    @Inject(EVENT_STORE) events: EventStore,
    @Inject(READ_MODEL_STORE) store: ReadModelStore,
    @Inject(SECRET_BOX) secrets: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext('projections');
    this.runner = new ProjectionRunner('read-models', buildReadModelProjections(secrets, config.sipDomain), store, events);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner.stop();
  }

  /**
   * Read-your-writes: a 2xx write returns once its events are in the read models. Past the
   * bound the write still succeeds (it is durable); the delay is logged.
   */
  async waitFor(position: GlobalPosition | null): Promise<void> {
    if (position === null) return;
    const reached = await this.runner.waitFor(position, this.config.consistencyTimeoutMs);
    if (!reached) this.logger.warn({ timeout_ms: this.config.consistencyTimeoutMs }, 'read models lag behind a write');
  }

  status(): Promise<ProjectionStatus> {
    return this.runner.status();
  }
}
