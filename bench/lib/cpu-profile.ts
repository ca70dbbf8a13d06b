import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { table } from './report';

/** The parts of a V8 .cpuprofile (the inspector's Profiler.Profile) read here; times in µs. */
export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface CallFrame {
  functionName: string;
  url: string;
  /** 0-based. */
  lineNumber: number;
}

/**
 * A span of the monotonic clock in µs. V8 stamps samples with CLOCK_MONOTONIC, as does
 * process.hrtime in any process of the machine, so a bench can cut its child's profile to the
 * measured runs.
 */
export interface ProfileWindow {
  fromMicros: number;
  toMicros: number;
}

export interface ProfileSummary {
  wallMs: number;
  /** Everything but `(idle)`. */
  busyMs: number;
  categories: { category: string; ms: number; percentOfBusy: number }[];
  /** The functions with the most self time: `location` is file:line, or (native). */
  top: { name: string; location: string; ms: number; percentOfBusy: number }[];
}

export interface CategoryRule {
  category: string;
  matches(frame: CallFrame): boolean;
}

const IDLE = '(idle)';
const OTHER = 'other (node internals)';
const SOCKET_WRITES = new Set(['writev', 'writeUtf8String', 'writeBuffer', 'writeLatin1String', 'writeAsciiString']);

/** The innermost node_modules package of a script, e.g. `@nestjs/core`. */
function packageOf(url: string): string | null {
  return /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? null;
}

/** `src/<path>` or `bench/<path>` under a compiled tree (dist/ or .bench-dist-*), whatever its root. */
function compiledPath(url: string): string | null {
  return /\/(?:dist|\.bench-dist[^/]*)\/((?:src|bench)\/.*)$/.exec(url)?.[1] ?? null;
}

const inPackages =
  (pattern: RegExp) =>
  (frame: CallFrame): boolean =>
    pattern.test(packageOf(frame.url) ?? '');

/**
 * First match wins. Nest's pipes (class-validator, class-transformer) and interceptors (rxjs) count
 * as its pipeline; node's child_process IPC counts as chDB's because the embedded executor is the
 * only process the app talks to that way (the bench's own control messages are a handful).
 */
export const CATEGORY_RULES: readonly CategoryRule[] = [
  { category: 'GC', matches: (f) => f.functionName === '(garbage collector)' },
  { category: '(program)', matches: (f) => f.functionName === '(program)' },
  {
    category: 'TLS and socket writes',
    matches: (f) =>
      (f.url === '' && SOCKET_WRITES.has(f.functionName)) ||
      /^node:(_tls_wrap|net|internal\/stream_base_commons)$/.test(f.url),
  },
  { category: 'HTTP parsing and server', matches: (f) => f.url.startsWith('node:_http_') },
  {
    category: 'Fastify',
    matches: inPackages(
      /^(fastify|find-my-way|avvio|light-my-request|toad-cache|fast-json-stringify|fast-querystring|@fastify\/.+)$/,
    ),
  },
  { category: 'Nest pipeline', matches: inPackages(/^(@nestjs\/.+|rxjs|class-validator|class-transformer)$/) },
  {
    category: 'ioredis',
    matches: inPackages(
      /^(ioredis|@ioredis\/.+|redis-parser|redis-errors|denque|standard-as-callback|cluster-key-slot)$/,
    ),
  },
  {
    category: 'ClickHouse client / chDB IPC',
    matches: (f) =>
      inPackages(/^(@clickhouse\/.+|chdb)$/)(f) ||
      (compiledPath(f.url) ?? '').startsWith('src/infrastructure/clickhouse/embedded') ||
      f.url.startsWith('node:internal/child_process'),
  },
  { category: 'PostgreSQL client', matches: inPackages(/^(pg|pg-.+|postgres-.+|@electric-sql\/pglite)$/) },
  {
    category: 'JSON',
    matches: (f) =>
      (f.url === '' && /^(JSON\.)?(parse|stringify)$/.test(f.functionName)) || inPackages(/^secure-json-parse$/)(f),
  },
  { category: 'crypto', matches: (f) => f.url === 'node:crypto' || f.url.startsWith('node:internal/crypto') },
];

/**
 * Frames that work on their caller's data and are charged to it: V8 builtins (no url), WebAssembly
 * (PGlite's engine) and Node's Buffer and text decoding (the app's NDJSON scan is Buffer.indexOf).
 */
const CHARGED_TO_CALLER =
  /^(|wasm:\/\/.*|node:buffer|node:internal\/buffer|node:internal\/encoding|node:string_decoder)$/;

/** A rule's category, else the app's folder (`app: read`), `bench harness` or the package; null: the caller's. */
function categoryOf(frame: CallFrame, rules: readonly CategoryRule[]): string | null {
  const rule = rules.find((r) => r.matches(frame));
  if (rule) return rule.category;
  if (CHARGED_TO_CALLER.test(frame.url)) return null;
  const compiled = compiledPath(frame.url);
  if (compiled?.startsWith('bench/')) return 'bench harness';
  if (compiled) return `app: ${compiled.split('/').length > 2 ? compiled.split('/')[1] : '(top level)'}`;
  const pkg = packageOf(frame.url);
  return pkg ? `package: ${pkg}` : OTHER;
}

/**
 * Each node's category. A frame charged to its caller that no rule names takes its parent's
 * category (so, transitively, that of its nearest ancestor with code of its own); one with no such
 * ancestor is `other (node internals)`.
 */
function categoriesOf(profile: CpuProfile, rules: readonly CategoryRule[]): Map<number, string> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const children = new Set(profile.nodes.flatMap((n) => n.children ?? []));
  const found = new Map<number, string>();
  const stack = profile.nodes.filter((n) => !children.has(n.id)).map((n) => ({ node: n, parent: OTHER }));
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { node, parent } = next;
    const category = node.callFrame.functionName === IDLE ? IDLE : (categoryOf(node.callFrame, rules) ?? parent);
    found.set(node.id, category);
    for (const id of node.children ?? []) stack.push({ node: byId.get(id)!, parent: category });
  }
  return found;
}

/** µs of [from, to) inside the windows. */
const overlap = (from: number, to: number, windows: ProfileWindow[]): number =>
  windows.reduce((sum, w) => sum + Math.max(0, Math.min(to, w.toMicros) - Math.max(from, w.fromMicros)), 0);

/** Self µs per node: a sample lasts until the next one (the last until endTime), cut to the windows. */
function selfMicros(profile: CpuProfile, windows: ProfileWindow[]): Map<number, number> {
  const self = new Map<number, number>();
  let at = profile.startTime;
  const stamps = profile.timeDeltas.map((delta) => (at += delta));
  stamps.forEach((start, i) => {
    const micros = overlap(start, stamps[i + 1] ?? profile.endTime, windows);
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + micros);
  });
  return self;
}

/** Busy time by category and the top functions by self time, over one or more profiles (summed). */
export function summarizeCpuProfiles(
  parts: { profile: CpuProfile; windows?: ProfileWindow[] }[],
  topCount = 12,
  rules: readonly CategoryRule[] = CATEGORY_RULES,
): ProfileSummary {
  const byCategory = new Map<string, number>();
  const byFunction = new Map<string, { name: string; location: string; micros: number }>();
  let wall = 0;
  for (const { profile, windows = [{ fromMicros: profile.startTime, toMicros: profile.endTime }] } of parts) {
    wall += overlap(profile.startTime, profile.endTime, windows);
    const categories = categoriesOf(profile, rules);
    const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
    for (const [id, micros] of selfMicros(profile, windows)) {
      const category = categories.get(id) ?? OTHER;
      if (category === IDLE || micros === 0) continue;
      byCategory.set(category, (byCategory.get(category) ?? 0) + micros);
      const frame = frames.get(id)!;
      const key = `${frame.functionName}|${frame.url}|${frame.lineNumber}`;
      const entry = byFunction.get(key) ?? {
        name: frame.functionName || '(anonymous)',
        location: where(frame),
        micros: 0,
      };
      entry.micros += micros;
      byFunction.set(key, entry);
    }
  }
  const busy = [...byCategory.values()].reduce((sum, micros) => sum + micros, 0);
  const share = (micros: number) => (busy > 0 ? (100 * micros) / busy : 0);
  return {
    wallMs: wall / 1000,
    busyMs: busy / 1000,
    categories: [...byCategory]
      .sort(([, a], [, b]) => b - a)
      .map(([category, micros]) => ({ category, ms: micros / 1000, percentOfBusy: share(micros) })),
    top: [...byFunction.values()]
      .sort((a, b) => b.micros - a.micros)
      .slice(0, topCount)
      .map(({ name, location, micros }) => ({ name, location, ms: micros / 1000, percentOfBusy: share(micros) })),
  };
}

/** file:line from the package or the compiled tree on (node_modules/ioredis/built/Redis.js:120). */
function where(frame: CallFrame): string {
  if (frame.url === '') return '(native)';
  const url = frame.url.replace(/^file:\/\//, '');
  const short = /.*\/(node_modules\/.*)$/.exec(url)?.[1] ?? compiledPath(url) ?? url;
  return `${short}:${frame.lineNumber + 1}`;
}

/** The profile at `file`, or null when there is none (a child killed before its exit writes none). */
export function readCpuProfile(file: string): CpuProfile | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CpuProfile) : null;
}

/** This run's profiles summarized together, and those V8 did not write. */
export interface ProfiledRun {
  files: string[];
  missing: string[];
  summary: ProfileSummary | null;
}

export function summarizeProfileFiles(parts: { file: string; windows?: ProfileWindow[] }[]): ProfiledRun {
  const read = parts.map((part) => ({ ...part, profile: readCpuProfile(part.file) }));
  const found = read.flatMap(({ profile, windows }) => (profile ? [{ profile, windows }] : []));
  return {
    files: parts.map((p) => p.file),
    missing: read.filter((r) => !r.profile).map((r) => r.file),
    summary: found.length > 0 ? summarizeCpuProfiles(found) : null,
  };
}

/** Now on the clock of ProfileWindow. */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** A fresh path under ./bench-profiles/ for one child's profile in this run: old files are never read. */
export function profileFile(label: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return join(process.cwd(), 'bench-profiles', `${label}-${stamp}-${process.pid}.cpuprofile`);
}

/** The summary, then the files; or why there is none. */
export function formatProfiledRun(run: ProfiledRun, title: string): string[] {
  const missing = run.missing.map((file) => `no profile at ${file} (a child killed before its exit writes none)`);
  if (!run.summary) return [`${title}: none`, ...missing];
  return [
    ...formatProfileSummary(run.summary, title),
    ...missing,
    `profiles: ${run.files.filter((f) => !run.missing.includes(f)).join(', ')}`,
  ];
}

/** "where the app's CPU time went (busy 12.3 s of 40.1 s wall)", the categories, the top functions. */
export function formatProfileSummary(summary: ProfileSummary, title: string): string[] {
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  const percent = (p: number) => p.toFixed(1);
  return [
    `${title} (busy ${seconds(summary.busyMs)} s of ${seconds(summary.wallMs)} s wall)`,
    '',
    ...table([
      ['where (self time)', 'ms', '% of busy'],
      ...summary.categories.map((c) => [c.category, c.ms.toFixed(0), percent(c.percentOfBusy)]),
    ]),
    '',
    ...table([
      ['top functions by self time', 'file:line', 'ms', '% of busy'],
      ...summary.top.map((f) => [f.name, f.location, f.ms.toFixed(0), percent(f.percentOfBusy)]),
    ]),
  ];
}
