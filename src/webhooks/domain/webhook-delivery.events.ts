import { eventGuard } from '../../shared/event-guard';

/** Which delivery an event belongs to; every delivery event carries it for the projections. */
export interface DeliveryRef {
  delivery_id: string;
  endpoint_id: string;
  account_id: string;
}

/** What one HTTP attempt came to. `response_status` null: no response (timeout, refused, TLS...). */
export interface AttemptOutcome {
  attempt: number;
  response_status: number | null;
  error: string | null;
  attempted_at: string;
}

export type DeliverySucceeded = { type: 'DeliverySucceeded'; data: DeliveryRef & AttemptOutcome };

export type DeliveryAttemptFailed = {
  type: 'DeliveryAttemptFailed';
  data: DeliveryRef & AttemptOutcome & { next_attempt_at: string };
};

export const DELIVERY_FAIL_REASONS = ['exhausted', 'endpoint_gone', 'endpoint_disabled', 'endpoint_deleted'] as const;
export type DeliveryFailReason = (typeof DELIVERY_FAIL_REASONS)[number];

/** Terminal: no more attempts unless replayed. The last attempt, when there was one, is included. */
export type DeliveryFailed = {
  type: 'DeliveryFailed';
  data: DeliveryRef & { reason: DeliveryFailReason; failed_at: string; last_attempt: AttemptOutcome | null };
};

/** Starts a new round of the retry schedule, the first attempt at once. */
export type DeliveryReplayRequested = { type: 'DeliveryReplayRequested'; data: DeliveryRef & { requested_at: string } };

/**
 * A finished delivery older than the retention window leaves the read models (its list entry,
 * view and body); its stream keeps the whole history. Final: it can no longer be replayed.
 */
export type DeliveryExpired = {
  type: 'DeliveryExpired';
  data: DeliveryRef & { expired_at: string; finished_at: string };
};

export type WebhookDeliveryEvent =
  DeliverySucceeded | DeliveryAttemptFailed | DeliveryFailed | DeliveryReplayRequested | DeliveryExpired;

export const isWebhookDeliveryEvent = eventGuard<WebhookDeliveryEvent>({
  DeliverySucceeded: true,
  DeliveryAttemptFailed: true,
  DeliveryFailed: true,
  DeliveryReplayRequested: true,
  DeliveryExpired: true,
});
