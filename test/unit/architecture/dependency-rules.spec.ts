import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/**
 * The house's rules (.dependency-cruiser.js) judged on a small tree of its own: each planted import
 * that the architecture does not draw must fail with the rule that forbids it, and the same tree
 * without the plants must pass, so a rule that stopped biting (or one that bites everything) is red.
 */
const ROOT = join(__dirname, '..', '..', '..');
const CONFIG = join(ROOT, '.dependency-cruiser.js');
const CRUISER = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/** One file per place the plants start from or reach; each exports a name so it is a module. */
const FILES = [
  'src/shared/ids.ts',
  'src/infrastructure/store.port.ts',
  'src/platform/http/pagination.ts',
  'src/eventsourcing/command-runner.ts',
  'src/accounts/domain/account.decider.ts',
  'src/accounts/read/accounts.queries.ts',
  'src/trunks/domain/trunk.decider.ts',
  'src/trunks/write/create-trunk.handler.ts',
  'src/trunks/read/trunk.queries.ts',
  'src/trunks/projections/trunks.projection.ts',
  'src/calls/ingestion/call-record.ts',
  'src/webhooks/delivery/webhook.sender.ts',
  'src/access/request-gate.ts',
  'src/audit/domain/audit-resources.ts',
];

/** Imports the architecture draws: the clean tree has exactly these. */
const DRAWN: [string, string][] = [
  ['src/platform/http/pagination.ts', 'src/infrastructure/store.port.ts'],
  ['src/eventsourcing/command-runner.ts', 'src/infrastructure/store.port.ts'],
  ['src/trunks/write/create-trunk.handler.ts', 'src/eventsourcing/command-runner.ts'],
  ['src/trunks/write/create-trunk.handler.ts', 'src/trunks/domain/trunk.decider.ts'],
  ['src/trunks/read/trunk.queries.ts', 'src/platform/http/pagination.ts'],
  ['src/trunks/projections/trunks.projection.ts', 'src/trunks/domain/trunk.decider.ts'],
  ['src/calls/ingestion/call-record.ts', 'src/trunks/projections/trunks.projection.ts'],
  ['src/access/request-gate.ts', 'src/trunks/read/trunk.queries.ts'],
  ['src/audit/domain/audit-resources.ts', 'src/trunks/domain/trunk.decider.ts'],
  ['src/trunks/domain/trunk.decider.ts', 'src/shared/ids.ts'],
];

/** Planted imports, each with the rules it must break. */
const PLANTED: { from: string; to: string; rules: string[] }[] = [
  // Upward: the floor reaching a feature, a feature reaching the edge, the machinery naming a feature.
  {
    from: 'src/platform/http/pagination.ts',
    to: 'src/trunks/read/trunk.queries.ts',
    rules: ['platform-is-a-floor', 'not-in-allowed'],
  },
  {
    from: 'src/trunks/read/trunk.queries.ts',
    to: 'src/access/request-gate.ts',
    rules: ['nothing-imports-access', 'not-in-allowed'],
  },
  {
    from: 'src/eventsourcing/command-runner.ts',
    to: 'src/trunks/domain/trunk.decider.ts',
    rules: ['eventsourcing-knows-no-feature', 'not-in-allowed'],
  },
  {
    from: 'src/infrastructure/store.port.ts',
    to: 'src/platform/http/pagination.ts',
    rules: ['infrastructure-never-imports-platform', 'not-in-allowed'],
  },
  {
    from: 'src/shared/ids.ts',
    to: 'src/platform/http/pagination.ts',
    rules: ['kernel-imports-only-kernel', 'not-in-allowed'],
  },
  // Sideways between features where the architecture draws no arrow (accounts knows no trunk).
  { from: 'src/accounts/read/accounts.queries.ts', to: 'src/trunks/read/trunk.queries.ts', rules: ['not-in-allowed'] },
  // Back up the drawn arrow calls -> trunks: a knot of two folders (no file cycle, so only the list catches it).
  {
    from: 'src/trunks/read/trunk.queries.ts',
    to: 'src/calls/ingestion/call-record.ts',
    rules: ['not-in-allowed'],
  },
  // Audit may read other features' domain/ only.
  {
    from: 'src/audit/domain/audit-resources.ts',
    to: 'src/webhooks/delivery/webhook.sender.ts',
    rules: ['domain-imports-only-domain-and-kernel', 'not-in-allowed'],
  },
  // The roles inside one feature.
  {
    from: 'src/trunks/write/create-trunk.handler.ts',
    to: 'src/trunks/read/trunk.queries.ts',
    rules: ['write-never-imports-read-or-projections'],
  },
  {
    from: 'src/trunks/projections/trunks.projection.ts',
    to: 'src/webhooks/delivery/webhook.sender.ts',
    rules: ['projections-never-cause-side-effects', 'not-in-allowed'],
  },
];

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
}

function specifier(from: string, to: string): string {
  const path = relative(dirname(from), to).replace(/\.ts$/, '');
  return path.startsWith('.') ? path : `./${path}`;
}

/** Writes the tree (every file imported by src/main.ts, so none is an orphan) and cruises it. */
function cruise(imports: [string, string][]): Violation[] {
  const dir = mkdtempSync(join(tmpdir(), 'trunkline-rules-'));
  try {
    const body = new Map<string, string[]>(FILES.map((file) => [file, []]));
    imports.forEach(([from, to], i) =>
      body.get(from)!.push(`import { m as m${i} } from '${specifier(from, to)}';\nvoid m${i};`),
    );
    for (const [file, lines] of body) {
      mkdirSync(join(dir, dirname(file)), { recursive: true });
      writeFileSync(join(dir, file), `${lines.join('\n')}\nexport const m = '${file}';\n`);
    }
    const main = FILES.map((file, i) => `import { m as f${i} } from '${specifier('src/main.ts', file)}';\nvoid f${i};`);
    writeFileSync(join(dir, 'src/main.ts'), main.join('\n') + '\n');
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'commonjs' }, include: ['src'] }),
    );
    const run = spawnSync(process.execPath, [CRUISER, 'src', '--config', CONFIG, '--output-type', 'json'], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (!run.stdout) throw new Error(`dependency-cruiser gave no answer: ${run.stderr}`);
    return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the rules of the house (.dependency-cruiser.js)', () => {
  it('pass a tree that has only the imports the architecture draws', () => {
    expect(cruise(DRAWN)).toEqual([]);
  });

  it('fail every planted import, as an error (npm run lint fails), with the rule that forbids it', () => {
    const violations = cruise([...DRAWN, ...PLANTED.map(({ from, to }): [string, string] => [from, to])]);
    for (const plant of PLANTED) {
      const broken = violations
        .filter((v) => v.from === plant.from && v.to === plant.to && v.rule.severity === 'error')
        .map((v) => v.rule.name);
      expect({ plant: `${plant.from} -> ${plant.to}`, broken: [...new Set(broken)].sort() }).toEqual({
        plant: `${plant.from} -> ${plant.to}`,
        broken: expect.arrayContaining(plant.rules),
      });
    }
  });
});
