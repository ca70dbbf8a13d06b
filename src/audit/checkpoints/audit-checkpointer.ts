import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import {
  LEADER_LEASE,
  LeaderLease,
  Leadership,
  runPeriodicallyWhileLeader,
} from '../../infrastructure/cluster/leader-lease.port';
import { EVENT_STORE, EventStore } from '../../infrastructure/event-store/event-store.port';
import { AppLogger } from '../../platform/logging/logging';
import { CLOCK, Clock } from '../../shared/clock';
import { AUDIT_SETTINGS, AuditSettings } from '../audit.settings';
import { RecordAuditCheckpoint } from '../write/record-audit-checkpoint.handler';
import { AccountSeals } from './account-seals';

const PAGE = 1000;

/**
 * Records the account-wide checkpoints: every AUDIT_CHECKPOINT_INTERVAL_MS, reads the global log
 * on from where it stopped and appends, for each account with events no checkpoint covers yet,
 * the Merkle root of its stream heads (through the RecordAuditCheckpoint command). One instance among many does it (a lease); a new holder
 * rebuilds what it needs from the log itself.
 */
@Injectable()
export class AuditCheckpointer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger: Logger;
  private readonly seals = new AccountSeals();
  private leadership: Leadership | null = null;
  private stopped = false;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(LEADER_LEASE) private readonly lease: LeaderLease,
    @Inject(AUDIT_SETTINGS) private readonly settings: AuditSettings,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly commands: CommandBus,
    logging: AppLogger,
  ) {
    this.logger = logging.for('audit-checkpoints');
  }

  onApplicationBootstrap(): void {
    this.leadership = runPeriodicallyWhileLeader(
      this.lease,
      'audit-checkpoints',
      this.settings.checkpointIntervalMs,
      () => this.round(),
      (error) => this.logger.warn({ err: { message: error.message } }, 'audit checkpoint round failed'),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.leadership?.stop();
  }

  /** Catches up with the log, then seals every account that needs it; returns how many. */
  async round(): Promise<number> {
    for (;;) {
      if (this.stopped) return 0;
      const batch = await this.events.readAll({ after: this.seals.through, maxCount: PAGE });
      for (const event of batch) this.seals.apply(event);
      if (batch.length < PAGE) break;
    }
    let sealed = 0;
    for (const seal of this.seals.due(this.clock.now())) {
      if (this.stopped) break;
      await this.commands.execute(new RecordAuditCheckpoint(seal));
      this.seals.sealed(seal.account_id);
      sealed += 1;
    }
    return sealed;
  }
}
