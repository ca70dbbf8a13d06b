import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCalls } from '../../bench/lib/calls/call-generator';
import { ApiClient } from '../support/http-client';
import { childPids, killServiceTree, removeDataDir, startServiceProcess } from '../support/service-process';
import { trunkBody } from '../support/trunk-requests';

const ADMIN = `sk_live_${'K'.repeat(32)}`;

/** Acknowledged means durable: SIGKILL during ingestion loses nothing that got a 200. */
describe('ingestion survives SIGKILL', () => {
  it('finds every acknowledged record after the server is killed mid-ingestion and restarted', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-kill-'));
    const env = { DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN };
    let service = await startServiceProcess(env);
    let admin = new ApiClient(service.origin, service.ca, ADMIN);
    // The killed service's chDB worker outlives it for a moment: the directory is removed after it.
    let orphans: number[] = [];
    try {
      const account = (await admin.post('/v1/accounts', { name: 'Crash test' })).body;
      const fullKey = (await admin.post('/v1/api-keys', { account_id: account.id, name: 'full', scopes: ['full'] }))
        .body.key;
      const ingestKey = (await admin.post('/v1/api-keys', { account_id: account.id, name: 'gw', scopes: ['ingest'] }))
        .body.key;
      const trunkId = (await admin.withKey(fullKey).post('/v1/trunks', trunkBody())).body.id;
      const records = [
        ...generateCalls({
          count: 40_000,
          trunkIds: [trunkId],
          from: new Date(Date.now() - 86_400_000),
          to: new Date(),
          seed: 7,
        }),
      ];
      const acknowledged: string[] = [];
      let failures = 0;
      const gateway = admin.withKey(ingestKey);
      const sender = async (offset: number) => {
        for (let i = offset; i < records.length; i += 4 * 250) {
          const batch = records.slice(i, i + 250);
          const response = await gateway
            .call('POST', '/v1/ingest/calls', {
              rawBody: batch.map((r) => JSON.stringify(r)).join('\n'),
              headers: { 'content-type': 'application/x-ndjson' },
            })
            .catch(() => null);
          if (!response) return void failures++;
          if (response.status === 200 && response.body.accepted === batch.length)
            acknowledged.push(...batch.map((r) => r.id));
        }
      };
      const senders = [0, 250, 500, 750].map(sender);
      while (acknowledged.length < 4_000) await new Promise((resolve) => setTimeout(resolve, 20));
      orphans = childPids(service.child.pid!);
      service.child.kill('SIGKILL');
      await Promise.all(senders);
      await service.exited;
      expect(failures).toBeGreaterThan(0);
      const killedAt = acknowledged.length;
      expect(killedAt).toBeLessThan(records.length);

      await admin.close();
      service = await startServiceProcess(env);
      admin = new ApiClient(service.origin, service.ca, ADMIN);
      const reader = admin.withKey(fullKey);
      const stored = new Set<string>();
      let page = await reader.get('/v1/calls?limit=100');
      for (;;) {
        for (const call of page.body.calls) stored.add(call.id);
        if (!page.body.pagination.next_cursor) break;
        page = await reader.get(`/v1/calls?limit=100&cursor=${page.body.pagination.next_cursor}`);
      }
      const lost = acknowledged.filter((id) => !stored.has(id));
      expect({ acknowledged: killedAt, lost: lost.length }).toEqual({ acknowledged: killedAt, lost: 0 });
      expect(page.body.pagination.total).toBe(stored.size);
    } finally {
      await admin.close();
      await killServiceTree(service);
      await removeDataDir(dataDir, orphans);
    }
  });
});
