import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CpuProfile,
  formatProfiledRun,
  formatProfileSummary,
  type ProfileSummary,
  summarizeCpuProfiles,
  summarizeProfileFiles,
} from '../../../bench/lib/cpu-profile';

/** A call-tree node of the synthetic profile; `name` also names it in the timeline. */
interface Frame {
  name: string;
  url?: string;
  line?: number;
  children?: Frame[];
}

const APP = 'file:///work/main/dist/src';
const START = 5_000_000;

/** A profile whose samples hit the named frames for the given ms each, one after the other. */
function profileOf(root: Frame, timeline: [string, number][]): CpuProfile {
  const nodes: CpuProfile['nodes'] = [];
  const ids = new Map<string, number>();
  const add = (frame: Frame): number => {
    const id = nodes.length + 1;
    const node = {
      id,
      callFrame: { functionName: frame.name, url: frame.url ?? '', lineNumber: frame.line ?? -1 },
      children: [] as number[],
    };
    nodes.push(node);
    ids.set(frame.name, id);
    node.children = (frame.children ?? []).map(add);
    return id;
  };
  add(root);
  const micros = timeline.map(([, ms]) => ms * 1000);
  return {
    nodes,
    startTime: START,
    endTime: START + micros.reduce((sum, m) => sum + m, 0),
    samples: timeline.map(([name]) => ids.get(name)!),
    timeDeltas: micros.map((_, i) => (i === 0 ? 0 : micros[i - 1])),
  };
}

const root = (...children: Frame[]): Frame => ({ name: '(root)', children });
const shareOf = (summary: ProfileSummary, category: string) =>
  summary.categories.find((c) => c.category === category)?.percentOfBusy;

describe('CPU profile summary', () => {
  const profile = profileOf(
    root(
      { name: '(idle)' },
      { name: '(garbage collector)' },
      { name: 'writev' },
      {
        name: 'findAccount',
        url: `${APP}/read/accounts/account.query.js`,
        line: 12,
        children: [{ name: 'JSONParseBuiltin' }],
      },
      { name: 'sendCommand', url: 'file:///work/main/node_modules/ioredis/built/Redis.js', line: 99 },
    ),
    [
      ['(idle)', 500],
      ['findAccount', 200],
      ['JSONParseBuiltin', 100],
      ['sendCommand', 100],
      ['(garbage collector)', 50],
      ['writev', 50],
    ],
  );

  it('splits the busy time by category, without the idle time', () => {
    const summary = summarizeCpuProfiles([{ profile }]);

    expect(summary.wallMs).toBe(1000);
    expect(summary.busyMs).toBe(500);
    expect(summary.categories).toEqual([
      { category: 'app: read', ms: 300, percentOfBusy: 60 },
      { category: 'ioredis', ms: 100, percentOfBusy: 20 },
      { category: 'GC', ms: 50, percentOfBusy: 10 },
      { category: 'TLS and socket writes', ms: 50, percentOfBusy: 10 },
    ]);
  });

  it('lists the functions with the most self time, with file:line', () => {
    const { top } = summarizeCpuProfiles([{ profile }], 2);

    expect(top).toEqual([
      { name: 'findAccount', location: 'src/read/accounts/account.query.js:13', ms: 200, percentOfBusy: 40 },
      { name: 'JSONParseBuiltin', location: '(native)', ms: 100, percentOfBusy: 20 },
    ]);
  });

  it('charges a native frame with no ancestor that has a url to node internals', () => {
    const orphans = profileOf(root({ name: 'someBuiltin' }, { name: 'timer', url: 'node:internal/timers' }), [
      ['(root)', 10],
      ['someBuiltin', 30],
      ['timer', 60],
    ]);

    expect(summarizeCpuProfiles([{ profile: orphans }]).categories).toEqual([
      { category: 'other (node internals)', ms: 100, percentOfBusy: 100 },
    ]);
  });

  it('charges Buffer and WebAssembly frames, and the builtins under them, to their caller', () => {
    const calls = profileOf(
      root({
        name: 'parseLine',
        url: `${APP}/ingestion/ndjson.parser.js`,
        children: [
          { name: 'indexOf', url: 'node:buffer', children: [{ name: 'bidirectionalIndexOf' }] },
          { name: 'query', url: 'file:///work/main/node_modules/@electric-sql/pglite/dist/index.cjs' },
        ],
      }),
      [
        ['bidirectionalIndexOf', 30],
        ['indexOf', 10],
        ['query', 10],
      ],
    );
    const pglite = profileOf(
      root({
        name: 'query',
        url: 'file:///work/main/node_modules/@electric-sql/pglite/dist/index.cjs',
        children: [{ name: 'wasm-function[3991]', url: 'wasm://wasm/022a9842' }],
      }),
      [['wasm-function[3991]', 50]],
    );

    expect(summarizeCpuProfiles([{ profile: calls }, { profile: pglite }]).categories).toEqual([
      { category: 'PostgreSQL client', ms: 60, percentOfBusy: 60 },
      { category: 'app: ingestion', ms: 40, percentOfBusy: 40 },
    ]);
  });

  it('takes the first rule that matches, before the app folder', () => {
    const chdb = profileOf(
      root(
        {
          name: 'send',
          url: 'file:///work/main/.bench-dist-prof/src/infrastructure/clickhouse/embedded/embedded.clickhouse.js',
        },
        { name: 'get', url: 'file:///work/main/.bench-dist-prof/src/infrastructure/redis/redis.read-model.js' },
      ),
      [
        ['send', 30],
        ['get', 10],
      ],
    );
    const byFirstRule = summarizeCpuProfiles([{ profile: chdb }], 5, [
      { category: 'first', matches: (f) => f.functionName === 'send' },
      { category: 'second', matches: () => true },
    ]);

    expect(summarizeCpuProfiles([{ profile: chdb }]).categories.map((c) => c.category)).toEqual([
      'ClickHouse client / chDB IPC',
      'app: infrastructure',
    ]);
    expect(byFirstRule.categories.map((c) => c.category)).toEqual(['first', 'second']);
  });

  it('counts only the samples inside the windows', () => {
    const summary = summarizeCpuProfiles([
      { profile, windows: [{ fromMicros: START + 600_000, toMicros: START + 900_000 }] },
    ]);

    expect(summary.wallMs).toBe(300);
    expect(summary.busyMs).toBe(300);
    expect(shareOf(summary, 'app: read')).toBeCloseTo(66.67, 2);
    expect(shareOf(summary, 'ioredis')).toBeCloseTo(33.33, 2);
  });

  it('prints the busy and wall seconds in its title, then the categories and functions', () => {
    const lines = formatProfileSummary(summarizeCpuProfiles([{ profile }], 1), 'where the time went');

    expect(lines[0]).toBe('where the time went (busy 0.5 s of 1.0 s wall)');
    expect(lines).toContainEqual(expect.stringMatching(/^app: read +300 +60\.0$/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^findAccount +src\/read\/accounts\/account\.query\.js:13 +200 +40\.0$/),
    );
  });
});

describe('profiles read back from files', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'cpu-profile-spec-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('sums the profiles it finds and names the ones V8 did not write', () => {
    const written = join(dir, 'app-1.cpuprofile');
    const missing = join(dir, 'app-2.cpuprofile');
    writeFileSync(
      written,
      JSON.stringify(profileOf(root({ name: '(garbage collector)' }), [['(garbage collector)', 40]])),
    );

    const run = summarizeProfileFiles([{ file: written }, { file: missing }]);

    expect(run.missing).toEqual([missing]);
    expect(run.summary?.busyMs).toBe(40);
    expect(formatProfiledRun(run, 'title')).toContain(`profiles: ${written}`);
  });

  it('says there is no summary when no profile was written', () => {
    const run = summarizeProfileFiles([{ file: join(dir, 'none.cpuprofile') }]);

    expect(run.summary).toBeNull();
    expect(formatProfiledRun(run, 'title')[0]).toBe('title: none');
  });
});
