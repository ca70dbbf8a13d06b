import { ReadModelStore } from '../../../src/infrastructure/read-model/read-model-store.port';
import { deliveryIdOf, derivedId } from '../../../src/webhooks/domain/deterministic-id';
import { DeliveryStatus, DeliveryView, webhookKeys } from '../../../src/webhooks/projections/webhook-views';
import { WebhookDeliveryDto } from '../../../src/webhooks/read/webhook.dto';
import {
  GetWebhookEndpoint,
  GetWebhookEndpointHandler,
  ListWebhookDeliveries,
  ListWebhookDeliveriesHandler,
} from '../../../src/webhooks/read/webhook.queries';
import { RECORDED_AT, storedAs } from '../../support/projection-spec';
import { trunkCreated } from '../../support/trunk-builders';
import { attemptOutcome } from '../../support/webhook-delivery-builders';

/*
 * The delivery read side as its readers see it (the routes, the worker's and the sweeper's
 * queues), and what they see of the delivery of one trunk.created event to we_1.
 */

/** The source event; its webhook event id, and so its deliveries' ids, derive from its stored id. */
const SOURCE_ID = '5b1e0c2a-0000-4000-8000-00000000a001';
export const trunkEvent = storedAs({ id: SOURCE_ID }, trunkCreated());
export const EVENT_ID = derivedId('evt', SOURCE_ID);
export const deliveryTo = (endpointId: string) => deliveryIdOf(EVENT_ID, endpointId);
export const WD = deliveryTo('we_1');
export const ofWd = { delivery_id: WD };

/** GET /webhook-endpoints/we_1/deliveries, whole and by status; the worker's and the sweeper's queues. */
export async function deliveries(store: ReadModelStore) {
  const list = new ListWebhookDeliveriesHandler(store);
  const listed = (status?: DeliveryStatus) => list.execute(new ListWebhookDeliveries('acct_1', 'we_1', 100, 0, status));
  const ids = async (status: DeliveryStatus) => (await listed(status)).deliveries.map((d) => d.id);
  return {
    listed: (await listed()).deliveries,
    pending: await ids('pending'),
    succeeded: await ids('succeeded'),
    failed: await ids('failed'),
    due: await store.zrange(webhookKeys.due, 0, 100, 'asc'),
    finished: await store.zrange(webhookKeys.finished, 0, 100, 'asc'),
  };
}
type Seen = Awaited<ReturnType<typeof deliveries>>;
export const seen = (state: Partial<Seen>): Seen => ({
  listed: [],
  pending: [],
  succeeded: [],
  failed: [],
  due: [],
  finished: [],
  ...state,
});

/** The Standard Webhooks payload a delivery signs and sends. */
export type WebhookBody = {
  id: string;
  type: string;
  created_at: string;
  data: { calls?: unknown[]; [field: string]: unknown };
};
export const due = (store: ReadModelStore) => store.zrange(webhookKeys.due, 0, 100, 'asc');
export const bodyOf = (id: string) => async (store: ReadModelStore) => {
  const raw = await store.get(webhookKeys.deliveryBody(id));
  return raw ? (JSON.parse(raw) as WebhookBody) : null;
};
/** The revision the worker appends the next outcome against. */
export const revisionOf = (id: string) => async (store: ReadModelStore) => {
  const raw = await store.get(webhookKeys.delivery(id));
  return raw ? (JSON.parse(raw) as DeliveryView).revision : null;
};

export const delivery = (overrides: Partial<WebhookDeliveryDto> = {}): WebhookDeliveryDto => ({
  id: WD,
  endpoint_id: 'we_1',
  event_id: EVENT_ID,
  event_type: 'trunk.created',
  status: 'pending',
  attempts: 0,
  next_attempt_at: RECORDED_AT.toISOString(),
  last_response_status: null,
  last_error: null,
  failure_reason: null,
  attempt_history: [],
  created_at: RECORDED_AT.toISOString(),
  updated_at: RECORDED_AT.toISOString(),
  ...overrides,
});
export const FIRST_TRY = attemptOutcome(1, 503, '2026-11-21T10:00:01.000Z');
export const LAST_TRY = attemptOutcome(2, 503, '2026-11-21T10:05:00.000Z');
export const retrying = delivery({
  attempts: 1,
  next_attempt_at: '2026-11-21T10:00:06.000Z',
  last_response_status: 503,
  attempt_history: [FIRST_TRY],
  updated_at: FIRST_TRY.attempted_at,
});
export const exhausted = delivery({
  status: 'failed',
  attempts: 2,
  next_attempt_at: null,
  last_response_status: 503,
  failure_reason: 'exhausted',
  attempt_history: [FIRST_TRY, LAST_TRY],
  updated_at: LAST_TRY.attempted_at,
});

/** When GET /webhook-endpoints/we_1 says it last delivered successfully. */
export const lastSuccess = async (store: ReadModelStore) =>
  (await new GetWebhookEndpointHandler(store).execute(new GetWebhookEndpoint('acct_1', 'we_1'))).last_success_at;
