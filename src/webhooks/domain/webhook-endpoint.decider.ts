import { Decider } from '../../shared/decider';
import { DomainError } from '../../shared/domain-error';
import { EncryptedSecret } from '../../shared/encrypted-secret';
import { WebhookEndpointEvent, WebhookEndpointUpdated } from './webhook-endpoint.events';
import { EventTypeFilter } from './webhook-event-types';

export type EndpointChanges = WebhookEndpointUpdated['data']['changes'];

/** How long a rotated-out secret keeps signing, so receivers can switch without downtime. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

export type WebhookEndpointCommand =
  | {
      type: 'CreateEndpoint';
      data: {
        endpointId: string;
        accountId: string;
        url: string;
        description: string | null;
        eventTypes: EventTypeFilter;
        enabled: boolean;
        secret: EncryptedSecret;
        at: Date;
      };
    }
  | { type: 'UpdateEndpoint'; data: { accountId: string; changes: EndpointChanges; at: Date } }
  | { type: 'RotateSecret'; data: { accountId: string; secret: EncryptedSecret; at: Date } }
  | { type: 'DisableEndpoint'; data: { reason: string; at: Date } }
  | { type: 'PingEndpoint'; data: { accountId: string; eventId: string; at: Date } }
  | { type: 'DeleteEndpoint'; data: { accountId: string; at: Date } };

export interface LiveEndpoint {
  status: 'live';
  endpointId: string;
  accountId: string;
  url: string;
  description: string | null;
  eventTypes: EventTypeFilter;
  enabled: boolean;
  disabledReason: string | null;
  secret: EncryptedSecret;
  previousSecret: { secret: EncryptedSecret; expiresAt: string } | null;
}

export type WebhookEndpointState =
  { status: 'none' } | { status: 'deleted'; endpointId: string; accountId: string } | LiveEndpoint;

export const webhookEndpointDecider: Decider<WebhookEndpointCommand, WebhookEndpointEvent, WebhookEndpointState> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateEndpoint': {
        if (state.status !== 'none')
          throw new DomainError('conflict', `Webhook endpoint ${command.data.endpointId} already exists`);
        const d = command.data;
        return [
          {
            type: 'WebhookEndpointCreated',
            data: {
              endpoint_id: d.endpointId,
              account_id: d.accountId,
              url: d.url,
              description: d.description,
              event_types: d.eventTypes,
              enabled: d.enabled,
              secret: d.secret,
              created_at: d.at.toISOString(),
            },
          },
        ];
      }
      case 'UpdateEndpoint': {
        const endpoint = live(state, command.data.accountId);
        const changes = effectiveChanges(endpoint, command.data.changes);
        if (Object.keys(changes).length === 0) return [];
        return [
          {
            type: 'WebhookEndpointUpdated',
            data: {
              endpoint_id: endpoint.endpointId,
              account_id: endpoint.accountId,
              changes,
              updated_at: command.data.at.toISOString(),
            },
          },
        ];
      }
      case 'RotateSecret': {
        const endpoint = live(state, command.data.accountId);
        const at = command.data.at;
        return [
          {
            type: 'WebhookEndpointSecretRotated',
            data: {
              endpoint_id: endpoint.endpointId,
              account_id: endpoint.accountId,
              secret: command.data.secret,
              previous_secret_expires_at: new Date(at.getTime() + SECRET_OVERLAP_MS).toISOString(),
              rotated_at: at.toISOString(),
            },
          },
        ];
      }
      case 'DisableEndpoint': {
        // The worker acts on what it saw; an endpoint deleted or disabled since needs nothing more.
        if (state.status !== 'live' || !state.enabled) return [];
        return [
          {
            type: 'WebhookEndpointDisabled',
            data: {
              endpoint_id: state.endpointId,
              account_id: state.accountId,
              reason: command.data.reason,
              disabled_at: command.data.at.toISOString(),
            },
          },
        ];
      }
      case 'PingEndpoint': {
        const endpoint = live(state, command.data.accountId);
        if (!endpoint.enabled)
          throw new DomainError(
            'conflict',
            'The endpoint is disabled: enable it (PATCH enabled=true) before sending a test event',
          );
        return [
          {
            type: 'WebhookEndpointPinged',
            data: {
              endpoint_id: endpoint.endpointId,
              account_id: endpoint.accountId,
              event_id: command.data.eventId,
              requested_at: command.data.at.toISOString(),
            },
          },
        ];
      }
      case 'DeleteEndpoint': {
        const endpoint = live(state, command.data.accountId);
        return [
          {
            type: 'WebhookEndpointDeleted',
            data: {
              endpoint_id: endpoint.endpointId,
              account_id: endpoint.accountId,
              deleted_at: command.data.at.toISOString(),
            },
          },
        ];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'WebhookEndpointCreated': {
        const d = event.data;
        return {
          status: 'live',
          endpointId: d.endpoint_id,
          accountId: d.account_id,
          url: d.url,
          description: d.description,
          eventTypes: d.event_types,
          enabled: d.enabled,
          disabledReason: null,
          secret: d.secret,
          previousSecret: null,
        };
      }
      case 'WebhookEndpointUpdated': {
        if (state.status !== 'live') return state;
        const c = event.data.changes;
        return {
          ...state,
          ...(c.url !== undefined ? { url: c.url } : {}),
          ...(c.description !== undefined ? { description: c.description } : {}),
          ...(c.event_types !== undefined ? { eventTypes: c.event_types } : {}),
          ...(c.enabled !== undefined ? { enabled: c.enabled, disabledReason: null } : {}),
        };
      }
      case 'WebhookEndpointSecretRotated':
        if (state.status !== 'live') return state;
        return {
          ...state,
          secret: event.data.secret,
          previousSecret: { secret: state.secret, expiresAt: event.data.previous_secret_expires_at },
        };
      case 'WebhookEndpointDisabled':
        return state.status === 'live' ? { ...state, enabled: false, disabledReason: event.data.reason } : state;
      case 'WebhookEndpointPinged':
        return state;
      case 'WebhookEndpointDeleted':
        return state.status === 'live'
          ? { status: 'deleted', endpointId: state.endpointId, accountId: state.accountId }
          : state;
    }
  },
};

/** A deleted endpoint, or another account's, does not exist for the caller. */
function live(state: WebhookEndpointState, accountId: string): LiveEndpoint {
  if (state.status !== 'live' || state.accountId !== accountId)
    throw new DomainError('not_found', 'Webhook endpoint not found');
  return state;
}

/** Drops fields equal to the current values, so a no-op PATCH records nothing. */
function effectiveChanges(endpoint: LiveEndpoint, requested: EndpointChanges): EndpointChanges {
  const changes: EndpointChanges = {};
  if (requested.url !== undefined && requested.url !== endpoint.url) changes.url = requested.url;
  if (requested.description !== undefined && requested.description !== endpoint.description)
    changes.description = requested.description;
  if (
    requested.event_types !== undefined &&
    JSON.stringify(requested.event_types) !== JSON.stringify(endpoint.eventTypes)
  )
    changes.event_types = requested.event_types;
  if (requested.enabled !== undefined && requested.enabled !== endpoint.enabled) changes.enabled = requested.enabled;
  return changes;
}

export const webhookEndpointStream = (endpointId: string): string => `webhook-endpoint-${endpointId}`;
