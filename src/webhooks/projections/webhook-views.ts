import {
  arrayOf,
  isBoolean,
  isNumber,
  isString,
  jsonCodec,
  nullable,
  objectOf,
  oneOf,
} from '../../infrastructure/read-model/read-model.codec';
import { ALERT_COMPARISONS, ALERT_METRICS, AlertComparison, AlertMetric } from '../domain/alert-rule.events';
import { AttemptOutcome, DELIVERY_FAIL_REASONS, DeliveryFailReason } from '../domain/webhook-delivery.events';
import { EventTypeFilter, WEBHOOK_EVENT_TYPES } from '../domain/webhook-event-types';

/** An endpoint as the read side serves it: no secret, not even sealed. */
export interface EndpointView {
  id: string;
  account_id: string;
  url: string;
  description: string | null;
  event_types: EventTypeFilter;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
  secret_rotated_at: string | null;
  /** Revision of the endpoint's stream: the worker's cache of unsealed secrets is keyed by it. */
  revision: number;
  last_success_at: string | null;
}

const eventTypes = nullable(arrayOf(oneOf(WEBHOOK_EVENT_TYPES)));

export const endpointViewCodec = jsonCodec(
  'webhook endpoint view',
  objectOf<EndpointView>({
    id: isString,
    account_id: isString,
    url: isString,
    description: nullable(isString),
    event_types: eventTypes,
    enabled: isBoolean,
    disabled_reason: nullable(isString),
    created_at: isString,
    updated_at: isString,
    secret_rotated_at: nullable(isString),
    revision: isNumber,
    last_success_at: nullable(isString),
  }),
);

/** What the dispatcher needs per account to fan an event out, kept in one value. */
export interface Subscription {
  id: string;
  event_types: EventTypeFilter;
  enabled: boolean;
}

export const subscriptionsCodec = jsonCodec(
  'webhook subscription list',
  arrayOf(objectOf<Subscription>({ id: isString, event_types: eventTypes, enabled: isBoolean })),
);

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryView {
  id: string;
  endpoint_id: string;
  account_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  /** Attempts since creation or the last replay: the position in the retry schedule. */
  round_attempts: number;
  next_attempt_at: string | null;
  last_response_status: number | null;
  last_error: string | null;
  failure_reason: DeliveryFailReason | null;
  created_at: string;
  updated_at: string;
  /** Revision of the delivery's stream (-1: none yet): the expected version of the next outcome. */
  revision: number;
  /** The most recent attempts, oldest first. */
  history: AttemptOutcome[];
}

const attemptOutcome = objectOf<AttemptOutcome>({
  attempt: isNumber,
  response_status: nullable(isNumber),
  error: nullable(isString),
  attempted_at: isString,
});

export const deliveryViewCodec = jsonCodec(
  'webhook delivery view',
  objectOf<DeliveryView>({
    id: isString,
    endpoint_id: isString,
    account_id: isString,
    event_id: isString,
    event_type: isString,
    status: oneOf(DELIVERY_STATUSES),
    attempts: isNumber,
    round_attempts: isNumber,
    next_attempt_at: nullable(isString),
    last_response_status: nullable(isNumber),
    last_error: nullable(isString),
    failure_reason: nullable(oneOf(DELIVERY_FAIL_REASONS)),
    created_at: isString,
    updated_at: isString,
    revision: isNumber,
    history: arrayOf(attemptOutcome),
  }),
);

export interface AlertRuleView {
  id: string;
  account_id: string;
  name: string | null;
  metric: AlertMetric;
  comparison: AlertComparison;
  threshold: number;
  window_minutes: number;
  trunk_id: string | null;
  state: 'ok' | 'triggered';
  last_value: number | null;
  triggered_at: string | null;
  resolved_at: string | null;
  created_at: string;
}

export const alertRuleViewCodec = jsonCodec(
  'alert rule view',
  objectOf<AlertRuleView>({
    id: isString,
    account_id: isString,
    name: nullable(isString),
    metric: oneOf(ALERT_METRICS),
    comparison: oneOf(ALERT_COMPARISONS),
    threshold: isNumber,
    window_minutes: isNumber,
    trunk_id: nullable(isString),
    state: oneOf(['ok', 'triggered']),
    last_value: nullable(isNumber),
    triggered_at: nullable(isString),
    resolved_at: nullable(isString),
    created_at: isString,
  }),
);

export const HISTORY_KEPT = 20;

export const webhookKeys = {
  endpoint: (id: string) => `whe:${id}`,
  endpointPrefix: 'whe:',
  endpointsOf: (accountId: string) => `whe-list:${accountId}`,
  subscriptions: (accountId: string) => `whe-subs:${accountId}`,
  /** Accounts with an enabled endpoint that receives call.completed (ingestion keeps a copy in memory). */
  callSubscribers: 'whe-call-accounts',
  delivery: (id: string) => `whd:${id}`,
  deliveryPrefix: 'whd:',
  /** The exact body that is signed and sent, apart from the view: the due queue is read often, bodies once per attempt. */
  deliveryBody: (id: string) => `whd-body:${id}`,
  deliveriesOf: (endpointId: string) => `whd-list:${endpointId}`,
  deliveriesByStatus: (endpointId: string, status: DeliveryStatus) => `whd-list:${endpointId}:${status}`,
  /** Pending deliveries by next attempt time (ms). */
  due: 'whd-due',
  /** Succeeded and failed deliveries by when they finished (ms): the retention sweeper's queue. */
  finished: 'whd-finished',
  alertRule: (id: string) => `ar:${id}`,
  alertRulePrefix: 'ar:',
  alertRulesOf: (accountId: string) => `ar-list:${accountId}`,
  allAlertRules: 'ar-all',
};
