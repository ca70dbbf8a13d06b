import { Redis } from 'ioredis';
import { CREDENTIAL_REVOCATIONS } from '../../src/access/credentials/credentials.module';
import type { CredentialRevocations } from '../../src/access/credentials/credential-revocations';
import { hashApiKey } from '../../src/shared/api-key';
import { monitorRedis } from '../support/redis-monitor';
import { GetAccount, GetAccountHandler } from '../../src/accounts/read/accounts.queries';
import { LookupGatewayTrunk, LookupGatewayTrunkHandler } from '../../src/trunks/read/gateway.queries';
import { GetTrunk, GetTrunkHandler } from '../../src/trunks/read/trunk.queries';
import { ApiClient, expectError } from '../support/http-client';
import { provisionAccountDirect, startTestApp, TEST_REDIS_URL, TestApp } from '../support/test-app';
import { trunkBody } from '../support/trunk-requests';
import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { until } from '../support/free-port';

interface Seen {
  source: string;
  args: string[];
}

/**
 * GET routes that read one record named by the path cost one Redis round trip. With credentials
 * read from Redis on every request (CREDENTIAL_CACHE_TTL_MS=0, RATE_LIMIT_LEASE_PERCENT=0), the
 * gate's script reads the record along with the credential and the rate limit. With the defaults,
 * a key this instance has seen is checked from its cache and counted from leased slots, so the
 * gate makes no round trip and the handler reads the record itself; a key's first request still
 * reads ahead in the script. With record copies (the defaults) the handler's read fills this
 * instance's copy, and the next request for the record makes no Redis command at all. Watched with MONITOR, which names the connection each command came
 * from ("lua" for commands run by a script).
 *
 * A cached credential lives CREDENTIAL_CACHE_TTL_MS, a record copy RECORD_CACHE_TTL_MS; on a busy
 * machine more than their default 10 s can pass between the warm-up in beforeAll and a test (and
 * even between two reads of one test: `npm run test:busy` saw both), so the cached modes run with
 * the longest TTLs (60 s), and a measured request by a key warmed long ago is preceded by
 * `freshlyCached`, which drops this instance's copy of the key and fills it again with one request.
 */
const MODES = [
  { label: 'credentials read from Redis on every request', cached: false, copies: false },
  { label: 'cached credentials and leased slots, no record copies', cached: true, copies: false },
  { label: 'cached credentials, leased slots and record copies (defaults)', cached: true, copies: true },
] as const;

describe.each(MODES)("read ahead in the gate's round trip (Redis, $label)", ({ cached, copies }) => {
  let app: TestApp;
  let client: ApiClient;
  let other: ApiClient;
  let gateway: ApiClient;
  let accountId: string;
  let clientKey: string;
  let gatewayKey: string;
  let monitor: { close(): void };
  const seen: Seen[] = [];

  beforeAll(async () => {
    const exact = { CREDENTIAL_CACHE_TTL_MS: '0', RATE_LIMIT_LEASE_PERCENT: '0', RECORD_CACHE_TTL_MS: '0' };
    const longCache = { CREDENTIAL_CACHE_TTL_MS: '60000', RECORD_CACHE_TTL_MS: '60000' };
    const noCopies: Record<string, string> = copies ? longCache : { ...longCache, RECORD_CACHE_TTL_MS: '0' };
    app = await startTestApp({ REDIS_URL: TEST_REDIS_URL, ...(cached ? noCopies : exact) });
    ({ client, accountId, key: clientKey } = await provisionAccountDirect(app, ['full']));
    ({ client: other } = await provisionAccountDirect(app, ['full'], 'Other'));
    ({ client: gateway, key: gatewayKey } = await provisionAccountDirect(app, ['ingest'], 'Gateway'));
    // Every key has been used once (the ingest key is refused the route, after the gate): in the
    // cached mode, each is in the instance's cache.
    for (const caller of [client, other, gateway, app.admin])
      expect([200, 403]).toContain((await caller.get('/v1/trunks')).status);
    monitor = await monitorRedis(TEST_REDIS_URL, ({ source, args }) => {
      if (args.some((arg) => arg.startsWith(app.config.redisNamespace))) seen.push({ source, args });
    });
  });

  afterAll(async () => {
    monitor?.close();
    await app?.stop();
  });

  /**
   * Cached modes: this instance's copy of `key` is dropped (as a revocation heard on the bus drops
   * it; the key itself stays valid) and filled again by one request, so the request measured next
   * finds it however long ago the key was first used. No-op when credentials are not cached.
   */
  async function freshlyCached(key: string, caller: ApiClient): Promise<void> {
    if (!cached) return;
    await app.running.app.get<symbol, CredentialRevocations>(CREDENTIAL_REVOCATIONS).revoked(hashApiKey(key));
    // The ingest key is refused the route after the gate has looked it up: cached all the same.
    expect([200, 403]).toContain((await caller.get('/v1/trunks')).status);
  }

  /** One read of the record: in the gate's script, or (cached credential) by the handler itself. */
  const oneRead = (command: 'get' | 'hgetall', viaGate = !cached) =>
    viaGate ? { gate: 1, direct: [], script: [command] } : { gate: 0, direct: [command], script: [] };
  /** The record again: with copies, from this instance's copy (no command); otherwise as oneRead. */
  const readAgain = (command: 'get' | 'hgetall') => (copies ? { gate: 0, direct: [], script: [] } : oneRead(command));

  /** The commands that touched `key` while `act` ran, by connection: the app's own, or a script's. */
  async function commandsOn(
    key: string,
    act: () => Promise<void>,
  ): Promise<{ gate: number; direct: string[]; script: string[] }> {
    const mark = `${app.config.redisNamespace}mark:${Math.random()}`;
    const redis = new Redis(TEST_REDIS_URL);
    try {
      await redis.get(`${mark}:start`);
      await act();
      await redis.get(`${mark}:end`);
      await until(
        'the end mark seen by the monitor',
        async () => seen.some((s) => s.args.includes(`${mark}:end`)),
        SETTLE_DEADLINE_MS,
      );
    } finally {
      redis.disconnect();
    }
    const from = seen.findIndex((s) => s.args.includes(`${mark}:start`));
    const to = seen.findIndex((s) => s.args.includes(`${mark}:end`));
    const window = seen.slice(from + 1, to).filter((s) => s.args.some((arg) => arg.endsWith(key)));
    const isScriptCall = (s: Seen) => /^eval(sha)?$/i.test(s.args[0]);
    return {
      gate: window.filter(isScriptCall).length,
      direct: window.filter((s) => s.source !== 'lua' && !isScriptCall(s)).map((s) => s.args[0].toLowerCase()),
      script: window.filter((s) => s.source === 'lua').map((s) => s.args[0].toLowerCase()),
    };
  }

  it("reads a trunk, its gateway record and an account in the gate's script, nowhere else", async () => {
    const body = trunkBody();
    const trunk = (await client.post('/v1/trunks', body)).body;
    const reads = [
      {
        key: `rm:trunk:${trunk.id}`,
        command: 'get' as const,
        warm: () => freshlyCached(clientKey, client),
        get: () => client.get(`/v1/trunks/${trunk.id}`),
        expected: { id: trunk.id, name: body.name },
      },
      {
        key: `rm:account:${accountId}`,
        command: 'hgetall' as const,
        // The environment's admin key is not a cached credential: nothing to warm.
        warm: async () => undefined,
        get: () => app.admin.get(`/v1/accounts/${accountId}`),
        expected: { id: accountId, name: 'Acme' },
      },
    ];
    for (const read of reads) {
      const readOnce = () =>
        commandsOn(read.key, async () => {
          const response = await read.get();
          expect({ status: response.status, body: response.body }).toEqual({
            status: 200,
            body: expect.objectContaining(read.expected),
          });
        });
      await read.warm();
      expect({ key: read.key, ...(await readOnce()) }).toEqual({ key: read.key, ...oneRead(read.command) });
      await read.warm();
      expect({ key: read.key, ...(await readOnce()) }).toEqual({ key: read.key, ...readAgain(read.command) });
    }
  });

  it("serves the gateway lookup from the read ahead and still scopes it to the key's account", async () => {
    const body = trunkBody();
    const sip = String(body.sip_username);
    // The gateway key belongs to another account than the trunk: read ahead, then refused.
    const trunk = (await client.post('/v1/trunks', body)).body;
    await freshlyCached(gatewayKey, gateway);
    const refused = await commandsOn(`rm:gateway:${sip}`, async () =>
      expectError(await gateway.get(`/v1/gateway/trunks/${sip}`), 404, 'not_found'),
    );
    expect(refused).toEqual(oneRead('get'));
    const ingestKey = await app.admin.post('/v1/api-keys', { account_id: accountId, name: 'gw', scopes: ['ingest'] });
    const own = app.admin.withKey(ingestKey.body.key);
    const lookUp = () =>
      commandsOn(`rm:gateway:${sip}`, async () => {
        const response = await own.get(`/v1/gateway/trunks/${sip}`);
        expect(response.body).toMatchObject({ trunk_id: trunk.id, account_id: accountId, status: 'active' });
      });
    // A key's first request reads ahead in the script in both modes; its next ones, as the mode says.
    expect(await lookUp()).toEqual(oneRead('get', true));
    // The refused lookup above left a copy of the record, when the instance keeps copies.
    expect(await lookUp()).toEqual(readAgain('get'));
  });

  it('shows a write acknowledged just before, and keeps every other account out', async () => {
    const trunk = (await client.post('/v1/trunks', trunkBody())).body;
    for (let i = 0; i < 5; i++) {
      const name = `renamed-${i}`;
      expect((await client.patch(`/v1/trunks/${trunk.id}`, { name })).status).toBe(200);
      expect((await client.get(`/v1/trunks/${trunk.id}`)).body.name).toBe(name);
    }
    expectError(await other.get(`/v1/trunks/${trunk.id}`), 404, 'not_found');
    expect((await client.delete(`/v1/trunks/${trunk.id}`)).status).toBe(204);
    expectError(await client.get(`/v1/trunks/${trunk.id}`), 404, 'not_found');
  });

  it("answers the plain GET from the record in the gate, with the body the route's handler gives", async () => {
    const body = trunkBody();
    const trunk = (await client.post('/v1/trunks', body)).body;
    const sip = String(body.sip_username);
    const ingestKey = await app.admin.post('/v1/api-keys', { account_id: accountId, name: 'gw', scopes: ['ingest'] });
    const own = app.admin.withKey(ingestKey.body.key);
    const get = <T>(handler: { new (...args: never[]): T }) => app.running.app.get(handler);
    const routes = [
      {
        caller: app.admin,
        path: `/v1/accounts/${accountId}`,
        handler: get(GetAccountHandler),
        direct: () => get(GetAccountHandler).execute(new GetAccount(accountId)),
      },
      {
        caller: client,
        path: `/v1/trunks/${trunk.id}`,
        handler: get(GetTrunkHandler),
        direct: () => get(GetTrunkHandler).execute(new GetTrunk(accountId, trunk.id)),
      },
      {
        caller: own,
        path: `/v1/gateway/trunks/${sip}`,
        handler: get(LookupGatewayTrunkHandler),
        direct: () => get(LookupGatewayTrunkHandler).execute(new LookupGatewayTrunk(accountId, sip)),
      },
    ];
    for (const { caller, path, handler, direct } of routes) {
      const execute = jest.spyOn(handler, 'execute');
      try {
        const plain = await caller.get(path);
        expect({ path, status: plain.status, handlerRuns: execute.mock.calls.length }).toEqual({
          path,
          status: 200,
          handlerRuns: 0,
        });
        expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(plain.headers['x-request-id']).toEqual(expect.any(String));
        expect(plain.headers['x-ratelimit-limit']).toEqual(expect.any(String));
        expect(plain.body).toEqual(JSON.parse(JSON.stringify(await direct())));
      } finally {
        execute.mockRestore();
      }
    }
    // A query string leaves the request to the handler (here one that ignores an unknown parameter).
    const execute = jest.spyOn(get(GetAccountHandler), 'execute');
    try {
      const viaHandler = await app.admin.get(`/v1/accounts/${accountId}?unknown=1`);
      expect({ status: viaHandler.status, handlerRuns: execute.mock.calls.length }).toEqual({
        status: 200,
        handlerRuns: 1,
      });
    } finally {
      execute.mockRestore();
    }
    // Refusals are the handler's: another account's trunk is a 404 in the error envelope.
    expectError(await other.get(`/v1/trunks/${trunk.id}`), 404, 'not_found');
  });

  it('reads nothing ahead without a key, and as_of still reads the history', async () => {
    const trunk = (await client.post('/v1/trunks', trunkBody())).body;
    const anonymous = await commandsOn(`rm:trunk:${trunk.id}`, async () =>
      expectError(await app.anonymous.get(`/v1/trunks/${trunk.id}`), 401, 'missing_authentication'),
    );
    expect(anonymous).toEqual({ gate: 0, direct: [], script: [] });
    const asOf = await client.get(`/v1/trunks/${trunk.id}?as_of=${encodeURIComponent(new Date().toISOString())}`);
    expect(asOf.body).toMatchObject({ id: trunk.id });
  });
});
