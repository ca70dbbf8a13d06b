import {
  SECRET_OVERLAP_MS,
  WebhookEndpointCommand,
  webhookEndpointDecider,
} from '../../../src/webhooks/domain/webhook-endpoint.decider';
import { WebhookEndpointEvent } from '../../../src/webhooks/domain/webhook-endpoint.events';
import { EncryptedSecret } from '../../../src/shared/encrypted-secret';
import { deciderSpec } from '../../support/decider-spec';

const spec = deciderSpec(webhookEndpointDecider);
const AT = new Date('2026-11-21T10:00:00.000Z');
const LATER = new Date('2026-11-21T11:00:00.000Z');
const sealed = (tag: string): EncryptedSecret => ({ v: 1, alg: 'A256GCM', iv: 'iv', ct: tag, tag: 't' });

const create = (
  over: Partial<Extract<WebhookEndpointCommand, { type: 'CreateEndpoint' }>['data']> = {},
): WebhookEndpointCommand => ({
  type: 'CreateEndpoint',
  data: {
    endpointId: 'we_1',
    accountId: 'acct_1',
    url: 'https://hooks.example.com/a',
    description: null,
    eventTypes: ['trunk.created'],
    enabled: true,
    secret: sealed('s1'),
    at: AT,
    ...over,
  },
});
const created = (over: object = {}): WebhookEndpointEvent => ({
  type: 'WebhookEndpointCreated',
  data: {
    endpoint_id: 'we_1',
    account_id: 'acct_1',
    url: 'https://hooks.example.com/a',
    description: null,
    event_types: ['trunk.created'],
    enabled: true,
    secret: sealed('s1'),
    created_at: AT.toISOString(),
    ...over,
  },
});
const disabled: WebhookEndpointEvent = {
  type: 'WebhookEndpointDisabled',
  data: { endpoint_id: 'we_1', account_id: 'acct_1', reason: 'gone', disabled_at: LATER.toISOString() },
};
const deleted: WebhookEndpointEvent = {
  type: 'WebhookEndpointDeleted',
  data: { endpoint_id: 'we_1', account_id: 'acct_1', deleted_at: LATER.toISOString() },
};

describe('webhook endpoint decider', () => {
  it('creates an endpoint with its sealed secret', () => {
    spec.given([]).when(create()).then([created()]);
  });

  it('refuses to create an endpoint twice', () => {
    spec.given([created()]).when(create()).thenThrows('conflict');
  });

  it('records only the fields a PATCH really changes', () => {
    const update = (changes: object): WebhookEndpointCommand => ({
      type: 'UpdateEndpoint',
      data: { accountId: 'acct_1', changes, at: LATER },
    });
    spec
      .given([created()])
      .when(update({ url: 'https://hooks.example.com/a', enabled: true }))
      .then([]);
    spec
      .given([created()])
      .when(update({ url: 'https://hooks.example.com/b', event_types: null }))
      .then([
        {
          type: 'WebhookEndpointUpdated',
          data: {
            endpoint_id: 'we_1',
            account_id: 'acct_1',
            changes: { url: 'https://hooks.example.com/b', event_types: null },
            updated_at: LATER.toISOString(),
          },
        },
      ]);
  });

  it('rotates the secret, keeping the previous one valid for 24 hours', () => {
    spec
      .given([created()])
      .when({ type: 'RotateSecret', data: { accountId: 'acct_1', secret: sealed('s2'), at: LATER } })
      .then([
        {
          type: 'WebhookEndpointSecretRotated',
          data: {
            endpoint_id: 'we_1',
            account_id: 'acct_1',
            secret: sealed('s2'),
            previous_secret_expires_at: new Date(LATER.getTime() + SECRET_OVERLAP_MS).toISOString(),
            rotated_at: LATER.toISOString(),
          },
        },
      ]);
  });

  it('folds a rotation into current and previous secrets', () => {
    const rotated: WebhookEndpointEvent = {
      type: 'WebhookEndpointSecretRotated',
      data: {
        endpoint_id: 'we_1',
        account_id: 'acct_1',
        secret: sealed('s2'),
        previous_secret_expires_at: 'x',
        rotated_at: 'y',
      },
    };
    const state = [created(), rotated].reduce(webhookEndpointDecider.evolve, webhookEndpointDecider.initialState());
    expect(state).toMatchObject({ secret: sealed('s2'), previousSecret: { secret: sealed('s1'), expiresAt: 'x' } });
  });

  it('disables an enabled endpoint once, with the reason; re-enabling clears it', () => {
    const disable: WebhookEndpointCommand = { type: 'DisableEndpoint', data: { reason: 'gone', at: LATER } };
    spec.given([created()]).when(disable).then([disabled]);
    spec.given([created(), disabled]).when(disable).then([]);
    spec.given([created(), deleted]).when(disable).then([]);
    const enabled: WebhookEndpointEvent = {
      type: 'WebhookEndpointUpdated',
      data: { endpoint_id: 'we_1', account_id: 'acct_1', changes: { enabled: true }, updated_at: 'z' },
    };
    expect(
      [created(), disabled, enabled].reduce(webhookEndpointDecider.evolve, webhookEndpointDecider.initialState()),
    ).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('pings only an enabled endpoint', () => {
    const ping: WebhookEndpointCommand = {
      type: 'PingEndpoint',
      data: { accountId: 'acct_1', eventId: 'evt_1', at: LATER },
    };
    spec
      .given([created()])
      .when(ping)
      .then([
        {
          type: 'WebhookEndpointPinged',
          data: { endpoint_id: 'we_1', account_id: 'acct_1', event_id: 'evt_1', requested_at: LATER.toISOString() },
        },
      ]);
    spec.given([created(), disabled]).when(ping).thenThrows('conflict');
  });

  it("hides deleted endpoints and other accounts' endpoints as not found", () => {
    const rotate = (accountId: string): WebhookEndpointCommand => ({
      type: 'RotateSecret',
      data: { accountId, secret: sealed('s2'), at: LATER },
    });
    spec.given([created()]).when(rotate('acct_2')).thenThrows('not_found');
    spec.given([created(), deleted]).when(rotate('acct_1')).thenThrows('not_found');
    spec
      .given([created(), deleted])
      .when({ type: 'DeleteEndpoint', data: { accountId: 'acct_1', at: LATER } })
      .thenThrows('not_found');
    spec
      .given([])
      .when({ type: 'DeleteEndpoint', data: { accountId: 'acct_1', at: LATER } })
      .thenThrows('not_found');
  });
});
