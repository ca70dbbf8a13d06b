import { ReadAheadRoutes, serializedBody } from '../../../src/access/read-ahead.routes';
import { policyFor, policyOfRoute } from '../../../src/access/route-policy';
import { accountKeys } from '../../../src/accounts/projections/accounts.projection';
import { CachingReadModelStore } from '../../../src/infrastructure/read-model/caching.read-model-store';
import { MemoryReadModelStore } from '../../../src/infrastructure/read-model/memory.read-model-store';
import { RecordCache } from '../../../src/infrastructure/read-model/record-cache';
import { isGateRecord } from '../../../src/read-models/gate-records';
import type { Principal } from '../../../src/shared/principal';
import { GatewayRecord, gatewayRecordCodec, trunkKeys } from '../../../src/trunks/projections/trunk-view';
import { gatewayTrunkOf } from '../../../src/trunks/read/gateway.queries';
import type { ReadSettings } from '../../../src/trunks/read/read.settings';
import { projectedRecord } from '../projections/trunks.readers';

const settings: ReadSettings = {
  sipDomain: 'sip.example.test',
  sipRoutes: { openai: 'sip:{sip_username}@openai.example.test', elevenlabs: null, custom: null },
};

const gatewayRecord = (overrides: Partial<GatewayRecord> = {}): GatewayRecord =>
  projectedRecord({ system_prompt: 'v1', allowed_addresses: ['198.51.100.7'], ...overrides });

const gatewayKey: Principal = { keyId: 'key_gw', accountId: null, scopes: ['gateway'], environment: 'live' };
const accountKey = (accountId: string): Principal => ({
  keyId: `key_${accountId}`,
  accountId,
  scopes: ['full'],
  environment: 'live',
});
const admin: Principal = { keyId: 'key_admin', accountId: null, scopes: ['admin'], environment: 'live' };

/** The gate answering from this instance's copies, over a store the projection leader writes. */
function gate() {
  const store = new MemoryReadModelStore();
  const cache = new RecordCache({ ttlMs: 60_000, covers: isGateRecord, maxEntries: 100, maxChars: 1_000_000 });
  const routes = new ReadAheadRoutes(settings, new CachingReadModelStore(store, cache));
  const ask = async (route: string, params: Record<string, string>, principal: Principal) => {
    const planned = routes.readAheadFor('GET', route, `/x/${Object.values(params).join('/')}`, params, {});
    if (!planned) throw new Error('no read ahead');
    return (await routes.answer(planned, undefined, principal)).body;
  };
  const lookup = (principal: Principal) =>
    ask('/v1/gateway/trunks/:sip_username', { sip_username: 'Main-Line' }, principal);
  return { store, cache, ask, lookup };
}

describe('ReadAheadRoutes over record copies', () => {
  it('answers the gateway lookup with the handler’s body, decoded once per copy', async () => {
    const { store, lookup } = gate();
    const raw = gatewayRecordCodec.encode(gatewayRecord());
    await store.write([{ op: 'set', key: trunkKeys.gateway('main-line'), value: raw }]);
    const first = await lookup(gatewayKey);
    expect(first).toEqual(gatewayTrunkOf(raw, null, settings));
    expect(await lookup(gatewayKey)).toBe(first);
    expect(await lookup(accountKey('acct_1'))).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('checks the caller on every request, decoded copy or not', async () => {
    const { store, lookup } = gate();
    await store.write([gatewayRecordCodec.set(trunkKeys.gateway('main-line'), gatewayRecord())]);
    expect(await lookup(gatewayKey)).not.toBeNull();
    expect(await lookup(accountKey('acct_2'))).toBeNull();
    expect(await lookup(accountKey('acct_1'))).not.toBeNull();
  });

  it('serves no stale body after the leader writes and drops the copy (read-your-writes)', async () => {
    const { store, cache, lookup } = gate();
    const key = trunkKeys.gateway('main-line');
    await store.write([gatewayRecordCodec.set(key, gatewayRecord())]);
    expect(await lookup(gatewayKey)).toMatchObject({ system_prompt: 'v1' });
    // The projection leader writes the store itself, then every instance drops its copy
    // (RecordInvalidations) before the write's read-your-writes wait ends.
    await store.write([gatewayRecordCodec.set(key, gatewayRecord({ system_prompt: 'v2' }))]);
    cache.drop([key]);
    expect(await lookup(gatewayKey)).toMatchObject({ system_prompt: 'v2' });
    await store.write([{ op: 'del', key }]);
    cache.drop([key]);
    expect(await lookup(gatewayKey)).toBeNull();
  });

  it('answers an account from its copied hash, and its new name once the copy is dropped', async () => {
    const { store, cache, ask } = gate();
    const key = accountKeys.account('acct_1');
    const fields = { id: 'acct_1', name: 'Acme', created_at: '2026-11-21T10:00:00.000Z' };
    await store.write([{ op: 'hset', key, fields }]);
    // The read that fills the copy answers from what it read; the next ones from the copy.
    expect(await ask('/v1/accounts/:id', { id: 'acct_1' }, admin)).toEqual(fields);
    const copied = await ask('/v1/accounts/:id', { id: 'acct_1' }, admin);
    expect(copied).toEqual(fields);
    expect(await ask('/v1/accounts/:id', { id: 'acct_1' }, admin)).toBe(copied);
    await store.write([{ op: 'hset', key, fields: { name: 'Acme 2' } }]);
    cache.drop([key]);
    expect(await ask('/v1/accounts/:id', { id: 'acct_1' }, admin)).toEqual({ ...fields, name: 'Acme 2' });
  });

  it('leaves a corrupt record to the handler, each time', async () => {
    const { store, lookup } = gate();
    await store.write([{ op: 'set', key: trunkKeys.gateway('main-line'), value: '{"trunk_id":1}' }]);
    expect(await lookup(gatewayKey)).toBeNull();
    expect(await lookup(gatewayKey)).toBeNull();
  });

  it('serializes the body of a copy once, as JSON.stringify, and a new copy anew', async () => {
    const { store, cache, lookup } = gate();
    const key = trunkKeys.gateway('main-line');
    await store.write([gatewayRecordCodec.set(key, gatewayRecord())]);
    const body = (await lookup(gatewayKey))!;
    const json = serializedBody(body);
    expect(json).toBe(JSON.stringify(body));
    expect(serializedBody((await lookup(gatewayKey))!)).toBe(json);
    await store.write([gatewayRecordCodec.set(key, gatewayRecord({ system_prompt: 'v2' }))]);
    cache.drop([key]);
    const changed = serializedBody((await lookup(gatewayKey))!);
    expect(JSON.parse(changed)).toMatchObject({ system_prompt: 'v2' });
    expect(JSON.parse(json)).toMatchObject({ system_prompt: 'v1' });
  });
});

describe('policyOfRoute', () => {
  it('is policyFor of the pattern, the same object each time', () => {
    for (const pattern of ['/v1/accounts/:id', '/v1/gateway/trunks/:sip_username', '/v1/trunks/:id', '/healthz']) {
      expect(policyOfRoute(pattern)).toEqual(policyFor(pattern));
      expect(policyOfRoute(pattern)).toBe(policyOfRoute(pattern));
    }
  });
});
