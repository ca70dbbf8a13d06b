import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { LEADER_LEASE, LeaderLease } from '../../infrastructure/cluster/leader-lease.port';
import { LeasedPeriodicWorker } from '../../infrastructure/cluster/leased-periodic-worker';
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
export class AuditCheckpointer extends LeasedPeriodicWorker {
  private readonly seals = new AccountSeals();

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(LEADER_LEASE) lease: LeaderLease,
    @Inject(AUDIT_SETTINGS) settings: AuditSettings,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly commands: CommandBus,
    logging: AppLogger,
  ) {
    super(
      lease,
      {
        name: 'audit-checkpoints',
        intervalMs: settings.checkpointIntervalMs,
        failure: 'audit checkpoint round failed',
      },
      logging.for('audit-checkpoints'),
    );
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
