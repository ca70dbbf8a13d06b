import { ReadModelStore } from '../../../src/infrastructure/read-model/read-model-store.port';
import { webhookEndpointsProjection } from '../../../src/webhooks/projections/webhook-endpoints.projection';
import { EndpointView, Subscription, webhookKeys } from '../../../src/webhooks/projections/webhook-views';
import { WebhookEndpointDto } from '../../../src/webhooks/read/webhook.dto';
import {
  GetWebhookEndpoint,
  GetWebhookEndpointHandler,
  ListWebhookEndpoints,
  ListWebhookEndpointsHandler,
} from '../../../src/webhooks/read/webhook.queries';
import { found, projectionSpec, SpecEvent } from '../../support/projection-spec';
import { AT, LATER, trunkCreated } from '../../support/trunk-builders';
import {
  endpointCreated,
  endpointDeleted,
  endpointDisabled,
  endpointPinged,
  endpointSecretRotated,
  endpointUpdated,
} from '../../support/webhook-endpoint-builders';

/** What GET /webhook-endpoints(/we_1) answer for acct_1, and the revision the worker's secret cache keys on. */
async function endpointRoutes(store: ReadModelStore) {
  const list = new ListWebhookEndpointsHandler(store);
  const { webhook_endpoints } = await list.execute(new ListWebhookEndpoints('acct_1', 50, 0));
  const view = await store.get(webhookKeys.endpoint('we_1'));
  return {
    we_1: await found(new GetWebhookEndpointHandler(store).execute(new GetWebhookEndpoint('acct_1', 'we_1'))),
    listed: webhook_endpoints.map((endpoint) => endpoint.id),
    revision: view ? (JSON.parse(view) as EndpointView).revision : null,
  };
}

/** What the dispatcher fans acct_1's events out to, and whether ingestion records its calls. */
async function fanOut(store: ReadModelStore) {
  const subscriptions = await store.get(webhookKeys.subscriptions('acct_1'));
  const callAccounts = await store.zrange(webhookKeys.callSubscribers, 0, 100, 'asc');
  return {
    subscriptions: subscriptions ? (JSON.parse(subscriptions) as Subscription[]) : [],
    receivesCalls: callAccounts.includes('acct_1'),
  };
}

const routes = projectionSpec(webhookEndpointsProjection, endpointRoutes);
const subscriptions = projectionSpec(webhookEndpointsProjection, fanOut);
/** For what must change nothing: every reader at once. */
const everything = projectionSpec(webhookEndpointsProjection, async (store) => ({
  routes: await endpointRoutes(store),
  fanOut: await fanOut(store),
}));

const ENDPOINT: WebhookEndpointDto = {
  id: 'we_1',
  url: 'https://hooks.example.com/a',
  description: null,
  event_types: null,
  enabled: true,
  disabled_reason: null,
  created_at: AT.toISOString(),
  updated_at: AT.toISOString(),
  secret_rotated_at: null,
  last_success_at: null,
};
const changed = (overrides: Partial<WebhookEndpointDto>, revision = 1) => ({
  we_1: { ...ENDPOINT, updated_at: LATER.toISOString(), ...overrides },
  listed: ['we_1'],
  revision,
});
const subscribed = (overrides: Partial<Subscription> = {}): Subscription => ({
  id: 'we_1',
  event_types: null,
  enabled: true,
  ...overrides,
});

describe('webhook endpoints projection', () => {
  it('serves and lists a created endpoint, without its secret', async () => {
    await routes
      .given()
      .when(endpointCreated())
      .then({ we_1: ENDPOINT, listed: ['we_1'], revision: 0 });
  });

  it('has the calls of an account recorded once an enabled endpoint takes every event type', async () => {
    await subscriptions
      .given()
      .when(endpointCreated())
      .then({ subscriptions: [subscribed()], receivesCalls: true });
  });

  it('subscribes an endpoint that filters call.completed out, without recording calls for it', async () => {
    const filtered = endpointCreated({ event_types: ['trunk.created'] });
    await subscriptions
      .given()
      .when(filtered)
      .then({ subscriptions: [subscribed({ event_types: ['trunk.created'] })], receivesCalls: false });
  });

  it('records no calls for an endpoint created disabled', async () => {
    await subscriptions
      .given()
      .when(endpointCreated({ enabled: false }))
      .then({ subscriptions: [subscribed({ enabled: false })], receivesCalls: false });
  });

  it('serves an update and moves the subscription with it', async () => {
    const update = endpointUpdated({
      changes: { url: 'https://hooks.example.com/b', event_types: ['call.completed'] },
    });
    const given = endpointCreated({ event_types: ['trunk.created'] });
    await routes
      .given(given)
      .when(update)
      .then(changed({ url: 'https://hooks.example.com/b', event_types: ['call.completed'] }));
    await subscriptions
      .given(given)
      .when(update)
      .then({ subscriptions: [subscribed({ event_types: ['call.completed'] })], receivesCalls: true });
  });

  it('serves why an endpoint was disabled, and records no more calls for it', async () => {
    await routes
      .given(endpointCreated())
      .when(endpointDisabled())
      .then(changed({ enabled: false, disabled_reason: 'the receiver answered 410 Gone' }));
    await subscriptions
      .given(endpointCreated())
      .when(endpointDisabled())
      .then({ subscriptions: [subscribed({ enabled: false })], receivesCalls: false });
  });

  it('clears the reason an endpoint was disabled when it is enabled again', async () => {
    await routes
      .given(endpointCreated(), endpointDisabled())
      .when(endpointUpdated({ changes: { enabled: true } }))
      .then(changed({ enabled: true, disabled_reason: null }, 2));
  });

  it('stamps a rotated secret and bumps the revision the secret cache keys on', async () => {
    await routes
      .given(endpointCreated())
      .when(endpointSecretRotated())
      .then(changed({ secret_rotated_at: LATER.toISOString() }));
  });

  it('bumps only the revision for a ping', async () => {
    await routes
      .given(endpointCreated())
      .when(endpointPinged())
      .then({ we_1: ENDPOINT, listed: ['we_1'], revision: 1 });
  });

  it('removes a deleted endpoint from the list, from get and from the fan-out', async () => {
    await routes.given(endpointCreated()).when(endpointDeleted()).then({ we_1: null, listed: [], revision: null });
    await subscriptions
      .given(endpointCreated())
      .when(endpointDeleted())
      .then({ subscriptions: [], receivesCalls: false });
  });

  it("keeps recording an account's calls through its other endpoint when one is deleted", async () => {
    const other = endpointCreated({ endpoint_id: 'we_2', event_types: ['call.completed'] });
    await subscriptions
      .given(endpointCreated(), other)
      .when(endpointDeleted())
      .then({ subscriptions: [subscribed({ id: 'we_2', event_types: ['call.completed'] })], receivesCalls: true });
  });

  it('writes nothing for a change to an endpoint it never saw', async () => {
    const ghost = { endpoint_id: 'we_9' };
    const changes = [
      endpointUpdated({ ...ghost, changes: { enabled: false } }),
      endpointSecretRotated(ghost),
      endpointDisabled(ghost),
      endpointPinged(ghost),
    ];
    await everything
      .given(endpointCreated())
      .when(...changes)
      .thenNothingChanged();
  });

  it("leaves this account alone when another account's endpoints come and go", async () => {
    const theirs = { endpoint_id: 'we_2', account_id: 'acct_2' };
    const events = [endpointCreated(theirs), endpointDisabled(theirs), endpointDeleted(theirs)];
    await everything
      .given(endpointCreated())
      .when(...events)
      .thenNothingChanged();
  });

  it('ignores events that are not about endpoints', async () => {
    await everything.given(endpointCreated()).when(trunkCreated()).thenNothingChanged();
  });

  describe('replaying the last event changes nothing', () => {
    const cases: [string, SpecEvent][] = [
      ['a creation', endpointCreated()],
      ['an update', endpointUpdated({ changes: { description: 'ops' } })],
      ['a secret rotation', endpointSecretRotated()],
      ['a disable', endpointDisabled()],
      ['a ping', endpointPinged()],
      ['a deletion', endpointDeleted()],
    ];
    it.each(cases)('%s', async (_name, event) => {
      const history = event.type === 'WebhookEndpointCreated' ? [event] : [endpointCreated(), event];
      await everything
        .given(...history)
        .when(event)
        .thenNothingChanged();
    });
  });
});
