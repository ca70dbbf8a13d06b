/**
 * The layering of the house, checked on every `npm test` (`npm run lint:deps`).
 * Roles are folders: `write/`, `read/` and `projections/` at the top of src/ or inside a feature
 * folder (src/webhooks/write/ is the write side of the webhooks feature), so one rule covers both.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const WRITE = '^src/(write|[a-z-]+/write)/';
const READ = '^src/(read|[a-z-]+/read)/';
const PROJECTIONS = '^src/(projections|[a-z-]+/projections)/';
// Resolved module paths: node_modules/<package>/…
const FRAMEWORKS =
  'node_modules/(@nestjs|fastify|@fastify|ioredis|pg|@electric-sql|@eventstore|@clickhouse|chdb|pino|rxjs|class-validator|class-transformer|reflect-metadata)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle means two modules cannot be understood (or initialised) apart; Nest resolves them ' +
        'with forwardRef and a half-built provider. Move what both need to a third module.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'kernel-and-domain-import-no-framework',
      severity: 'error',
      comment:
        'shared/ and every domain/ folder are pure TypeScript: deciders and their types run in a unit ' +
        'test with no Nest, no store and no network, and survive a change of framework.',
      from: { path: ['^src/shared/', '/domain/'] },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg'], path: FRAMEWORKS },
    },
    {
      name: 'domain-imports-only-domain-and-kernel',
      severity: 'error',
      comment:
        'A decider decides from the command, the state and the time it is given; it never reaches ' +
        'a port, an adapter, a DTO or the platform.',
      from: { path: '/domain/' },
      to: { path: '^src/', pathNot: ['/domain/', '^src/shared/'] },
    },
    {
      name: 'kernel-imports-only-kernel',
      severity: 'error',
      comment: 'shared/ sits under every layer, so it may import nothing above it.',
      from: { path: '^src/shared/' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'write-never-imports-read-or-projections',
      severity: 'error',
      comment:
        'Commands decide from their own streams (the event store), never from a read model, which ' +
        'lags and may be rebuilt; the write side must keep working while projections are down.',
      from: { path: WRITE },
      to: { path: [READ, PROJECTIONS] },
    },
    {
      name: 'read-never-imports-write',
      severity: 'error',
      comment:
        'Queries answer from read models only; reaching into the write side would read event ' +
        'streams on the hot path or couple a view to a handler. Shared shapes live in contracts/.',
      from: { path: READ },
      to: { path: WRITE },
    },
    {
      name: 'projections-never-import-handlers-or-queries',
      severity: 'error',
      comment:
        'A projection is a pure function of events to read-model writes; it knows the events ' +
        "(src/domain/, a feature's domain/) but never a command handler, a controller or a query.",
      from: { path: PROJECTIONS },
      to: { path: [WRITE, READ] },
    },
    {
      name: 'projections-never-cause-side-effects',
      severity: 'error',
      comment:
        'Projections are replayed (rebuilds, restarts, takeovers): one that sent webhooks or fired ' +
        'alerts would send them again. Side effects are feature modules that listen instead.',
      from: { path: PROJECTIONS },
      to: { path: ['^src/webhooks/(delivery|alerts|calls)/', '^src/ingestion/'] },
    },
    {
      name: 'write-never-causes-side-effects',
      severity: 'error',
      comment:
        'A command handler decides and appends; what follows from its events (deliveries, alerts) ' +
        'is done by the features that listen, so a retried or replayed command sends nothing twice.',
      from: { path: WRITE },
      to: { path: '^src/webhooks/(delivery|alerts|calls)/' },
    },
    {
      name: 'platform-never-imports-write',
      severity: 'error',
      comment:
        'The platform (config, HTTP, auth gate, logging) serves every feature; commands and their ' +
        'events belong to the write side, which alone appends to the event store.',
      from: { path: '^src/platform/' },
      to: { path: WRITE },
    },
    {
      name: 'contracts-import-no-role',
      severity: 'error',
      comment:
        'contracts/ holds the shapes both the write and the read side answer with; importing either ' +
        'side from there would bring the coupling back that it exists to remove.',
      from: { path: '^src/contracts/' },
      to: { path: [WRITE, READ, PROJECTIONS] },
    },
    {
      name: 'infrastructure-never-imports-platform',
      severity: 'error',
      comment:
        'Adapters receive their configuration as plain values; importing platform/ (config, HTTP, ' +
        'auth) would tie a store client to the web app and to process.env.',
      from: { path: '^src/infrastructure/' },
      to: { path: '^src/platform/' },
    },
    {
      name: 'infrastructure-never-imports-features',
      severity: 'error',
      comment:
        'Adapters implement ports; they know no command, query, projection or feature. A port a ' +
        'feature needs lives with the feature, its adapter beside it.',
      from: { path: '^src/infrastructure/' },
      to: {
        path: [
          WRITE,
          READ,
          PROJECTIONS,
          '^src/webhooks/',
          '^src/ingestion/',
          '^src/rate-limiting/',
          '^src/idempotency/',
        ],
      },
    },
    {
      name: 'media-gateway-imports-only-kernel',
      severity: 'error',
      comment:
        'The media gateway is its own deployable: it talks to Trunkline through the public API and its ' +
        'client only, so it may share the pure kernel (src/shared/) but never the API process code.',
      from: { path: '^media-gateway/' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'media-stages-import-no-framework-or-network',
      severity: 'error',
      comment:
        'media-gateway/src/media/ holds the per-packet stages: pure functions and small classes tested ' +
        'one by one with recorded packets, so no framework, no socket library and no agent code.',
      from: { path: '^media-gateway/src/media/' },
      to: { path: [FRAMEWORKS, 'node_modules/ws/', '^media-gateway/src/agent/'] },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A file nothing imports is dead code or a forgotten entry point.',
      from: {
        orphan: true,
        pathNot: [
          '\\.d\\.ts$',
          '^src/main\\.ts$',
          '^src/cli/',
          '^src/tools/',
          'chdb-worker\\.entry\\.ts$',
          // The media gateway's entry point and its libraries' barrels (what the entry point imports).
          '^media-gateway/src/main\\.ts$',
          '^media-gateway/src/[a-z-]+/index\\.ts$',
        ],
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
