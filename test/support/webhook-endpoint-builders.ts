import {
  WebhookEndpointCreated,
  WebhookEndpointDeleted,
  WebhookEndpointDisabled,
  WebhookEndpointPinged,
  WebhookEndpointSecretRotated,
  WebhookEndpointUpdated,
} from '../../src/webhooks/domain/webhook-endpoint.events';
import { eventBuilder } from './event-builder';
import { AT, LATER, secret } from './trunk-builders';

const endpoint = { endpoint_id: 'we_1', account_id: 'acct_1' };

export const endpointCreated = eventBuilder<WebhookEndpointCreated>('WebhookEndpointCreated', {
  ...endpoint,
  url: 'https://hooks.example.com/a',
  description: null,
  event_types: null,
  enabled: true,
  secret: secret('whsec-1'),
  created_at: AT.toISOString(),
});

export const endpointUpdated = eventBuilder<WebhookEndpointUpdated>('WebhookEndpointUpdated', {
  ...endpoint,
  changes: {},
  updated_at: LATER.toISOString(),
});

export const endpointSecretRotated = eventBuilder<WebhookEndpointSecretRotated>('WebhookEndpointSecretRotated', {
  ...endpoint,
  secret: secret('whsec-2'),
  previous_secret_expires_at: '2026-11-22T11:00:00.000Z',
  rotated_at: LATER.toISOString(),
});

export const endpointDisabled = eventBuilder<WebhookEndpointDisabled>('WebhookEndpointDisabled', {
  ...endpoint,
  reason: 'the receiver answered 410 Gone',
  disabled_at: LATER.toISOString(),
});

export const endpointPinged = eventBuilder<WebhookEndpointPinged>('WebhookEndpointPinged', {
  ...endpoint,
  event_id: 'evt_ping_1',
  requested_at: LATER.toISOString(),
});

export const endpointDeleted = eventBuilder<WebhookEndpointDeleted>('WebhookEndpointDeleted', {
  ...endpoint,
  deleted_at: LATER.toISOString(),
});
