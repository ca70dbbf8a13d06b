import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '../../infrastructure/event-store/event-store.port';
import { callsCompletedStream, CallsCompleted, CompletedCall } from '../domain/calls-completed.event';

export class RecordCallsCompleted {
  constructor(
    readonly accountId: string,
    readonly calls: CompletedCall[],
  ) {}
}

/**
 * One accepted ingestion batch of an account that receives call.completed becomes one
 * CallsCompleted event in a stream of its own (nothing to decide: a new stream per batch, so the
 * append needs no read first); the dispatcher projection fans it out like any other event.
 */
@CommandHandler(RecordCallsCompleted)
export class RecordCallsCompletedHandler implements ICommandHandler<RecordCallsCompleted, void> {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  async execute({ accountId, calls }: RecordCallsCompleted): Promise<void> {
    const batchId = randomUUID();
    const event: CallsCompleted = {
      type: 'CallsCompleted',
      data: { account_id: accountId, batch_id: batchId, calls },
    };
    await this.events.append(
      callsCompletedStream(batchId),
      [{ id: randomUUID(), ...event, metadata: { actor: 'system:ingestion' } }],
      'no_stream',
    );
  }
}
