import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../eventsourcing/command-runner';
import {
  auditCheckpointDecider,
  type AuditCheckpointRecorded,
  auditCheckpointStream,
} from '../domain/audit-checkpoint.event';

export class RecordAuditCheckpoint {
  constructor(readonly seal: AuditCheckpointRecorded['data']) {}
}

/** Appends the seal the checkpointer computed, as the system's audit actor, to the account's checkpoint stream. */
@CommandHandler(RecordAuditCheckpoint)
export class RecordAuditCheckpointHandler implements ICommandHandler<RecordAuditCheckpoint, void> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ seal }: RecordAuditCheckpoint): Promise<void> {
    await this.runner.decideAndAppend(
      auditCheckpointStream(seal.account_id),
      auditCheckpointDecider,
      { seal },
      { state: auditCheckpointDecider.initialState(), revision: -1 },
      { actor: 'system:audit' },
      'any',
    );
  }
}
