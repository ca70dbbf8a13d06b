import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { Test } from '@nestjs/testing';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import { EVENT_STORE, EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { RecordCallsCompletedHandler } from '../../src/webhooks/write/record-calls-completed.handler';
import { CommandRunner } from '../../src/eventsourcing/command-runner';
import { MemoryReadModelStore } from '../../src/infrastructure/read-model/memory.read-model-store';
import { projectionSettings, webhookSettings } from '../../src/app.settings';
import { loadConfig } from '../../src/platform/config/app-config';
import { AppLogger, createRootLogger } from '../../src/platform/logging/logging';
import { WebhookReadModels } from '../../src/webhooks/projections/webhook-read-models.service';
import { DomainError } from '../../src/shared/domain-error';
import { CallCompletedRecorder } from '../../src/webhooks/calls/call-completed.recorder';
import type { EnrichedCallRecord } from '../../src/calls/ingestion/call-record.row';
import { validateCallRecord } from '../../src/calls/ingestion/call-record.validation';

const logging = new AppLogger(createRootLogger('silent'));
/** A record as ingestion hands it over: validated (every field the list form needs), then enriched. */
function acceptedRecord(): EnrichedCallRecord {
  const verdict = validateCallRecord({
    id: 'call_1',
    trunk_id: 'conn_1',
    from: '+14155550100',
    to: '+14155550101',
    status: 'connected',
    start_time: new Date(Date.now() - 60_000).toISOString(),
    end_time: new Date(Date.now() - 59_000).toISOString(),
  });
  if (!verdict.ok) throw new Error(`test record refused: ${verdict.message}`);
  return { ...verdict.record, account_id: 'acct_1', provider: 'openai' };
}
const record = acceptedRecord();

/**
 * On embedded PGlite with memory read models (replayed from zero at every start): a batch
 * ingested before the subscriptions are projected again waits for them, or is refused with 503,
 * so its call.completed events are never silently dropped.
 */
describe('call.completed right after a start', () => {
  let dir: string;
  let events: EventStore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'webhooks-recorder-'));
    events = await createEventStore({ dataDir: dir });
    await events.append(
      `webhook-endpoint-we_1`,
      [
        {
          id: randomUUID(),
          type: 'WebhookEndpointCreated',
          data: {
            endpoint_id: 'we_1',
            account_id: 'acct_1',
            url: 'https://hooks.example.com',
            description: null,
            event_types: ['call.completed'],
            enabled: true,
            secret: { v: 1, alg: 'A256GCM', iv: '', ct: '', tag: '' },
            created_at: new Date().toISOString(),
          },
        },
      ],
      'no_stream',
    );
    // A restart comes after the fact: the endpoint is older than the one-second grace.
    await new Promise((resolve) => setTimeout(resolve, 1100));
  });

  let commands: CommandBus;
  beforeAll(async () => {
    // The recorder records through the write side's command, as in the app.
    const module = await Test.createTestingModule({
      imports: [CqrsModule.forRoot()],
      providers: [RecordCallsCompletedHandler, CommandRunner, { provide: EVENT_STORE, useValue: events }],
    }).compile();
    await module.init();
    commands = module.get(CommandBus);
  });

  afterAll(async () => {
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const setUp = (consistencyTimeoutMs: number) => {
    const config = { ...loadConfig({ DATA_DIR: dir }), consistencyTimeoutMs };
    const store = new MemoryReadModelStore();
    const readModels = new WebhookReadModels(events, store, projectionSettings(config), null, logging);
    const recorder = new CallCompletedRecorder(store, commands, readModels, webhookSettings(config), logging);
    return { readModels, recorder };
  };
  const callEvents = async (accountId: string) =>
    (await events.readAll({ after: null, maxCount: 1000 })).filter(
      (e) => e.type === 'CallsCompleted' && (e.data as { account_id: string }).account_id === accountId,
    );

  it('waits for the subscriptions to be projected, then records the batch', async () => {
    const { readModels, recorder } = setUp(5000);
    await recorder.refresh(); // at boot: nothing projected yet
    const accepted = recorder.callsAccepted('acct_1', [record]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await readModels.onApplicationBootstrap();
    await accepted;
    await readModels.beforeApplicationShutdown();
    const recorded = await callEvents('acct_1');
    expect(
      recorded
        .map((e) => e.data as { account_id: string; calls: { id: string }[] })
        .map((d) => [d.account_id, d.calls.map((c) => c.id)]),
    ).toEqual([['acct_1', ['call_1']]]);
  });

  it('refuses the batch with 503 when they are not projected in time', async () => {
    const { recorder } = setUp(300);
    await recorder.refresh();
    const before = (await callEvents('acct_1')).length;
    const error = await recorder.callsAccepted('acct_1', [record]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('service_unavailable');
    expect(await callEvents('acct_1')).toHaveLength(before);
  });

  it('records nothing for an account without such an endpoint', async () => {
    const { readModels, recorder } = setUp(5000);
    await readModels.onApplicationBootstrap();
    await recorder.callsAccepted('acct_2', [record]);
    await readModels.beforeApplicationShutdown();
    expect(await callEvents('acct_2')).toHaveLength(0);
  });
});
