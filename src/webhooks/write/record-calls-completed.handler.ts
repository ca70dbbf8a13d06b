import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../eventsourcing/command-runner';
import { callsCompletedDecider, callsCompletedStream, CompletedCall } from '../domain/calls-completed.event';

export class RecordCallsCompleted {
  constructor(
    readonly accountId: string,
    readonly calls: CompletedCall[],
  ) {}
}

/**
 * One accepted ingestion batch of an account that receives call.completed becomes one
 * CallsCompleted event in a stream of its own (a new stream per batch, so the append needs no
 * read first: decided on the empty stream, appended expecting none); the dispatcher projection
 * fans it out like any other event.
 */
@CommandHandler(RecordCallsCompleted)
export class RecordCallsCompletedHandler implements ICommandHandler<RecordCallsCompleted, void> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ accountId, calls }: RecordCallsCompleted): Promise<void> {
    const batchId = randomUUID();
    await this.runner.decideAndAppend(
      callsCompletedStream(batchId),
      callsCompletedDecider,
      { accountId, batchId, calls },
      { state: callsCompletedDecider.initialState(), revision: -1 },
      { actor: 'system:ingestion' },
    );
  }
}
