import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_STORE, EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { expectError } from '../support/http-client';
import { provisionAccountDirect, startTestApp, TestApp } from '../support/test-app';
import { eventually, WebhookReceiver } from './webhooks-support';

const ADMIN = `sk_live_${'T'.repeat(32)}`;
/** Finished deliveries expire after ten minutes of the app's clock, which the test moves on. */
const RETENTION_MS = 600_000;
/** A failing delivery stays pending for an hour after its second attempt: past the retention. */
const ENV = {
  ADMIN_API_KEY: ADMIN,
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SCHEDULE_MS: '200,3600000',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_DELIVERY_RETENTION_MS: String(RETENTION_MS),
  WEBHOOK_RETENTION_SWEEP_MS: '200',
};

/** Finished deliveries leave the read models after the retention window; their history stays. */
describe('webhook delivery retention', () => {
  const receiver = new WebhookReceiver();
  const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-retention-'));
  let app: TestApp | null = null;

  beforeAll(() => receiver.start());
  afterAll(async () => {
    await app?.stop();
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('expires finished deliveries, keeps pending ones, and a rebuild agrees', async () => {
    app = await startTestApp({ ...ENV, WEBHOOK_CA_FILE: receiver.caFile }, { dataDir });
    const { client, key } = await provisionAccountDirect(app);
    const ok = (await client.post('/v1/webhook-endpoints', { url: receiver.script('/retention-ok', [200]) })).body;
    const failing = (await client.post('/v1/webhook-endpoints', { url: receiver.script('/retention-failing', [500]) }))
      .body;
    const delivered = (await client.post(`/v1/webhook-endpoints/${ok.id}/test`)).body.id as string;
    const pending = (await client.post(`/v1/webhook-endpoints/${failing.id}/test`)).body.id as string;
    const deliveries = async (endpointId: string) =>
      (await client.get(`/v1/webhook-endpoints/${endpointId}/deliveries`)).body.deliveries as {
        id: string;
        status: string;
        attempts: number;
      }[];

    expect(
      await eventually(
        () => deliveries(ok.id),
        (list) => list[0]?.status === 'succeeded',
      ),
    ).toEqual([expect.objectContaining({ id: delivered })]);
    await eventually(
      () => deliveries(failing.id),
      (list) => list[0]?.attempts === 2,
    );
    // Inside the window (the app's clock has not moved) the succeeded one is kept, however long
    // the machine took to get here...
    expect(await deliveries(ok.id)).toEqual([expect.objectContaining({ id: delivered, status: 'succeeded' })]);
    // ...past it, it is gone from the list and cannot be replayed...
    app.clock.advance(RETENTION_MS + 1000);
    await eventually(
      () => deliveries(ok.id),
      (list) => list.length === 0,
    );
    expectError(await client.post(`/v1/webhook-deliveries/${delivered}/replay`), 404, 'not_found');
    // ...while the pending one, older still, is kept.
    expect(await deliveries(failing.id)).toEqual([
      expect.objectContaining({ id: pending, status: 'pending', attempts: 2 }),
    ]);
    // The delivery's stream keeps its whole history for auditors.
    const events = app.running.app.get<EventStore>(EVENT_STORE);
    expect((await events.readStream(`webhook-delivery-${delivered}`)).map((e) => e.type)).toEqual([
      'DeliverySucceeded',
      'DeliveryExpired',
    ]);

    // The in-memory read models are rebuilt from the event store at start: the same outcome.
    await app.stop();
    app = await startTestApp({ ...ENV, WEBHOOK_CA_FILE: receiver.caFile }, { dataDir });
    const again = app.admin.withKey(key);
    expect((await again.get(`/v1/webhook-endpoints/${ok.id}/deliveries`)).body.deliveries).toEqual([]);
    expect((await again.get(`/v1/webhook-endpoints/${failing.id}/deliveries`)).body.deliveries).toEqual([
      expect.objectContaining({ id: pending, status: 'pending' }),
    ]);
    expect(receiver.on('/retention-ok')).toHaveLength(1);
  });
});
