import { EncryptedSecret } from '../../shared/encrypted-secret';
import { eventGuard } from '../../shared/event-guard';
import { EventTypeFilter } from './webhook-event-types';

export type WebhookEndpointCreated = {
  type: 'WebhookEndpointCreated';
  data: {
    endpoint_id: string;
    account_id: string;
    url: string;
    description: string | null;
    event_types: EventTypeFilter;
    enabled: boolean;
    /** Sealed under the endpoint's data key: the plaintext is shown once, in the create response. */
    secret: EncryptedSecret;
    created_at: string;
  };
};

/** Only the fields that changed; enabling again clears the reason of an automatic disable. */
export type WebhookEndpointUpdated = {
  type: 'WebhookEndpointUpdated';
  data: {
    endpoint_id: string;
    account_id: string;
    changes: Partial<{ url: string; description: string | null; event_types: EventTypeFilter; enabled: boolean }>;
    updated_at: string;
  };
};

/** The previous secret keeps signing (a second signature) until previous_secret_expires_at. */
export type WebhookEndpointSecretRotated = {
  type: 'WebhookEndpointSecretRotated';
  data: {
    endpoint_id: string;
    account_id: string;
    secret: EncryptedSecret;
    previous_secret_expires_at: string;
    rotated_at: string;
  };
};

/** The delivery worker's decision: the receiver answered 410 Gone, or kept failing past the schedule. */
export type WebhookEndpointDisabled = {
  type: 'WebhookEndpointDisabled';
  data: { endpoint_id: string; account_id: string; reason: string; disabled_at: string };
};

/** A `ping` event requested through POST /webhook-endpoints/{id}/test. */
export type WebhookEndpointPinged = {
  type: 'WebhookEndpointPinged';
  data: { endpoint_id: string; account_id: string; event_id: string; requested_at: string };
};

export type WebhookEndpointDeleted = {
  type: 'WebhookEndpointDeleted';
  data: { endpoint_id: string; account_id: string; deleted_at: string };
};

export type WebhookEndpointEvent =
  | WebhookEndpointCreated
  | WebhookEndpointUpdated
  | WebhookEndpointSecretRotated
  | WebhookEndpointDisabled
  | WebhookEndpointPinged
  | WebhookEndpointDeleted;

export const isWebhookEndpointEvent = eventGuard<WebhookEndpointEvent>({
  WebhookEndpointCreated: true,
  WebhookEndpointUpdated: true,
  WebhookEndpointSecretRotated: true,
  WebhookEndpointDisabled: true,
  WebhookEndpointPinged: true,
  WebhookEndpointDeleted: true,
});
