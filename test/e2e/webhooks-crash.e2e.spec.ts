import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../support/http-client';
import {
  childPids,
  killServiceTree,
  removeDataDir,
  ServiceProcess,
  startServiceProcess,
} from '../support/service-process';
import { trunkBody } from '../support/trunk-requests';
import { verifyStandardWebhook, WebhookReceiver } from './webhooks-support';

const ADMIN = `sk_live_${'W'.repeat(32)}`;
const TRUNKS = 6;

/**
 * The embedded default (PGlite, read models in memory): SIGKILL while deliveries are pending
 * (the receiver has been failing them) loses none; after the restart each is delivered.
 */
describe('webhook deliveries survive SIGKILL', () => {
  it('delivers every pending delivery after the service is killed and restarted', async () => {
    const receiver = new WebhookReceiver();
    await receiver.start();
    const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-webhook-kill-'));
    const env = {
      DATA_DIR: dataDir,
      ADMIN_API_KEY: ADMIN,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_CA_FILE: receiver.caFile,
      WEBHOOK_RETRY_SCHEDULE_MS: '1500,1500,1500,1500,1500,1500,1500,1500,1500,1500',
      WEBHOOK_POLL_INTERVAL_MS: '50',
    };
    let service: ServiceProcess | null = await startServiceProcess(env);
    let admin = new ApiClient(service.origin, service.ca, ADMIN);
    // The killed service's chDB worker outlives it for a moment: the directory is removed after it.
    let orphans: number[] = [];
    try {
      const account = (await admin.post('/v1/accounts', { name: 'Webhook crash test' })).body;
      const key = (await admin.post('/v1/api-keys', { account_id: account.id, name: 'full', scopes: ['full'] })).body
        .key;
      const ingestKey = (await admin.post('/v1/api-keys', { account_id: account.id, name: 'gw', scopes: ['ingest'] }))
        .body.key;
      let client = admin.withKey(key);
      const url = receiver.script('/crash', [500]);
      const endpoint = (await client.post('/v1/webhook-endpoints', { url, event_types: ['trunk.created'] })).body;
      const calls = (
        await client.post('/v1/webhook-endpoints', {
          url: receiver.script('/calls', [200]),
          event_types: ['call.completed'],
        })
      ).body;
      const trunkIds: string[] = [];
      for (let i = 0; i < TRUNKS; i++) trunkIds.push((await client.post('/v1/trunks', trunkBody())).body.id);
      // Every delivery has failed at least once, so each is pending with a retry due later.
      await receiver.waitFor(
        () => new Set(receiver.on('/crash').map((r) => r.json.data.id)).size === TRUNKS,
        SETTLE_DEADLINE_MS,
        'a first attempt of each delivery',
      );
      const before = (await client.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=100`)).body.deliveries;
      expect(before.map((d: any) => d.status)).toEqual(Array(TRUNKS).fill('pending'));
      orphans = childPids(service.child.pid!);
      service.child.kill('SIGKILL');
      await service.exited;
      service = null;
      await admin.close();

      receiver.script('/crash', [200]);
      service = await startServiceProcess(env);
      admin = new ApiClient(service.origin, service.ca, ADMIN);
      client = admin.withKey(key);
      // The first batch after the restart, while the in-memory read models are still being
      // replayed, must still produce its call.completed (or be refused so that it is re-sent).
      const call = {
        id: 'call_after_restart_1',
        trunk_id: trunkIds[0],
        from: '+14155550100',
        to: '+14155550101',
        status: 'connected',
        start_time: new Date().toISOString(),
      };
      let ingested = await admin.withKey(ingestKey).post('/v1/ingest/calls', [call]);
      for (let i = 0; i < 20 && ingested.status === 503; i++)
        ingested = await admin.withKey(ingestKey).post('/v1/ingest/calls', [call]);
      expect(ingested.body).toMatchObject({ accepted: 1 });
      await receiver.waitFor(
        () =>
          new Set(
            receiver
              .on('/crash')
              .filter((r) => r.reply === 200)
              .map((r) => r.json.data.id),
          ).size === TRUNKS,
        SETTLE_DEADLINE_MS,
        'every delivery acknowledged',
      );
      await receiver.waitFor(
        () => receiver.on('/calls').some((r) => r.json.data.calls[0]?.id === 'call_after_restart_1'),
        SETTLE_DEADLINE_MS,
        'the call.completed of the first batch after the restart',
      );
      expect(verifyStandardWebhook(calls.secret, receiver.on('/calls')[0].headers, receiver.on('/calls')[0].body)).toBe(
        true,
      );
      const delivered = receiver.on('/crash').filter((r) => r.reply === 200);
      expect(new Set(delivered.map((r) => r.json.data.id))).toEqual(new Set(trunkIds));
      for (const r of delivered) expect(verifyStandardWebhook(endpoint.secret, r.headers, r.body)).toBe(true);
      // Each event kept its id across the restart (receivers deduplicate by it).
      const idsByTrunk = new Map<string, Set<string>>();
      for (const r of receiver.on('/crash'))
        idsByTrunk.set(r.json.data.id, (idsByTrunk.get(r.json.data.id) ?? new Set()).add(r.json.id));
      expect([...idsByTrunk.values()].map((ids) => ids.size)).toEqual(Array(TRUNKS).fill(1));
      let after: any[] = [];
      for (let i = 0; i < 50; i++) {
        after = (await client.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=100`)).body.deliveries;
        if (after.every((d) => d.status === 'succeeded')) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(after.map((d) => d.status)).toEqual(Array(TRUNKS).fill('succeeded'));
      expect(after.every((d) => d.attempts >= 2 && d.last_response_status === 200)).toBe(true);
    } finally {
      await admin.close();
      if (service) await killServiceTree(service);
      await receiver.stop();
      await removeDataDir(dataDir, orphans);
    }
  });
});
