import { StoredEvent } from '../../infrastructure/event-store/event-store.port';
import { WriteOp } from '../../infrastructure/read-model/read-model-store.port';
import { isWebhookEndpointEvent } from '../domain/webhook-endpoint.events';
import { subscribes } from '../domain/webhook-event-types';
import { Projection, ProjectionView } from '../../eventsourcing/projection';
import { EndpointView, endpointViewCodec, Subscription, subscriptionsCodec, webhookKeys } from './webhook-views';

/**
 * Endpoint views (list/get), and per account the subscription list the dispatcher fans out to,
 * plus the set of accounts that receive call.completed (ingestion appends call events only for
 * those).
 */
export const webhookEndpointsProjection: Projection = {
  name: 'webhook-endpoints',
  types: isWebhookEndpointEvent.types,
  async apply(event: StoredEvent, view: ProjectionView): Promise<WriteOp[]> {
    if (!isWebhookEndpointEvent(event)) return [];
    switch (event.type) {
      case 'WebhookEndpointCreated': {
        const d = event.data;
        const endpoint: EndpointView = {
          id: d.endpoint_id,
          account_id: d.account_id,
          url: d.url,
          description: d.description,
          event_types: d.event_types,
          enabled: d.enabled,
          disabled_reason: null,
          created_at: d.created_at,
          updated_at: d.created_at,
          secret_rotated_at: null,
          revision: event.revision,
          last_success_at: null,
        };
        return [
          endpointViewCodec.set(webhookKeys.endpoint(d.endpoint_id), endpoint),
          {
            op: 'zadd',
            key: webhookKeys.endpointsOf(d.account_id),
            score: Date.parse(d.created_at),
            member: d.endpoint_id,
          },
          ...(await resubscribe(view, endpoint)),
        ];
      }
      case 'WebhookEndpointUpdated': {
        const c = event.data.changes;
        return change(view, event, event.data.endpoint_id, (e) => ({
          ...e,
          ...c,
          ...(c.enabled !== undefined ? { disabled_reason: null } : {}),
          updated_at: event.data.updated_at,
        }));
      }
      case 'WebhookEndpointSecretRotated':
        return change(view, event, event.data.endpoint_id, (e) => ({
          ...e,
          secret_rotated_at: event.data.rotated_at,
          updated_at: event.data.rotated_at,
        }));
      case 'WebhookEndpointDisabled':
        return change(view, event, event.data.endpoint_id, (e) => ({
          ...e,
          enabled: false,
          disabled_reason: event.data.reason,
          updated_at: event.data.disabled_at,
        }));
      case 'WebhookEndpointPinged':
        return change(view, event, event.data.endpoint_id, (e) => e);
      case 'WebhookEndpointDeleted': {
        const d = event.data;
        return [
          { op: 'del', key: webhookKeys.endpoint(d.endpoint_id) },
          { op: 'zrem', key: webhookKeys.endpointsOf(d.account_id), member: d.endpoint_id },
          ...(await unsubscribe(view, d.account_id, d.endpoint_id)),
        ];
      }
      default:
        return [];
    }
  },
};

async function change(
  view: ProjectionView,
  stored: StoredEvent,
  endpointId: string,
  next: (e: EndpointView) => EndpointView,
): Promise<WriteOp[]> {
  const before = endpointViewCodec.decode(await view.get(webhookKeys.endpoint(endpointId)));
  if (!before) return [];
  const after = { ...next(before), revision: stored.revision };
  return [endpointViewCodec.set(webhookKeys.endpoint(endpointId), after), ...(await resubscribe(view, after))];
}

async function resubscribe(view: ProjectionView, endpoint: EndpointView): Promise<WriteOp[]> {
  const current = subscriptionsCodec.decode(await view.get(webhookKeys.subscriptions(endpoint.account_id))) ?? [];
  const mine: Subscription = { id: endpoint.id, event_types: endpoint.event_types, enabled: endpoint.enabled };
  return subscriptionWrites(endpoint.account_id, [...current.filter((s) => s.id !== endpoint.id), mine]);
}

async function unsubscribe(view: ProjectionView, accountId: string, endpointId: string): Promise<WriteOp[]> {
  const current = subscriptionsCodec.decode(await view.get(webhookKeys.subscriptions(accountId))) ?? [];
  return subscriptionWrites(
    accountId,
    current.filter((s) => s.id !== endpointId),
  );
}

function subscriptionWrites(accountId: string, subscriptions: Subscription[]): WriteOp[] {
  const receivesCalls = subscriptions.some((s) => s.enabled && subscribes(s.event_types, 'call.completed'));
  return [
    subscriptionsCodec.set(webhookKeys.subscriptions(accountId), subscriptions),
    receivesCalls
      ? { op: 'zadd', key: webhookKeys.callSubscribers, score: 0, member: accountId }
      : { op: 'zrem', key: webhookKeys.callSubscribers, member: accountId },
  ];
}
