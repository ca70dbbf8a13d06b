import { StoredEvent } from '../../infrastructure/event-store/event-store.port';
import { WriteOp } from '../../infrastructure/read-model/read-model-store.port';
import { isWebhookDeliveryEvent } from '../domain/webhook-delivery.events';
import { subscribes } from '../domain/webhook-event-types';
import { Prefetcher, Projection, ProjectionView } from '../../eventsourcing/projection';
import { deliveryIdOf } from '../domain/deterministic-id';
import { recordOutcome } from './webhook-delivery-outcome';
import { isSourceEvent, payloadOf, sourceAccountOf, WebhookEvent, webhookEventsOf } from './webhook-events';
import { DeliveryView, deliveryViewCodec, Subscription, subscriptionsCodec, webhookKeys } from './webhook-views';

/**
 * The dispatcher, as a pure projection (an outbox by construction): each source event becomes a
 * pending delivery per subscribed endpoint, its id derived from the event and the endpoint, due
 * at once. What happens to a delivery afterwards is recorded as events of its own stream by the
 * worker, and folded here into the delivery view and the due queue. Nothing is written anywhere
 * but this runner's atomic batch, so a crash can neither lose a delivery nor create one twice.
 */
export const webhookDeliveriesProjection: Projection = {
  name: 'webhook-deliveries',
  // Outcomes of its own deliveries, and the source events that become webhook events.
  types: [...isWebhookDeliveryEvent.types, ...isSourceEvent.types],
  apply(stored: StoredEvent, view: ProjectionView): WriteOp[] | Promise<WriteOp[]> {
    if (isWebhookDeliveryEvent(stored)) return recordOutcome(view, stored);
    const accountId = sourceAccountOf(stored);
    // Most accounts have no endpoint: their events are not even turned into webhook events (and
    // after the batch's prefetch, that is known without awaiting a read).
    if (accountId === null || view.known?.(webhookKeys.subscriptions(accountId)) === null) return [];
    return deliveriesOf(stored, accountId, view);
  },
  prefetch,
};

async function deliveriesOf(stored: StoredEvent, accountId: string, view: ProjectionView): Promise<WriteOp[]> {
  const subscriptions = await subscriptionsOf(view, accountId);
  if (subscriptions.length === 0) return [];
  const ops: WriteOp[] = [];
  for (const event of webhookEventsOf(stored)) {
    for (const sub of subscriptions) if (receives(sub, event)) ops.push(...(await schedule(view, event, sub.id)));
  }
  return ops;
}

/**
 * The batch's reads in two MGETs instead of a GET per account and per delivery: the subscription
 * lists of the accounts the batch's source events belong to and the views its outcomes change
 * (with their endpoints), then the deliveries the batch would create (a replay finds them made).
 */
async function prefetch(events: readonly StoredEvent[], reader: Prefetcher): Promise<void> {
  const accounts = new Set<string>();
  const keys: string[] = [];
  for (const event of events) {
    if (isWebhookDeliveryEvent(event))
      keys.push(webhookKeys.delivery(event.data.delivery_id), webhookKeys.endpoint(event.data.endpoint_id));
    else accounts.add(sourceAccountOf(event) ?? '');
  }
  accounts.delete('');
  const ids = [...accounts];
  const lists = await reader.load([...ids.map(webhookKeys.subscriptions), ...keys]);
  const subscribed = new Map<string, Subscription[]>();
  ids.forEach((id, i) => {
    const subscriptions = subscriptionsCodec.decode(lists[i]) ?? [];
    if (subscriptions.length > 0) subscribed.set(id, subscriptions);
  });
  if (subscribed.size === 0) return;
  const deliveries: string[] = [];
  for (const stored of events) {
    const subscriptions = subscribed.get(sourceAccountOf(stored) ?? '') ?? [];
    if (subscriptions.length === 0 || isWebhookDeliveryEvent(stored)) continue;
    for (const event of webhookEventsOf(stored))
      for (const sub of subscriptions)
        if (receives(sub, event)) deliveries.push(webhookKeys.delivery(deliveryIdOf(event.id, sub.id)));
  }
  await reader.load(deliveries);
}

async function subscriptionsOf(view: ProjectionView, accountId: string): Promise<Subscription[]> {
  return subscriptionsCodec.decode(await view.get(webhookKeys.subscriptions(accountId))) ?? [];
}

function receives(sub: Subscription, event: WebhookEvent): boolean {
  return event.onlyEndpoint ? event.onlyEndpoint === sub.id : sub.enabled && subscribes(sub.event_types, event.type);
}

async function schedule(view: ProjectionView, event: WebhookEvent, endpointId: string): Promise<WriteOp[]> {
  const id = deliveryIdOf(event.id, endpointId);
  if (await view.get(webhookKeys.delivery(id))) return [];
  const delivery: DeliveryView = {
    id,
    endpoint_id: endpointId,
    account_id: event.accountId,
    event_id: event.id,
    event_type: event.type,
    status: 'pending',
    attempts: 0,
    round_attempts: 0,
    next_attempt_at: event.createdAt,
    last_response_status: null,
    last_error: null,
    failure_reason: null,
    created_at: event.createdAt,
    updated_at: event.createdAt,
    revision: -1,
    history: [],
  };
  const created = Date.parse(event.createdAt);
  return [
    deliveryViewCodec.set(webhookKeys.delivery(id), delivery),
    { op: 'set', key: webhookKeys.deliveryBody(id), value: payloadOf(event) },
    { op: 'zadd', key: webhookKeys.deliveriesOf(endpointId), score: created, member: id },
    { op: 'zadd', key: webhookKeys.deliveriesByStatus(endpointId, 'pending'), score: created, member: id },
    { op: 'zadd', key: webhookKeys.due, score: created, member: id },
  ];
}
