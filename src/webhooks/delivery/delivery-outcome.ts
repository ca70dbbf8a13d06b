import type { CommandBus } from '@nestjs/cqrs';
import type { WebhookDeliveryCommand } from '../domain/webhook-delivery.decider';
import type { DeliveryView } from '../projections/webhook-views';
import { DecideDeliveryOutcome, DecidedOutcome } from '../write/decide-delivery-outcome.handler';

export type { DecidedOutcome };

/**
 * Decides on the state a delivery's view shows and appends with the revision it shows, through
 * the write side. Null when the stream moved on since the view (the outcome is dropped).
 */
export function decideOnView(
  commands: CommandBus,
  delivery: DeliveryView,
  command: WebhookDeliveryCommand,
): Promise<DecidedOutcome | null> {
  const state = { status: delivery.status, attemptsInRound: delivery.round_attempts, attempts: delivery.attempts };
  return commands.execute(new DecideDeliveryOutcome(delivery.id, { state, revision: delivery.revision }, command));
}
