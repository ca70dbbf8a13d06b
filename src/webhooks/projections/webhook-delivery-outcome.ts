import { StoredEvent } from '../../infrastructure/event-store/event-store.port';
import { WriteOp } from '../../infrastructure/read-model/read-model-store.port';
import { AttemptOutcome, WebhookDeliveryEvent } from '../domain/webhook-delivery.events';
import { ProjectionView } from '../../eventsourcing/projection';
import {
  DeliveryStatus,
  DeliveryView,
  deliveryViewCodec,
  endpointViewCodec,
  HISTORY_KEPT,
  webhookKeys,
} from './webhook-views';

/** What an outcome of a delivery's own stream (recorded by the worker) does to its view and queues. */
export async function recordOutcome(
  view: ProjectionView,
  event: StoredEvent & WebhookDeliveryEvent,
): Promise<WriteOp[]> {
  const before = deliveryViewCodec.decode(await view.get(webhookKeys.delivery(event.data.delivery_id)));
  // Outcomes are events of the delivery's own stream: one at or below the revision the view holds
  // is applied already (a replay), and applying it again would count an attempt twice.
  if (!before || event.revision <= before.revision) return [];
  if (event.type === 'DeliveryExpired') return expire(before);
  const after = { ...evolveView(before, event), revision: event.revision };
  const ops: WriteOp[] = [deliveryViewCodec.set(webhookKeys.delivery(after.id), after)];
  if (after.status !== before.status) {
    const created = Date.parse(after.created_at);
    ops.push({ op: 'zrem', key: webhookKeys.deliveriesByStatus(after.endpoint_id, before.status), member: after.id });
    ops.push({
      op: 'zadd',
      key: webhookKeys.deliveriesByStatus(after.endpoint_id, after.status),
      score: created,
      member: after.id,
    });
  }
  ops.push(
    after.status === 'pending' && after.next_attempt_at
      ? { op: 'zadd', key: webhookKeys.due, score: Date.parse(after.next_attempt_at), member: after.id }
      : { op: 'zrem', key: webhookKeys.due, member: after.id },
  );
  ops.push(
    after.status === 'pending'
      ? { op: 'zrem', key: webhookKeys.finished, member: after.id }
      : { op: 'zadd', key: webhookKeys.finished, score: Date.parse(after.updated_at), member: after.id },
  );
  if (event.type === 'DeliverySucceeded') {
    const endpoint = endpointViewCodec.decode(await view.get(webhookKeys.endpoint(after.endpoint_id)));
    if (endpoint)
      ops.push(
        endpointViewCodec.set(webhookKeys.endpoint(endpoint.id), {
          ...endpoint,
          last_success_at: event.data.attempted_at,
        }),
      );
  }
  return ops;
}

/** Past the retention window: out of every list and queue, view and body gone. */
function expire(v: DeliveryView): WriteOp[] {
  return [
    { op: 'del', key: webhookKeys.delivery(v.id) },
    { op: 'del', key: webhookKeys.deliveryBody(v.id) },
    { op: 'zrem', key: webhookKeys.deliveriesOf(v.endpoint_id), member: v.id },
    { op: 'zrem', key: webhookKeys.deliveriesByStatus(v.endpoint_id, v.status), member: v.id },
    { op: 'zrem', key: webhookKeys.due, member: v.id },
    { op: 'zrem', key: webhookKeys.finished, member: v.id },
  ];
}

function evolveView(v: DeliveryView, event: Exclude<WebhookDeliveryEvent, { type: 'DeliveryExpired' }>): DeliveryView {
  const attempted = (o: AttemptOutcome, status: DeliveryStatus, next: string | null): DeliveryView => ({
    ...v,
    status,
    attempts: v.attempts + 1,
    round_attempts: v.round_attempts + 1,
    next_attempt_at: next,
    last_response_status: o.response_status,
    last_error: o.error,
    updated_at: o.attempted_at,
    history: [...v.history, o].slice(-HISTORY_KEPT),
  });
  const outcome = (d: AttemptOutcome): AttemptOutcome => ({
    attempt: d.attempt,
    response_status: d.response_status,
    error: d.error,
    attempted_at: d.attempted_at,
  });
  switch (event.type) {
    case 'DeliverySucceeded':
      return { ...attempted(outcome(event.data), 'succeeded', null), failure_reason: null };
    case 'DeliveryAttemptFailed':
      return attempted(outcome(event.data), 'pending', event.data.next_attempt_at);
    case 'DeliveryFailed': {
      const last = event.data.last_attempt;
      const base = last
        ? attempted(last, 'failed', null)
        : { ...v, status: 'failed' as const, next_attempt_at: null, updated_at: event.data.failed_at };
      return { ...base, failure_reason: event.data.reason };
    }
    case 'DeliveryReplayRequested':
      return {
        ...v,
        status: 'pending',
        round_attempts: 0,
        next_attempt_at: event.data.requested_at,
        failure_reason: null,
        updated_at: event.data.requested_at,
      };
  }
}
