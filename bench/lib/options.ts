import { parseArgs } from 'node:util';

/**
 * One command-line option of a bench: its kind, its default and its line in --help. It is parsed
 * into the camelCase of its name (--es-seconds: esSeconds), or into `field` when that is given.
 */
export type OptionSpec = { field?: string; help: string } & (
  | { type: 'integer'; default: number | null; min?: number; max?: number }
  | { type: 'string'; default: string; pattern?: RegExp }
  | { type: 'flag' }
);

type ValueOf<S extends OptionSpec> = S extends { type: 'integer'; default: infer D }
  ? D extends null
    ? number | null
    : number
  : S extends { type: 'string' }
    ? string
    : boolean;

type Camel<N extends string> = N extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : N;
type FieldOf<N extends string, S> = S extends { field: infer F extends string } ? F : Camel<N>;

/** The parsed options, and --json (every bench has it). */
export type BenchArgs<S extends Record<string, OptionSpec>> = {
  -readonly [N in keyof S & string as FieldOf<N, S[N]>]: ValueOf<S[N]>;
} & { json: boolean };

/** The load options of the benches that alternate autocannon runs between the app and its baseline. */
export const LOAD_OPTIONS = {
  seconds: { type: 'integer', default: 10, help: 'measured seconds of each run' },
  warmup: {
    type: 'integer',
    default: 3,
    min: 0,
    field: 'warmupSeconds',
    help: 'warm-up seconds before each run, discarded',
  },
  connections: { type: 'integer', default: 50, help: 'autocannon connections of the GET runs' },
  rounds: { type: 'integer', default: 3, help: 'alternating baseline/app GET rounds; the median of each is reported' },
} as const;

export const CPU_PROF_OPTION = {
  type: 'flag',
  help: "write V8 CPU profiles of the bench's children to ./bench-profiles/",
} as const;

export interface BenchCommand<S extends Record<string, OptionSpec>> {
  /** The compiled entry under dist/bench/, e.g. api/api.bench.js. */
  script: string;
  options: S;
  /** Lines after the options in --help (environment variables). */
  notes?: readonly string[];
}

export const STORES_NOTE =
  'env: BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_REDIS_URL (redis://127.0.0.1:6379)';

/** The PostgreSQL and Redis the benches use (throwaway schemas and namespaces in them). */
export function storeUrls(env: NodeJS.ProcessEnv = process.env): { databaseUrl: string; redisUrl: string } {
  return {
    databaseUrl: env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
}

/** node:util parseArgs over the bench's options: unknown flags are refused, --help prints and exits. */
export function parseBenchArgs<S extends Record<string, OptionSpec>>(
  argv: string[],
  command: BenchCommand<S>,
): BenchArgs<S> {
  const kinds = Object.entries(command.options).map(([name, o]) => [
    name,
    { type: o.type === 'flag' ? ('boolean' as const) : ('string' as const) },
  ]);
  const { values } = parseArgs({
    args: argv,
    options: { ...Object.fromEntries(kinds), json: { type: 'boolean' }, help: { type: 'boolean' } },
  });
  const raw = values as Record<string, string | boolean | undefined>;
  if (raw.help) {
    process.stdout.write(usage(command));
    process.exit(0);
  }
  const parsed: Record<string, unknown> = { json: raw.json === true };
  for (const [name, option] of Object.entries(command.options))
    parsed[option.field ?? name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())] = valueOf(
      name,
      option,
      raw[name],
    );
  return parsed as BenchArgs<S>;
}

function valueOf(name: string, option: OptionSpec, raw: string | boolean | undefined): unknown {
  if (option.type === 'flag') return raw === true;
  if (typeof raw !== 'string') return option.default;
  if (option.type === 'string') {
    if (option.pattern && !option.pattern.test(raw))
      throw new Error(`--${name}: ${raw} does not match ${option.pattern}`);
    return raw;
  }
  const value = Number(raw.replace(/[_,]/g, ''));
  const min = option.min ?? 1;
  const max = option.max ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new Error(`--${name} must be an integer >= ${min}${option.max === undefined ? '' : ` and <= ${max}`}`);
  return value;
}

function usage(command: BenchCommand<Record<string, OptionSpec>>): string {
  const rows = Object.entries(command.options).map(([name, option]) => {
    const placeholder = option.type === 'integer' ? ' N' : option.type === 'string' ? ' S' : '';
    const shown = option.type === 'flag' ? null : option.default;
    const fallback = shown === null || shown === '' ? '' : ` (${shown})`;
    return [`--${name}${placeholder}`, `${option.help}${fallback}`];
  });
  rows.push(['--json', 'print machine-readable JSON instead of the table']);
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return [
    `usage: node dist/bench/${command.script} [options]`,
    ...rows.map(([flag, help]) => `  ${flag.padEnd(width)}  ${help}`),
    ...(command.notes ?? []),
    '',
  ].join('\n');
}
