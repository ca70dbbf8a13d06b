import {
  AttemptResult,
  WebhookDeliveryCommand,
  webhookDeliveryDecider,
} from '../../../src/webhooks/domain/webhook-delivery.decider';
import { WebhookDeliveryEvent } from '../../../src/webhooks/domain/webhook-delivery.events';
import { deciderSpec } from '../../support/decider-spec';

const spec = deciderSpec(webhookDeliveryDecider);
const ref = { delivery_id: 'wd_1', endpoint_id: 'we_1', account_id: 'acct_1' };
const AT = new Date('2026-11-21T10:00:00.000Z');
const SCHEDULE = [5000, 300_000];
const attempt = (result: AttemptResult, at = AT): WebhookDeliveryCommand => ({
  type: 'RecordAttempt',
  data: { ref, result, at, retryScheduleMs: SCHEDULE },
});
const outcome = (n: number, status: number | null, error: string | null = null) => ({
  attempt: n,
  response_status: status,
  error,
  attempted_at: AT.toISOString(),
});
const failedAttempt = (n: number, nextMs: number): WebhookDeliveryEvent => ({
  type: 'DeliveryAttemptFailed',
  data: { ...ref, ...outcome(n, 500), next_attempt_at: new Date(AT.getTime() + nextMs).toISOString() },
});

describe('webhook delivery decider', () => {
  it('records a 2xx as delivered', () => {
    spec
      .given([])
      .when(attempt({ status: 204, error: null }))
      .then([{ type: 'DeliverySucceeded', data: { ...ref, ...outcome(1, 204) } }]);
  });

  it('schedules the next attempt after a failure by the retry schedule', () => {
    spec
      .given([])
      .when(attempt({ status: 500, error: null }))
      .then([failedAttempt(1, 5000)]);
    spec
      .given([failedAttempt(1, 5000)])
      .when(attempt({ status: 500, error: null }))
      .then([failedAttempt(2, 300_000)]);
  });

  it('counts a timeout (no response) as a failed attempt', () => {
    spec
      .given([])
      .when(attempt({ status: null, error: 'timed out after 500 ms' }))
      .then([
        {
          type: 'DeliveryAttemptFailed',
          data: {
            ...ref,
            ...outcome(1, null, 'timed out after 500 ms'),
            next_attempt_at: new Date(AT.getTime() + 5000).toISOString(),
          },
        },
      ]);
  });

  it('fails the delivery once the schedule is exhausted', () => {
    spec
      .given([failedAttempt(1, 5000), failedAttempt(2, 300_000)])
      .when(attempt({ status: 503, error: null }))
      .then([
        {
          type: 'DeliveryFailed',
          data: { ...ref, reason: 'exhausted', failed_at: AT.toISOString(), last_attempt: outcome(3, 503) },
        },
      ]);
  });

  it('fails at once on 410 Gone', () => {
    spec
      .given([])
      .when(attempt({ status: 410, error: null }))
      .then([
        {
          type: 'DeliveryFailed',
          data: { ...ref, reason: 'endpoint_gone', failed_at: AT.toISOString(), last_attempt: outcome(1, 410) },
        },
      ]);
  });

  it('treats a redirect as a failure (redirects are not followed)', () => {
    spec
      .given([])
      .when(attempt({ status: 301, error: null }))
      .then([
        {
          ...failedAttempt(1, 5000),
          data: { ...failedAttempt(1, 5000).data, response_status: 301 },
        } as WebhookDeliveryEvent,
      ]);
  });

  it('records nothing for an attempt on a finished delivery', () => {
    const done: WebhookDeliveryEvent = { type: 'DeliverySucceeded', data: { ...ref, ...outcome(1, 200) } };
    spec
      .given([done])
      .when(attempt({ status: 500, error: null }))
      .then([]);
    spec
      .given([done])
      .when({ type: 'AbandonDelivery', data: { ref, reason: 'endpoint_disabled', at: AT } })
      .then([]);
  });

  it('abandons a pending delivery of a disabled endpoint', () => {
    spec
      .given([failedAttempt(1, 5000)])
      .when({ type: 'AbandonDelivery', data: { ref, reason: 'endpoint_disabled', at: AT } })
      .then([
        {
          type: 'DeliveryFailed',
          data: { ...ref, reason: 'endpoint_disabled', failed_at: AT.toISOString(), last_attempt: null },
        },
      ]);
  });

  it('a replay starts a new round of the schedule', () => {
    const exhausted: WebhookDeliveryEvent = {
      type: 'DeliveryFailed',
      data: { ...ref, reason: 'exhausted', failed_at: AT.toISOString(), last_attempt: outcome(3, 500) },
    };
    const replayed: WebhookDeliveryEvent = {
      type: 'DeliveryReplayRequested',
      data: { ...ref, requested_at: AT.toISOString() },
    };
    spec
      .given([failedAttempt(1, 5000), failedAttempt(2, 300_000), exhausted])
      .when({ type: 'ReplayDelivery', data: { ref, at: AT } })
      .then([replayed]);
    spec
      .given([failedAttempt(1, 5000), failedAttempt(2, 300_000), exhausted, replayed])
      .when(attempt({ status: 500, error: null }))
      .then([failedAttempt(4, 5000)]);
  });

  describe('retention', () => {
    const expire: WebhookDeliveryCommand = {
      type: 'ExpireDelivery',
      data: { ref, at: AT, finishedAt: '2026-10-01T00:00:00.000Z' },
    };
    const expired: WebhookDeliveryEvent = {
      type: 'DeliveryExpired',
      data: { ...ref, expired_at: AT.toISOString(), finished_at: '2026-10-01T00:00:00.000Z' },
    };
    const succeeded: WebhookDeliveryEvent = { type: 'DeliverySucceeded', data: { ...ref, ...outcome(1, 200) } };
    const exhausted: WebhookDeliveryEvent = {
      type: 'DeliveryFailed',
      data: { ...ref, reason: 'exhausted', failed_at: AT.toISOString(), last_attempt: outcome(3, 500) },
    };

    it('expires a succeeded or failed delivery', () => {
      spec.given([succeeded]).when(expire).then([expired]);
      spec
        .given([failedAttempt(1, 5000), failedAttempt(2, 300_000), exhausted])
        .when(expire)
        .then([expired]);
    });

    it('leaves a pending delivery, one replayed since, and one already expired alone', () => {
      spec.given([]).when(expire).then([]);
      spec
        .given([failedAttempt(1, 5000)])
        .when(expire)
        .then([]);
      spec
        .given([exhausted, { type: 'DeliveryReplayRequested', data: { ...ref, requested_at: AT.toISOString() } }])
        .when(expire)
        .then([]);
      spec.given([succeeded, expired]).when(expire).then([]);
    });

    it('refuses to replay an expired delivery, and records no attempt on it', () => {
      spec
        .given([succeeded, expired])
        .when({ type: 'ReplayDelivery', data: { ref, at: AT } })
        .thenThrows('not_found');
      spec
        .given([succeeded, expired])
        .when(attempt({ status: 200, error: null }))
        .then([]);
    });
  });
});
