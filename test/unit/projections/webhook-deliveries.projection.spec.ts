import { ReadModelStore } from '../../../src/infrastructure/read-model/read-model-store.port';
import { deliveryIdOf } from '../../../src/webhooks/domain/deterministic-id';
import { webhookProjections } from '../../../src/webhooks/projections/webhook-read-models.service';
import { projectionSpec, RECORDED_AT } from '../../support/projection-spec';
import { AT, trunkCreated } from '../../support/trunk-builders';
import {
  attemptOutcome,
  callsCompleted,
  completedCall,
  deliveryAttemptFailed,
  deliveryExpired,
  deliveryFailed,
  deliveryReplayRequested,
  deliverySucceeded,
} from '../../support/webhook-delivery-builders';
import { endpointCreated, endpointPinged } from '../../support/webhook-endpoint-builders';
import {
  bodyOf,
  deliveries,
  delivery,
  deliveryTo,
  due,
  EVENT_ID,
  exhausted,
  lastSuccess,
  ofWd,
  retrying,
  revisionOf,
  seen,
  trunkEvent,
  WD,
} from './webhook-deliveries.readers';

/** The dispatcher as the runner runs it: after the endpoints projection, for each event. */
const projections = webhookProjections();

const spec = projectionSpec(projections, deliveries);

describe('webhook deliveries projection (the dispatcher)', () => {
  describe('fan-out', () => {
    it('turns a trunk event into a pending delivery to a subscribed endpoint, due at once', async () => {
      await spec
        .given(endpointCreated())
        .when(trunkEvent)
        .then(seen({ listed: [delivery()], pending: [WD], due: [WD] }));
    });

    it('keeps the public trunk payload as the body to sign and send, no secret in it', async () => {
      await projectionSpec(projections, bodyOf(WD))
        .given(endpointCreated())
        .when(trunkEvent)
        .then({
          id: EVENT_ID,
          type: 'trunk.created',
          created_at: RECORDED_AT.toISOString(),
          data: {
            id: 'conn_1',
            name: 'Main line',
            status: 'active',
            ai_provider: 'openai',
            sip_username: 'main-line',
            created_at: AT.toISOString(),
          },
        });
    });

    it('schedules one delivery per subscribed, enabled endpoint', async () => {
      await projectionSpec(projections, due)
        .given(
          endpointCreated(),
          endpointCreated({ endpoint_id: 'we_2', event_types: ['trunk.created'] }),
          endpointCreated({ endpoint_id: 'we_3', event_types: ['call.completed'] }),
          endpointCreated({ endpoint_id: 'we_4', enabled: false }),
        )
        .when(trunkEvent)
        .then([deliveryTo('we_1'), deliveryTo('we_2')].sort());
    });

    it('delivers an event only to the endpoints subscribed when it happened', async () => {
      await projectionSpec(projections, due).given(trunkEvent).when(endpointCreated()).then([]);
    });

    it('delivers a ping to the endpoint that asked for it only, whatever types it takes', async () => {
      await projectionSpec(projections, due)
        .given(endpointCreated({ event_types: ['trunk.created'] }), endpointCreated({ endpoint_id: 'we_2' }))
        .when(endpointPinged())
        .then([deliveryIdOf('evt_ping_1', 'we_1')]);
    });

    it('splits a batch of calls into call.completed events of at most 100 calls', async () => {
      const calls = Array.from({ length: 150 }, (_, i) => completedCall(i));
      const callCounts = async (store: ReadModelStore) => {
        const bodies = await Promise.all((await due(store)).map((id) => bodyOf(id)(store)));
        return bodies.map((body) => `${body?.type} x${body?.data.calls?.length}`).sort();
      };
      await projectionSpec(projections, callCounts)
        .given(endpointCreated())
        .when(callsCompleted({ calls }))
        .then(['call.completed x100', 'call.completed x50']);
    });

    it('replaying the source event creates no second delivery, even after attempts', async () => {
      await spec
        .given(endpointCreated(), trunkEvent, deliveryAttemptFailed(ofWd))
        .when(trunkEvent)
        .thenNothingChanged();
    });

    it("delivers nothing to this account's endpoint for another account's events", async () => {
      const theirs = { account_id: 'acct_2' };
      const routesOnly = async (store: ReadModelStore) => {
        const { due: _due, finished: _finished, ...routes } = await deliveries(store);
        return routes;
      };
      await projectionSpec(projections, routesOnly)
        .given(endpointCreated(), trunkEvent)
        .when(endpointCreated({ ...theirs, endpoint_id: 'we_2' }), trunkCreated({ ...theirs, trunk_id: 'conn_2' }))
        .thenNothingChanged();
    });
  });

  describe('outcomes', () => {
    it('marks a success succeeded, out of the due queue and into the finished one', async () => {
      const succeeded = attemptOutcome(1, 204, '2026-11-21T10:00:01.000Z');
      await spec
        .given(endpointCreated(), trunkEvent)
        .when(deliverySucceeded(ofWd))
        .then(
          seen({
            listed: [
              delivery({
                status: 'succeeded',
                attempts: 1,
                next_attempt_at: null,
                last_response_status: 204,
                attempt_history: [succeeded],
                updated_at: succeeded.attempted_at,
              }),
            ],
            succeeded: [WD],
            finished: [WD],
          }),
        );
    });

    it("shows a success as the endpoint's last success", async () => {
      await projectionSpec(projections, lastSuccess)
        .given(endpointCreated(), trunkEvent)
        .when(deliverySucceeded(ofWd))
        .then('2026-11-21T10:00:01.000Z');
    });

    it('keeps a failed attempt pending, due at its next attempt, the attempt in its history', async () => {
      await spec
        .given(endpointCreated(), trunkEvent)
        .when(deliveryAttemptFailed(ofWd))
        .then(seen({ listed: [retrying], pending: [WD], due: [WD] }));
    });

    it('fails a delivery out of attempts with its reason, out of the due queue and finished', async () => {
      await spec
        .given(endpointCreated(), trunkEvent, deliveryAttemptFailed(ofWd))
        .when(deliveryFailed(ofWd))
        .then(seen({ listed: [exhausted], failed: [WD], finished: [WD] }));
    });

    it('fails a delivery without an attempt (endpoint disabled) keeping its attempt count', async () => {
      const failedAt = '2026-11-21T10:00:02.000Z';
      const disabled = deliveryFailed({
        ...ofWd,
        reason: 'endpoint_disabled',
        last_attempt: null,
        failed_at: failedAt,
      });
      const failed = delivery({
        status: 'failed',
        next_attempt_at: null,
        failure_reason: 'endpoint_disabled',
        updated_at: failedAt,
      });
      await spec
        .given(endpointCreated(), trunkEvent)
        .when(disabled)
        .then(seen({ listed: [failed], failed: [WD], finished: [WD] }));
    });

    it('makes a replayed delivery pending again and due at once, keeping its history', async () => {
      const requestedAt = '2026-11-21T12:00:00.000Z';
      const replayed = {
        ...exhausted,
        status: 'pending',
        next_attempt_at: requestedAt,
        failure_reason: null,
        updated_at: requestedAt,
      };
      await spec
        .given(endpointCreated(), trunkEvent, deliveryAttemptFailed(ofWd), deliveryFailed(ofWd))
        .when(deliveryReplayRequested(ofWd))
        .then(seen({ listed: [replayed], pending: [WD], due: [WD] }));
    });

    it('removes an expired delivery from the list and both queues', async () => {
      await spec
        .given(endpointCreated(), trunkEvent, deliverySucceeded(ofWd))
        .when(deliveryExpired(ofWd))
        .then(seen({}));
    });

    it("drops an expired delivery's body", async () => {
      await projectionSpec(projections, bodyOf(WD))
        .given(endpointCreated(), trunkEvent, deliverySucceeded(ofWd))
        .when(deliveryExpired(ofWd))
        .then(null);
    });

    it("records the revision of the delivery's stream, which the next outcome is appended against", async () => {
      const second = deliveryAttemptFailed({ ...ofWd, ...attemptOutcome(2, 503, '2026-11-21T10:00:06.000Z') });
      await projectionSpec(projections, revisionOf(WD))
        .given(endpointCreated(), trunkEvent)
        .when(deliveryAttemptFailed(ofWd), second)
        .then(1);
    });

    it('writes nothing for the outcome of a delivery it does not know', async () => {
      const unknown = { delivery_id: 'wd_unknown' };
      await spec
        .given(endpointCreated(), trunkEvent)
        .when(
          deliverySucceeded(unknown),
          deliveryAttemptFailed(unknown),
          deliveryFailed(unknown),
          deliveryReplayRequested(unknown),
          deliveryExpired(unknown),
        )
        .thenNothingChanged();
    });

    // The runner never re-delivers an applied event (its checkpoint is written with the batch),
    // but Projection promises that applying an event twice changes nothing: an outcome at or
    // below the view's revision is skipped (it once counted the attempt twice).
    it('replaying an outcome changes nothing', async () => {
      await spec
        .given(endpointCreated(), trunkEvent, deliveryAttemptFailed(ofWd))
        .when(deliveryAttemptFailed(ofWd))
        .thenNothingChanged();
    });
  });
});
