import { randomUUID } from 'node:crypto';
import { EventStore, GlobalPosition, VersionConflictError } from '../../infrastructure/event-store/event-store.port';
import { DeliveryView } from '../projections/webhook-views';
import {
  WebhookDeliveryCommand,
  webhookDeliveryDecider,
  webhookDeliveryStream,
} from '../domain/webhook-delivery.decider';
import { WebhookDeliveryEvent } from '../domain/webhook-delivery.events';

export interface DecidedOutcome {
  events: WebhookDeliveryEvent[];
  /** Where the events were appended; null when the decider had nothing to say. */
  position: GlobalPosition | null;
}

/**
 * Decides on the state a delivery's view shows and appends with the revision it shows: one
 * event-store round trip, for the worker and the retention sweeper alike. If the stream moved on
 * (another worker, a replay), the append is refused and this outcome dropped: null.
 */
export async function decideOnView(
  store: EventStore,
  delivery: DeliveryView,
  command: WebhookDeliveryCommand,
): Promise<DecidedOutcome | null> {
  const state = { status: delivery.status, attemptsInRound: delivery.round_attempts, attempts: delivery.attempts };
  const events = webhookDeliveryDecider.decide(command, state);
  if (events.length === 0) return { events, position: null };
  const metadata = { actor: 'system:webhooks', correlation_id: delivery.id };
  try {
    const expected = delivery.revision < 0 ? 'no_stream' : delivery.revision;
    const appended = await store.append(
      webhookDeliveryStream(delivery.id),
      events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata })),
      expected,
    );
    return { events, position: appended.position };
  } catch (error) {
    if (error instanceof VersionConflictError) return null;
    throw error;
  }
}
