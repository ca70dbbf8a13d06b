import { randomUUID } from 'node:crypto';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import { EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { MemoryReadModelStore } from '../../src/infrastructure/read-model/memory.read-model-store';
import { ProjectionRunner } from '../../src/eventsourcing/projection-runner';
import { alertRulesProjection } from '../../src/webhooks/projections/alert-rules.projection';
import { webhookDeliveriesProjection } from '../../src/webhooks/projections/webhook-deliveries.projection';
import { webhookEndpointsProjection } from '../../src/webhooks/projections/webhook-endpoints.projection';
import { webhookKeys } from '../../src/webhooks/projections/webhook-views';
import { DomainError } from '../../src/shared/domain-error';
import { CommandRunner } from '../../src/eventsourcing/command-runner';
import { alertRuleDecider, alertRuleStream } from '../../src/webhooks/domain/alert-rule.decider';
import { webhookDeliveryDecider, webhookDeliveryStream } from '../../src/webhooks/domain/webhook-delivery.decider';
import { webhookEndpointDecider, webhookEndpointStream } from '../../src/webhooks/domain/webhook-endpoint.decider';
import { useIsolatedSchema } from '../support/postgres';
import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { until } from '../support/free-port';

const { url, schema } = useIsolatedSchema('webhooks_it');
const meta = { actor: 'test' };
const sealed = { v: 1 as const, alg: 'A256GCM' as const, iv: 'aXY=', ct: 'Y3Q=', tag: 'dGFn' };

/** On the real PostgreSQL event store: the guarantees that hold with several workers or evaluators. */
describe('webhooks on PostgreSQL with concurrent writers', () => {
  let store: EventStore;
  let runner: CommandRunner;

  beforeAll(async () => {
    store = await createEventStore({ url, schema, dataDir: '/nonexistent', poolSize: 12 });
    runner = new CommandRunner(store);
  });
  afterAll(() => store?.close());

  it('fires alert.triggered exactly once when eight evaluators see the condition at the same time', async () => {
    const ruleId = `ar_${randomUUID()}`;
    const condition = {
      metric: 'p95_latency_ms' as const,
      comparison: 'gt' as const,
      threshold: 100,
      window_minutes: 5,
      trunk_id: null,
    };
    await runner.run(
      alertRuleStream(ruleId),
      alertRuleDecider,
      { type: 'CreateAlertRule', data: { ruleId, accountId: 'acct_1', name: null, condition, at: new Date() } },
      meta,
    );
    const evaluate = () =>
      runner.run(
        alertRuleStream(ruleId),
        alertRuleDecider,
        { type: 'EvaluateAlertRule', data: { value: 500, calls: 3, at: new Date() } },
        meta,
      );
    await Promise.all(Array.from({ length: 8 }, evaluate));
    const types = (await store.readStream(alertRuleStream(ruleId))).map((e) => e.type);
    expect(types).toEqual(['AlertRuleCreated', 'AlertTriggered']);
  });

  it('records one attempt when two workers report the same attempt of a delivery', async () => {
    const deliveryId = `wd_${randomUUID()}`;
    const ref = { delivery_id: deliveryId, endpoint_id: 'we_1', account_id: 'acct_1' };
    const report = (status: number) =>
      runner
        .run(
          webhookDeliveryStream(deliveryId),
          webhookDeliveryDecider,
          {
            type: 'RecordAttempt',
            data: { ref, result: { status, error: null }, at: new Date(), retryScheduleMs: [1000] },
          },
          meta,
          { expected: 'no_stream' },
        )
        .then(
          // A report that reads the stream after the first one landed is told by the decider that
          // the attempt is recorded already (no event): on a busy machine the four need not overlap.
          (outcome) => (outcome.events.length > 0 ? 'recorded' : 'already_recorded'),
          (error: unknown) => (error instanceof DomainError ? error.code : 'other'),
        );
    const results = await Promise.all([report(500), report(200), report(500), report(200)]);
    expect(results.filter((r) => r === 'recorded')).toHaveLength(1);
    expect(results.filter((r) => r === 'precondition_failed' || r === 'already_recorded')).toHaveLength(3);
    expect(await store.readStream(webhookDeliveryStream(deliveryId))).toHaveLength(1);
  });

  it('derives the same deliveries, ids and bodies, when the dispatcher replays from zero', async () => {
    const endpointId = `we_${randomUUID()}`;
    const accountId = `acct_${randomUUID()}`;
    await runner.run(
      webhookEndpointStream(endpointId),
      webhookEndpointDecider,
      {
        type: 'CreateEndpoint',
        data: {
          endpointId,
          accountId,
          url: 'https://hooks.example.com/a',
          description: null,
          eventTypes: null,
          enabled: true,
          secret: sealed,
          at: new Date(),
        },
      },
      meta,
    );
    for (let i = 0; i < 5; i++) {
      await store.append(
        `trunk-conn_${i}_${accountId}`,
        [
          {
            id: randomUUID(),
            type: 'TrunkDeleted',
            data: {
              trunk_id: `conn_${i}`,
              account_id: accountId,
              sip_username: `u${i}`,
              name: `n${i}`,
              deleted_at: new Date().toISOString(),
            },
          },
        ],
        'no_stream',
      );
    }
    const project = async () => {
      const readModels = new MemoryReadModelStore();
      const projectionRunner = new ProjectionRunner(
        'webhooks',
        [webhookEndpointsProjection, webhookDeliveriesProjection, alertRulesProjection],
        readModels,
        store,
      );
      await projectionRunner.start();
      await until(
        'the five deliveries projected',
        async () => (await readModels.zcard(webhookKeys.deliveriesOf(endpointId))) >= 5,
        SETTLE_DEADLINE_MS,
      ).catch(() => undefined); // the assertions below say what is there
      await projectionRunner.stop();
      const page = await readModels.page(
        webhookKeys.deliveriesOf(endpointId),
        webhookKeys.deliveryPrefix,
        0,
        100,
        'asc',
      );
      const views = page.values.map((v) => JSON.parse(v!));
      return Promise.all(
        views.map(async (d) => ({
          id: d.id,
          event_id: d.event_id,
          body: await readModels.get(webhookKeys.deliveryBody(d.id)),
        })),
      );
    };
    const first = await project();
    expect(first).toHaveLength(5);
    expect(await project()).toEqual(first);
  });
});
