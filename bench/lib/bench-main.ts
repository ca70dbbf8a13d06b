import { errorText } from './child-messages';
import { Cleanups } from './cleanups';

export function progress(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

export interface BenchSpec<O extends { json: boolean }, R> {
  parse(argv: string[]): O;
  run(options: O, cleanups: Cleanups): Promise<R>;
  /** The human-readable report. */
  format(report: R, options: O): string;
  /** The --json output (default: the report itself). */
  json?(report: R, options: O): unknown;
}

/**
 * The life of every benchmark process: parse the flags, run, print, and clean up (throwaway
 * schemas, namespaces, temp dirs, children) on success, failure, SIGINT and SIGTERM alike; then
 * exit by itself even if a library left a handle open.
 */
export function runBench<O extends { json: boolean }, R>(spec: BenchSpec<O, R>): void {
  main(spec).then(
    () => exitSoon(0),
    (error: unknown) => {
      process.stderr.write(`bench failed: ${errorText(error)}\n`);
      exitSoon(1);
    },
  );
}

async function main<O extends { json: boolean }, R>(spec: BenchSpec<O, R>): Promise<void> {
  const options = spec.parse(process.argv.slice(2));
  const cleanups = new Cleanups();
  const interrupted = (signal: NodeJS.Signals) => {
    progress(`${signal}: cleaning up`);
    void cleanups.runAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  try {
    const report = await spec.run(options, cleanups);
    process.stdout.write(
      options.json
        ? `${JSON.stringify(spec.json ? spec.json(report, options) : report, null, 2)}\n`
        : spec.format(report, options),
    );
  } finally {
    await cleanups.runAll();
    process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
  }
}

/** Everything is closed by now; this only guards against a handle some library left open. */
function exitSoon(code: number): void {
  process.exitCode = code;
  setTimeout(() => {
    progress('a handle was still open 5 s after the end; exiting');
    process.exit(code);
  }, 5000).unref();
}
