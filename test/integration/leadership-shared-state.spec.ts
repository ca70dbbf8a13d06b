import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import type { ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { RedisBus } from '../../src/infrastructure/cluster/redis.bus';
import { RedisMutex } from '../../src/infrastructure/cluster/redis.mutex';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import type { EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { createKeyVault } from '../../src/infrastructure/secrets/key-vault.factory';
import { AesGcmSecretBox, SecretDestroyedError } from '../../src/infrastructure/secrets/secret-box';
import { shareDestroys } from '../../src/infrastructure/secrets/secret-destroy.broadcast';
import type { EnrichedCallRecord } from '../../src/ingestion/call-record.row';
import { CallRecordWriter } from '../../src/ingestion/call-record.writer';
import { RedisTestContext, testRedisUrl } from '../support/redis';

/** State each instance keeps for itself, made safe to share: data-key caches and call versions. */
describe('per-instance state across instances', () => {
  const context = new RedisTestContext('leadership-shared-state');
  const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-shared-state-'));
  let events: EventStore;
  const buses: RedisBus[] = [];

  beforeAll(async () => {
    events = await createEventStore({ dataDir: join(dataDir, 'events') });
  });
  afterAll(async () => {
    await Promise.all(buses.map((bus) => bus.close()));
    await events.close();
    await context.teardown();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes a data key destroyed through one instance unusable on another at once', async () => {
    const namespace = context.namespace();
    const vault = await createKeyVault(events);
    const masterKey = randomBytes(32);
    const instance = async () => {
      const box = new AesGcmSecretBox(masterKey, vault);
      const bus = await RedisBus.connect(testRedisUrl(), await context.client('publisher'));
      buses.push(bus);
      await shareDestroys(box, bus, namespace);
      return box;
    };
    const [a, b] = [await instance(), await instance()];
    // A third instance that hears nothing: its cache keeps the key (what the broadcast fixes).
    const deaf = new AesGcmSecretBox(masterKey, vault);
    await a.createDataKey('conn_shared');
    const secret = await a.encrypt('conn_shared', 'sip_password', 'a-long-secret');
    expect(await b.decrypt('conn_shared', 'sip_password', secret)).toBe('a-long-secret');
    expect(await deaf.decrypt('conn_shared', 'sip_password', secret)).toBe('a-long-secret');

    await a.destroy('conn_shared');
    await expect(b.decrypt('conn_shared', 'sip_password', secret)).rejects.toBeInstanceOf(SecretDestroyedError);
    expect(await deaf.decrypt('conn_shared', 'sip_password', secret)).toBe('a-long-secret');
  });

  describe('two call-record writers on one ClickHouse', () => {
    let clickhouse: ClickHouseExecutor;
    beforeAll(async () => {
      clickhouse = await createClickHouse({ url: null, dataDir: join(dataDir, 'ch') });
    });
    afterAll(() => clickhouse.close());

    const record = (id: string, account: string, status: EnrichedCallRecord['status']): EnrichedCallRecord => ({
      id,
      trunk_id: 'conn_t',
      account_id: account,
      provider: 'custom',
      direction: 'inbound',
      from: '+15550000001',
      to: '+15550000002',
      status,
      start_time: new Date('2026-11-21T10:00:00.000Z'),
      end_time: null,
      duration_seconds: 30,
      carrier_lag_ms: 10,
      ai_latency_ms: 20,
      gateway_processing_ms: 5,
      packet_loss_percent: null,
      jitter_ms: null,
      codec_used: 'G711',
      disconnect_reason: null,
      turns: [],
      sip_trace: null,
      mos: null,
      answered: status !== 'failed',
      billable_seconds: status === 'failed' ? 0 : 30,
    });

    /** Every id re-sent through both writers at once, `rounds` times: like two instances behind a balancer. */
    async function race(
      account: string,
      writers: CallRecordWriter[],
      rounds: number,
    ): Promise<{ listed: number; counted: number; ids: number }> {
      const ids = Array.from({ length: 20 }, (_, i) => `call_${account}_${i}`);
      await writers[0].submit(ids.map((id) => record(id, account, 'connected')));
      for (let round = 0; round < rounds; round++) {
        await Promise.all(
          writers.map((writer, w) =>
            writer.submit(ids.map((id) => record(id, account, w === 0 ? 'failed' : 'disconnected'))),
          ),
        );
      }
      const [listed] = await clickhouse.query<{ n: number }>(
        'SELECT count() AS n FROM call_records FINAL WHERE account_id = {a:String} AND sign = 1',
        { a: account },
      );
      const [counted] = await clickhouse.query<{ n: number }>(
        'SELECT sum(calls) AS n FROM call_stats_hourly WHERE account_id = {a:String}',
        { a: account },
      );
      return { listed: Number(listed.n), counted: Number(counted.n), ids: ids.length };
    }

    it('lists and counts each call once when the writers share a Redis mutex', async () => {
      const redis = await context.client('mutex');
      const key = `${context.namespace()}lock:call-records`;
      const writers = [0, 1].map(() => {
        const mutex = new RedisMutex(redis, key);
        return new CallRecordWriter(clickhouse, { serialize: (critical) => mutex.withLock(critical) });
      });
      const outcome = await race('acct_locked', writers, 5);
      expect(outcome).toEqual({ listed: outcome.ids, counted: outcome.ids, ids: outcome.ids });
    });

    it('shows why: without the mutex the same races list calls twice', async () => {
      const outcome = await race(
        'acct_unlocked',
        [new CallRecordWriter(clickhouse), new CallRecordWriter(clickhouse)],
        5,
      );
      expect(outcome.listed).toBeGreaterThan(outcome.ids);
    });
  });
});
