import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { GlobalPosition, VersionConflictError } from '../../infrastructure/event-store/event-store.port';
import { CommandRunner } from '../../eventsourcing/command-runner';
import {
  WebhookDeliveryCommand,
  webhookDeliveryDecider,
  WebhookDeliveryState,
  webhookDeliveryStream,
} from '../domain/webhook-delivery.decider';
import { WebhookDeliveryEvent } from '../domain/webhook-delivery.events';

/**
 * An outcome of a delivery (an attempt's result, abandonment, expiry), decided on the state the
 * caller saw in the delivery's view at `revision`: one event-store round trip for the worker and
 * the retention sweeper, through the same decide-and-append step as every other command.
 */
export class DecideDeliveryOutcome {
  constructor(
    readonly deliveryId: string,
    readonly known: { state: WebhookDeliveryState; revision: number },
    readonly command: WebhookDeliveryCommand,
  ) {}
}

export interface DecidedOutcome {
  events: WebhookDeliveryEvent[];
  /** Where the events were appended; null when the decider had nothing to say. */
  position: GlobalPosition | null;
}

/** If the stream moved on since the view (another worker, a replay), the outcome is dropped: null. */
@CommandHandler(DecideDeliveryOutcome)
export class DecideDeliveryOutcomeHandler implements ICommandHandler<DecideDeliveryOutcome, DecidedOutcome | null> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ deliveryId, known, command }: DecideDeliveryOutcome): Promise<DecidedOutcome | null> {
    const metadata = { actor: 'system:webhooks', correlation_id: deliveryId };
    try {
      const outcome = await this.runner.decideAndAppend(
        webhookDeliveryStream(deliveryId),
        webhookDeliveryDecider,
        command,
        known,
        metadata,
      );
      return { events: outcome.events, position: outcome.position };
    } catch (error) {
      if (error instanceof VersionConflictError) return null;
      throw error;
    }
  }
}
