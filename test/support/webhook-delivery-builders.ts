import { CompletedCall, CallsCompleted } from '../../src/webhooks/domain/calls-completed.event';
import {
  AttemptOutcome,
  DeliveryAttemptFailed,
  DeliveryExpired,
  DeliveryFailed,
  DeliveryReplayRequested,
  DeliverySucceeded,
} from '../../src/webhooks/domain/webhook-delivery.events';
import { eventBuilder } from './event-builder';

/** The outcome events of delivery wd_1 to we_1; a spec names the real (derived) delivery id. */
const delivery = { delivery_id: 'wd_1', endpoint_id: 'we_1', account_id: 'acct_1' };

export const attemptOutcome = (attempt: number, status: number | null, at: string): AttemptOutcome => ({
  attempt,
  response_status: status,
  error: status === null ? 'timed out after 15000 ms' : null,
  attempted_at: at,
});

export const deliverySucceeded = eventBuilder<DeliverySucceeded>('DeliverySucceeded', {
  ...delivery,
  ...attemptOutcome(1, 204, '2026-11-21T10:00:01.000Z'),
});

export const deliveryAttemptFailed = eventBuilder<DeliveryAttemptFailed>('DeliveryAttemptFailed', {
  ...delivery,
  ...attemptOutcome(1, 503, '2026-11-21T10:00:01.000Z'),
  next_attempt_at: '2026-11-21T10:00:06.000Z',
});

export const deliveryFailed = eventBuilder<DeliveryFailed>('DeliveryFailed', {
  ...delivery,
  reason: 'exhausted',
  failed_at: '2026-11-21T10:05:00.000Z',
  last_attempt: attemptOutcome(2, 503, '2026-11-21T10:05:00.000Z'),
});

export const deliveryReplayRequested = eventBuilder<DeliveryReplayRequested>('DeliveryReplayRequested', {
  ...delivery,
  requested_at: '2026-11-21T12:00:00.000Z',
});

export const deliveryExpired = eventBuilder<DeliveryExpired>('DeliveryExpired', {
  ...delivery,
  expired_at: '2026-12-21T12:00:00.000Z',
  finished_at: '2026-11-21T10:00:01.000Z',
});

export const completedCall = (n: number): CompletedCall => ({
  id: `call_${n}`,
  trunk_id: 'conn_1',
  from: '+14155550100',
  to: '+14155550199',
  status: 'completed',
  duration_seconds: 42,
  start_time: '2026-11-21T09:59:00.000Z',
  end_time: '2026-11-21T09:59:42.000Z',
  carrier_lag_ms: 20,
  ai_latency_ms: 350,
  gateway_processing_ms: 5,
  direction: 'inbound',
});

export const callsCompleted = eventBuilder<CallsCompleted>('CallsCompleted', {
  account_id: 'acct_1',
  batch_id: 'batch_1',
  calls: [completedCall(1)],
});
