/**
 * The layering of the house, checked on every `npm test` (`npm run lint:deps`).
 * Every feature has one shape: `src/<feature>/{domain,contracts,write,read,projections,http}` and its
 * module (src/trunks/write/ is the write side of trunks), so each role rule covers every feature.
 * Below the features: `eventsourcing/` (command and projection runners, checkpoints), the
 * `platform/` floor (HTTP primitives, errors, logging, config), `infrastructure/` (adapters) and
 * `shared/` (the kernel). Above them: `access/` (request gate, authentication, read-ahead, health).
 * @type {import('dependency-cruiser').IConfiguration}
 */
const WRITE = '^src/[a-z-]+/write/';
const READ = '^src/[a-z-]+/read/';
const PROJECTIONS = '^src/[a-z-]+/projections/';
const CONTRACTS = '^src/[a-z-]+/contracts/';
// Resolved module paths: node_modules/<package>/…
const FRAMEWORKS =
  'node_modules/(@nestjs|fastify|@fastify|ioredis|pg|@electric-sql|@eventstore|@clickhouse|chdb|pino|rxjs|class-validator|class-transformer|reflect-metadata)/';

/**
 * The folders of src/ from the top down, and what each may import besides itself, with the reason.
 * Every import between two top-level folders must be drawn here (`allowed` below): one the
 * architecture does not draw fails `npm run lint` as `not-in-allowed`, so the knot of folders
 * importing one another cannot come back one reasonable-looking import at a time. The folder
 * diagram in docs/architecture.md is drawn from the code (`npm run docs:architecture`).
 */
const FLOOR = ['eventsourcing', 'platform', 'infrastructure', 'shared'];
const LAYERS = {
  access: {
    may: [...FLOOR, 'accounts', 'api-keys', 'trunks', 'rate-limiting'],
    why:
      'the edge: the gate authenticates with the api-keys lookup, counts with the rate limiter and ' +
      "answers read-ahead routes with the accounts' and trunks' own view functions",
  },
  audit: {
    may: [...FLOOR, 'accounts/domain', 'api-keys/domain', 'trunks/domain', 'webhooks/domain', 'exports/domain'],
    why: "the audit log names every feature's streams (their domain/ stream functions), nothing else of them",
  },
  webhooks: {
    may: [...FLOOR, 'analytics', 'calls', 'trunks', 'exports/domain'],
    why:
      'alerts evaluate the analytics overview, call.completed listens to call ingestion, an ' +
      "alert rule checks its trunk through the trunks' query, and export.completed stands for ExportCompleted",
  },
  exports: {
    may: [...FLOOR, 'calls'],
    why: 'an export selects the calls of GET /v1/calls with its filters',
  },
  analytics: {
    may: [...FLOOR, 'rejections', 'calls', 'trunks'],
    why:
      "the overview counts the gateway's rejections beside the calls; trunk health watches stored call " +
      "records (ingestion's observer) and commands the trunk's decider",
  },
  rejections: {
    may: [...FLOOR, 'calls', 'trunks'],
    why: 'rejections share the call records vocabulary (fields, signalling) and look their trunk up in its view',
  },
  'read-models': {
    may: [...FLOOR, 'accounts', 'api-keys', 'trunks', 'exports'],
    why: 'the runner of the accounts, API-key, trunk and export-job projections',
  },
  calls: { may: [...FLOOR, 'trunks'], why: 'ingestion looks each record’s trunk up in the trunk view' },
  'api-keys': {
    may: [...FLOOR, 'accounts', 'rate-limiting'],
    why: "issuing a key checks its account's state; a key's usage comes from the rate limiter's store",
  },
  trunks: { may: FLOOR, why: 'a feature on the floor' },
  accounts: { may: FLOOR, why: 'a feature on the floor' },
  idempotency: { may: FLOOR, why: 'the Idempotency-Key guard and its stores' },
  'rate-limiting': { may: FLOOR, why: 'the limiter and key usage stores, and the window arithmetic' },
  console: { may: FLOOR, why: 'serves the web console and the API docs page' },
  eventsourcing: {
    may: ['infrastructure', 'shared'],
    why: 'the machinery features use (runners, checkpoints, ports) stands on the adapters only',
  },
  platform: { may: ['infrastructure', 'shared'], why: 'the floor: HTTP primitives, errors, logging, config' },
  infrastructure: { may: ['shared'], why: 'adapters implement ports and know no feature' },
  shared: { may: [], why: 'the kernel' },
};

const allowed = [
  {
    comment: 'packages and Node built-ins (the framework rules above say who may use which)',
    from: {},
    to: { pathNot: '^src/' },
  },
  {
    comment: 'within one top-level folder (the role rules above govern inside it)',
    from: { path: '^src/([^/]+)/' },
    to: { path: '^src/$1/' },
  },
  {
    comment: 'the composition root (app.*, main.ts) and the command-line entry points see every module',
    from: { path: ['^src/[^/]+\\.ts$', '^src/cli/'] },
    to: { path: '^src/' },
  },
  ...Object.entries(LAYERS)
    .filter(([, layer]) => layer.may.length > 0)
    .map(([folder, layer]) => ({
      comment: `${folder}/: ${layer.why}`,
      from: { path: `^src/${folder}/` },
      to: { path: `^src/(${layer.may.join('|')})/` },
    })),
];

module.exports = {
  allowed,
  allowedSeverity: 'error',
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
        "(its feature's domain/, or another's) but never a command handler, a controller or a query.",
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
      to: { path: ['^src/webhooks/(delivery|alerts|calls)/', '^src/[a-z-]+/ingestion/'] },
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
      name: 'platform-is-a-floor',
      severity: 'error',
      comment:
        'platform/ (config, HTTP primitives, errors, logging, OpenAPI) is the floor every feature ' +
        'stands on; one import of a feature or of the access layer would tie every feature to it.',
      from: { path: '^src/platform/' },
      to: { path: '^src/', pathNot: ['^src/platform/', '^src/infrastructure/', '^src/shared/'] },
    },
    {
      name: 'eventsourcing-knows-no-feature',
      severity: 'error',
      comment:
        'eventsourcing/ is the machinery (command runner, projection runner, checkpoints, catch-up, ' +
        'the ports read-your-writes and read-model status) that features use; a feature named ' +
        'there would make every other feature depend on it.',
      from: { path: '^src/eventsourcing/' },
      to: { path: '^src/', pathNot: ['^src/eventsourcing/', '^src/platform/', '^src/infrastructure/', '^src/shared/'] },
    },
    {
      name: 'nothing-imports-access',
      severity: 'error',
      comment:
        'access/ (request gate, authentication, read-ahead answers, health) sits above the features ' +
        'and sees them; a feature reaching up into it would knot the edge to what it guards.',
      from: { path: '^src/', pathNot: ['^src/access/', '^src/app\\.', '^src/main\\.ts$'] },
      to: { path: '^src/access/' },
    },
    {
      name: 'contracts-import-no-role',
      severity: 'error',
      comment:
        "A feature's contracts/ holds the shapes both its write and read side answer with; importing either " +
        'side from there would bring the coupling back that it exists to remove.',
      from: { path: CONTRACTS },
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
      to: { path: '^src/', pathNot: ['^src/infrastructure/', '^src/shared/'] },
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
// The layer table, for the docs' diagram (scripts/architecture/folder-map.ts); not enumerable, so
// dependency-cruiser's validation of the configuration does not see it.
Object.defineProperty(module.exports, 'LAYERS', { value: LAYERS, enumerable: false });
