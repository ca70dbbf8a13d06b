import { Decider } from '../../shared/decider';
import { DomainError } from '../../shared/domain-error';
import { AttemptOutcome, DeliveryFailReason, DeliveryRef, WebhookDeliveryEvent } from './webhook-delivery.events';

export interface AttemptResult {
  /** HTTP status of the response; null when there was none. */
  status: number | null;
  error: string | null;
}

export type WebhookDeliveryCommand =
  | { type: 'RecordAttempt'; data: { ref: DeliveryRef; result: AttemptResult; at: Date; retryScheduleMs: number[] } }
  | {
      type: 'AbandonDelivery';
      data: {
        ref: DeliveryRef;
        reason: Extract<DeliveryFailReason, 'endpoint_disabled' | 'endpoint_deleted'>;
        at: Date;
      };
    }
  | { type: 'ReplayDelivery'; data: { ref: DeliveryRef; at: Date } }
  /** `finishedAt`: when it succeeded or failed, as the read model shows it. */
  | { type: 'ExpireDelivery'; data: { ref: DeliveryRef; at: Date; finishedAt: string } };

/**
 * A delivery exists (as a read model) before its stream does: the dispatcher projection derives
 * it from the source event. Its stream holds only what happened to it, so the empty stream is
 * a pending delivery with no attempt yet.
 */
export interface WebhookDeliveryState {
  status: 'pending' | 'succeeded' | 'failed' | 'expired';
  /** Attempts since creation or the last replay: the position in the retry schedule. */
  attemptsInRound: number;
  attempts: number;
}

export const isSuccess = (status: number | null): boolean => status !== null && status >= 200 && status < 300;

export const webhookDeliveryDecider: Decider<WebhookDeliveryCommand, WebhookDeliveryEvent, WebhookDeliveryState> = {
  initialState: () => ({ status: 'pending', attemptsInRound: 0, attempts: 0 }),

  decide(command, state) {
    switch (command.type) {
      case 'RecordAttempt': {
        // Another worker recorded the outcome first; this attempt's result is moot.
        if (state.status !== 'pending') return [];
        const { ref, result, at, retryScheduleMs } = command.data;
        const outcome: AttemptOutcome = {
          attempt: state.attempts + 1,
          response_status: result.status,
          error: result.error,
          attempted_at: at.toISOString(),
        };
        if (isSuccess(result.status)) return [{ type: 'DeliverySucceeded', data: { ...ref, ...outcome } }];
        if (result.status === 410) return [failed(ref, 'endpoint_gone', at, outcome)];
        const delay = retryScheduleMs[state.attemptsInRound];
        if (delay === undefined) return [failed(ref, 'exhausted', at, outcome)];
        return [
          {
            type: 'DeliveryAttemptFailed',
            data: { ...ref, ...outcome, next_attempt_at: new Date(at.getTime() + delay).toISOString() },
          },
        ];
      }
      case 'AbandonDelivery':
        if (state.status !== 'pending') return [];
        return [failed(command.data.ref, command.data.reason, command.data.at, null)];
      case 'ReplayDelivery':
        if (state.status === 'expired')
          throw new DomainError(
            'not_found',
            `Webhook delivery ${command.data.ref.delivery_id} not found (past the retention window)`,
          );
        return [
          {
            type: 'DeliveryReplayRequested',
            data: { ...command.data.ref, requested_at: command.data.at.toISOString() },
          },
        ];
      case 'ExpireDelivery':
        // Only finished deliveries expire: a pending one (or one replayed meanwhile) is still live.
        if (state.status !== 'succeeded' && state.status !== 'failed') return [];
        return [
          {
            type: 'DeliveryExpired',
            data: {
              ...command.data.ref,
              expired_at: command.data.at.toISOString(),
              finished_at: command.data.finishedAt,
            },
          },
        ];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'DeliverySucceeded':
        return { status: 'succeeded', attemptsInRound: state.attemptsInRound + 1, attempts: state.attempts + 1 };
      case 'DeliveryAttemptFailed':
        return { status: 'pending', attemptsInRound: state.attemptsInRound + 1, attempts: state.attempts + 1 };
      case 'DeliveryFailed': {
        const attempted = event.data.last_attempt ? 1 : 0;
        return {
          status: 'failed',
          attemptsInRound: state.attemptsInRound + attempted,
          attempts: state.attempts + attempted,
        };
      }
      case 'DeliveryReplayRequested':
        return { ...state, status: 'pending', attemptsInRound: 0 };
      case 'DeliveryExpired':
        return { ...state, status: 'expired' };
    }
  },
};

function failed(
  ref: DeliveryRef,
  reason: DeliveryFailReason,
  at: Date,
  lastAttempt: AttemptOutcome | null,
): WebhookDeliveryEvent {
  return { type: 'DeliveryFailed', data: { ...ref, reason, failed_at: at.toISOString(), last_attempt: lastAttempt } };
}

export const webhookDeliveryStream = (deliveryId: string): string => `webhook-delivery-${deliveryId}`;
