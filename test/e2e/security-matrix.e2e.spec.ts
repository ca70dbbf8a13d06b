import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { ApiResponse } from '../support/http-client';
import { registeredRoutes, RouteEntry, routeKey } from '../support/route-inventory';
import { TestApp } from '../support/test-app';
import { buildWorld } from '../fuzz/support/fuzz-seed';
import type { FuzzWorld } from '../fuzz/support/fuzz-world';
import { collectionOf, Operation, operationsOf } from '../fuzz/support/openapi-operations';
import { populate } from '../fuzz/support/populate';
import { startFuzzApp } from '../fuzz/support/fuzz-session';
import { SseConnection } from '../support/sse-client';

/**
 * Every route (the app's route table and its OpenAPI description, so new routes are covered
 * without touching this file) × every kind of credential → the answer decisions.md documents.
 * The expectations below are written from decisions.md, not derived from route-policy.ts: a route
 * under a prefix no rule names fails the first test until someone decides who may use it.
 */
type Area = 'public' | 'admin' | 'ingest' | 'gateway' | 'platform' | 'audit' | 'account';
const RULES: { area: Area; match: RegExp }[] = [
  { area: 'public', match: /^\/(healthz|readyz|v1\/openapi\.json)$/ },
  // The console and the API reference: static pages, no data without a key.
  { area: 'public', match: /^\/(console|docs)(\/|$)/ },
  { area: 'admin', match: /^\/v1\/(accounts|api-keys)(\/|$)/ },
  // Provider keys in clear for the media gateway (docs/sip-gateway.md, "The agent lookup"): the gateway key only.
  { area: 'gateway', match: /^\/v1\/gateway\/trunks\/[^/]+\/agent$/ },
  // What belongs to no account (docs/sip-gateway.md): the platform's keys, admin or gateway.
  { area: 'platform', match: /^\/v1\/gateway\/rejections$/ },
  { area: 'ingest', match: /^\/v1\/(ingest|gateway)\// },
  // The account's audit log (docs/audit.md): the audit scope, or full.
  { area: 'audit', match: /^\/v1\/audit-events(\/|$)/ },
  {
    area: 'account',
    match: /^\/v1\/(trunks|calls|analytics|webhook-endpoints|webhook-deliveries|alert-rules|exports)(\/|$)/,
  },
];
const areaOf = (path: string): Area | null => RULES.find((rule) => rule.match.test(path))?.area ?? null;

type Scope = 'admin' | 'full' | 'read' | 'ingest' | 'audit' | 'gateway';
/** decisions.md: admin manages accounts and keys; full everything of its account (ingestion included); read GET only; ingest only ingestion. */
function scopeMayUse(scope: Scope, area: Exclude<Area, 'public'>, method: string): boolean {
  if (area === 'admin') return scope === 'admin';
  if (area === 'gateway') return scope === 'gateway';
  if (area === 'platform') return scope === 'admin' || scope === 'gateway';
  // gateway: a SIP gateway's platform key, for every account's ingestion and lookups (docs/sip-gateway.md).
  if (area === 'ingest') return scope === 'ingest' || scope === 'full' || scope === 'gateway';
  if (area === 'audit') return scope === 'audit' || scope === 'full';
  return scope === 'full' || (scope === 'read' && method === 'GET');
}

describe('security matrix: every route × every credential', () => {
  let app: TestApp;
  let stop: () => Promise<void>;
  let world: FuzzWorld;
  let operations: Operation[];
  let routes: RouteEntry[];
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    ({ app, stop } = await startFuzzApp());
    operations = operationsOf((await app.anonymous.get('/v1/openapi.json')).body);
    routes = registeredRoutes(app);
    world = await buildWorld(app);
    // A revoked and an expired key of every scope, so each route is tried with one it would accept.
    // Far enough ahead for a busy machine's setup; the app's clock is moved past it afterwards.
    const expiresAt = new Date(app.clock.now().getTime() + SETTLE_DEADLINE_MS).toISOString();
    for (const scope of ['admin', 'full', 'ingest', 'gateway'] as const) {
      const account = scope === 'admin' || scope === 'gateway' ? {} : { account_id: world.accounts.own };
      const revoked = await app.admin.post('/v1/api-keys', { ...account, name: `revoked ${scope}`, scopes: [scope] });
      expect((await app.admin.delete(`/v1/api-keys/${revoked.body.id}`)).status).toBe(204);
      keys[`revoked:${scope}`] = revoked.body.key;
      keys[`expired:${scope}`] = (
        await app.admin.post('/v1/api-keys', {
          ...account,
          name: `expired ${scope}`,
          scopes: [scope],
          expires_at: expiresAt,
        })
      ).body.key;
    }
    keys.gateway = (await app.admin.post('/v1/api-keys', { name: 'sip gateway', scopes: ['gateway'] })).body.key;
    await populate(app, world, operations, 'other');
    app.clock.advance(Math.max(0, Date.parse(expiresAt) - app.clock.now().getTime() + 1000));
  });
  afterAll(() => stop());

  /** A route called with a made-up id and an empty JSON object where a body is taken. */
  const call = (
    route: RouteEntry,
    authorization: string | null,
    ids: Record<string, string> = {},
  ): Promise<ApiResponse> => {
    const path = route.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) =>
      encodeURIComponent(ids[name] ?? 'id_doesnotexist'),
    );
    const withBody = route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT';
    return app.anonymous.call(route.method, path, {
      key: null,
      headers: {
        ...(authorization ? { authorization } : {}),
        ...(withBody ? { 'content-type': 'application/json' } : {}),
      },
      rawBody: withBody ? '{}' : undefined,
    });
  };
  const got = (r: ApiResponse) => `${r.status} ${r.body?.error?.code ?? ''}`.trim();
  const scoped = () => routes.filter((route) => areaOf(route.path) !== 'public');

  it('has an expectation for every registered route, and every route is in the OpenAPI description or public', () => {
    const documented = new Set(operations.map((op) => `${op.method} ${op.path}`));
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((route) => areaOf(route.path) === null).map(routeKey)).toEqual([]);
    expect(
      routes.filter((route) => areaOf(route.path) !== 'public' && !documented.has(routeKey(route))).map(routeKey),
    ).toEqual([]);
    expect([...documented].filter((op) => !routes.some((route) => routeKey(route) === op))).toEqual([]);
  });

  it('serves the public routes whatever the credential', async () => {
    const bad: string[] = [];
    for (const route of routes.filter((r) => areaOf(r.path) === 'public')) {
      for (const authorization of [null, 'Bearer not-a-key', `Bearer ${keys['revoked:full']}`]) {
        const response = await call(route, authorization);
        // A page's file route called with a made-up name is 404, and /console before the console
        // is built is 503: neither asks for a key, which is what is checked here.
        const page = /^\/(console|docs)\//.test(`${route.path}/`);
        // /readyz answers 503 with its checks while the read models catch up (the app's background
        // workers keep appending): that is readiness served, not a key asked for.
        const readiness = route.path === '/readyz' && response.status === 503 && response.body?.checks !== undefined;
        const served = response.status === 200 || readiness || (page && ![401, 403].includes(response.status));
        if (!served) bad.push(`${routeKey(route)} with ${authorization}: ${got(response)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  const refusals: [string, (route: RouteEntry) => string | null, string, RegExp][] = [
    ['no Authorization header', () => null, 'missing_authentication', /Authorization/],
    ['a malformed key', () => 'Bearer sk_live_tooShort', 'unauthorized', /Invalid API key/],
    [
      'a scheme other than Bearer',
      () => `Basic ${Buffer.from('user:pass').toString('base64')}`,
      'unauthorized',
      /Bearer/,
    ],
    [
      'a well-formed key that was never issued',
      () => `Bearer sk_live_${'N'.repeat(32)}`,
      'unauthorized',
      /Invalid API key/,
    ],
    [
      'a key of the other environment (test against live)',
      () => `Bearer sk_test_${'T'.repeat(32)}`,
      'unauthorized',
      /test key.*live/,
    ],
    [
      'a revoked key of the scope the route needs',
      (route) => `Bearer ${keys[`revoked:${neededScope(route)}`]}`,
      'unauthorized',
      /revoked/,
    ],
    [
      'an expired key of the scope the route needs',
      (route) => `Bearer ${keys[`expired:${neededScope(route)}`]}`,
      'unauthorized',
      /expired/,
    ],
  ];
  const neededScope = (route: RouteEntry): string =>
    ({ admin: 'admin', ingest: 'ingest', gateway: 'gateway', platform: 'admin', audit: 'full', account: 'full' })[
      areaOf(route.path) as Exclude<Area, 'public'>
    ];

  it.each(refusals)('answers every non-public route with 401 for %s', async (_label, authorization, code, message) => {
    const bad: string[] = [];
    for (const route of scoped()) {
      const response = await call(route, authorization(route));
      if (
        response.status !== 401 ||
        response.body?.error?.code !== code ||
        !message.test(response.body.error.message)
      ) {
        bad.push(`${routeKey(route)}: ${got(response)} ${response.body?.error?.message ?? ''}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it.each(['admin', 'full', 'read', 'ingest', 'audit', 'gateway'] as Scope[])(
    'lets a %s key through exactly the routes decisions.md gives it, 403 forbidden elsewhere',
    async (scope) => {
      const key = {
        admin: world.keys.admin,
        full: world.keys.own.full,
        read: world.keys.own.read,
        ingest: world.keys.own.ingest,
        audit: world.keys.own.audit,
        gateway: keys.gateway,
      }[scope];
      const bad: string[] = [];
      for (const route of scoped()) {
        const response = await call(route, `Bearer ${key}`);
        const allowed = scopeMayUse(scope, areaOf(route.path) as Exclude<Area, 'public'>, route.method);
        const ok = allowed
          ? response.status !== 401 && response.status !== 403 && response.status < 500
          : response.status === 403 && response.body?.error?.code === 'forbidden';
        if (!ok) bad.push(`${routeKey(route)} (${allowed ? 'allowed' : 'forbidden'}): ${got(response)}`);
      }
      expect(bad).toEqual([]);
    },
  );

  it("shows an account's audit log (list, verify, export) none of another account's events", async () => {
    const read = (path: string) => app.anonymous.get(path, { key: world.keys.own.audit });
    const [list, verify, exported] = await Promise.all([
      read('/v1/audit-events?limit=100'),
      read('/v1/audit-events/verify'),
      read('/v1/audit-events/export'),
    ]);
    expect([list.status, verify.status, exported.status]).toEqual([200, 200, 200]);
    expect(list.body.events.length).toBeGreaterThan(0);
    expect(list.body.events.every((e: any) => e.data.account_id === world.accounts.own)).toBe(true);
    const theirs = [world.accounts.other, world.pick('/v1/trunks', 'other', 0)].filter((id): id is string => !!id);
    expect(theirs.length).toBe(2);
    for (const id of theirs) {
      expect(list.text).not.toContain(id);
      expect(exported.text).not.toContain(id);
    }
  });

  it("streams none of another account's call records or rejections (GET /v1/calls/stream)", async () => {
    const ownTrunk = world.pick('/v1/trunks', 'own', 0);
    const otherTrunk = world.pick('/v1/trunks', 'other', 0);
    expect([ownTrunk, otherTrunk].every(Boolean)).toBe(true);
    const stream = await SseConnection.open(app.admin.origin, app.running.tls?.cert, world.keys.own.read);
    if (!(stream instanceof SseConnection)) throw new Error(`stream refused: ${JSON.stringify(stream)}`);
    try {
      await stream.until((events) => events.length > 0, 'ready event');
      const send = async (key: string, path: string, record: object) => {
        const response = await app.anonymous.post(path, [record], { key });
        expect(response.body).toMatchObject({ accepted: 1, rejected: [] });
      };
      const call = (id: string, trunk: string) => ({
        id,
        trunk_id: trunk,
        from: '+14155550100',
        to: '+14155550199',
        status: 'connected',
        start_time: new Date().toISOString(),
      });
      const rejection = (id: string, trunk: string) => ({
        id,
        at: new Date().toISOString(),
        reason: 'auth_failed',
        sip_code: 403,
        source_address: '192.0.2.10',
        trunk_id: trunk,
      });
      // The other account's first, then the own account's: once the own ones arrived, the others
      // had their chance (each kind is sent in the order stored).
      await send(world.keys.other.ingest, '/v1/ingest/calls', call('call_matrixTheirs', otherTrunk!));
      await send(world.keys.other.ingest, '/v1/ingest/rejections', rejection('rej_matrixTheirs', otherTrunk!));
      await send(world.keys.own.ingest, '/v1/ingest/calls', call('call_matrixMine', ownTrunk!));
      await send(world.keys.own.ingest, '/v1/ingest/rejections', rejection('rej_matrixMine', ownTrunk!));
      await stream.until(
        (events) => ['call_matrixMine', 'rej_matrixMine'].every((id) => events.some((e) => e.data.id === id)),
        "the own account's call and rejection",
      );
      expect(stream.events.filter((e) => e.event !== 'ready').every((e) => e.data.trunk_id === ownTrunk)).toBe(true);
    } finally {
      stream.close();
    }
  });

  it("answers 404 not_found for another account's resource on every account and ingest route with an id, and changes nothing of it", async () => {
    const bad: string[] = [];
    const tried: string[] = [];
    // Platform routes (admin, gateway, platform) serve every account or none: no other account's 404 to see.
    const perAccount = (path: string) => ['account', 'ingest', 'audit'].includes(areaOf(path) ?? '');
    for (const route of scoped().filter((r) => /\{/.test(r.path) && perAccount(r.path))) {
      const ids: Record<string, string> = {};
      for (const [, name] of route.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)) {
        const pool = name === 'sip_username' ? 'sip_username' : collectionOf(route.path, name);
        const id = world.pick(pool, 'other', 0);
        if (id) ids[name] = id;
        else bad.push(`${routeKey(route)}: no resource of another account to try (${pool})`);
      }
      const key = areaOf(route.path) === 'ingest' ? world.keys.own.ingest : world.keys.own.full;
      const response = await call(route, `Bearer ${key}`, ids);
      tried.push(routeKey(route));
      if (response.status !== 404 || response.body?.error?.code !== 'not_found')
        bad.push(`${routeKey(route)}: ${got(response)}`);
    }
    expect(tried.length).toBeGreaterThan(10);
    // The other account still sees each of its resources as it was (nothing was deleted or changed).
    for (const op of operations.filter(
      (o) => o.method === 'GET' && o.pathParams.length === 1 && o.path.endsWith('}') && areaOf(o.path) === 'account',
    )) {
      const id = world.pick(collectionOf(op.path, op.pathParams[0].name), 'other', 0);
      if (!id) continue;
      const response = await app.anonymous.get(op.path.replace(/\{[^}]+\}/, encodeURIComponent(id)), {
        key: world.keys.other.full,
      });
      if (response.status !== 200) bad.push(`other account's ${op.path} ${id} afterwards: ${got(response)}`);
    }
    expect(bad).toEqual([]);
  });
});
