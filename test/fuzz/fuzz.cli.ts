import 'reflect-metadata';
import { runFuzz, startFuzzApp } from './support/fuzz-session';

/**
 * `npm run test:fuzz -- --requests 20000 [--seed N] [--concurrency 4]`: a long fuzzing run with
 * the per-operation table; exits 1 on any 5xx or contract violation.
 */
function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const raw = at >= 0 ? process.argv[at + 1] : process.env[`FUZZ_${name.toUpperCase()}`];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

async function main(): Promise<number> {
  const requests = option('requests', 20_000);
  const seed = option('seed', Date.now() % 1_000_000);
  const concurrency = option('concurrency', 4);
  const { app, stop } = await startFuzzApp();
  const started = Date.now();
  try {
    process.stdout.write(`fuzzing ${requests} requests, seed ${seed}, concurrency ${concurrency}\n`);
    const { tally, operations } = await runFuzz(app, {
      requests,
      seed,
      concurrency,
      onProgress: (done) =>
        process.stdout.write(`  ${done} requests, ${Math.round((Date.now() - started) / 1000)} s\n`),
    });
    process.stdout.write(
      `\n${operations.length} operations, ${Math.round((Date.now() - started) / 1000)} s\n${tally.table()}\n`,
    );
    const never = tally.neverSucceeded();
    if (never.length) process.stdout.write(`never reached a 2xx: ${never.join(', ')}\n`);
    if (tally.findings.length) process.stdout.write(`\nfindings:\n${tally.describeFindings()}\n`);
    return tally.findings.length === 0 ? 0 : 1;
  } finally {
    await stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`fuzz: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(2);
  },
);
